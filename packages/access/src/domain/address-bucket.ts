import { isIpv4, isIpv6 } from './ip-address.js';

/** Default of RATE_LIMIT_IPV6_PREFIX: one IPv6 subscriber usually holds at least a /64. */
export const DEFAULT_IPV6_RATE_LIMIT_PREFIX = 64;

const MAPPED_IPV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/**
 * The part of a client address the per-address limit counts (spec §8). An IPv4 address counts
 * as itself, and so does an IPv4-mapped IPv6 one (`::ffff:192.0.2.1`, how a dual-stack socket
 * reports IPv4 peers), so one client is one bucket whichever socket it came through. An IPv6
 * address counts as its network of `ipv6Prefix` bits (`2001:db8:1:2::/64`): a single host is
 * usually given a whole /64 and can pick any address in it, so counting each address would give
 * it 2^64 fresh buckets. Anything that is not an IP address is returned unchanged.
 */
export function addressBucketOf(address: string, ipv6Prefix: number): string {
  const mapped = MAPPED_IPV4.exec(address)?.[1];
  if (mapped !== undefined && isIpv4(mapped)) return mapped;
  if (isIpv4(address) || !isIpv6(address)) return address;
  const groups = ipv6Groups(address);
  const masked = groups.map((group, index) => {
    const bitsKept = Math.min(16, Math.max(0, ipv6Prefix - index * 16));
    return bitsKept === 0 ? 0 : group & (0xffff << (16 - bitsKept)) & 0xffff;
  });
  return `${masked.map((group) => group.toString(16)).join(':')}/${ipv6Prefix}`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an embedded IPv4 tail split in two). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const groupsOf = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const first = groupsOf(head);
  const last = tail === undefined ? [] : groupsOf(tail);
  const zeros = new Array<number>(8 - first.length - last.length).fill(0);
  return [...first, ...zeros, ...last];
}
