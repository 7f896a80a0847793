import { BlockList, isIP } from 'node:net';

/**
 * Address ranges a metadata-document fetch must never reach: this host, private networks,
 * link-local (cloud metadata services live at 169.254.169.254), shared, benchmarking,
 * documentation, multicast and reserved ranges (RFC 6890 and its IPv6 registry).
 */
const NOT_PUBLIC_V4 = new BlockList();
/** Kept apart: a BlockList with IPv6 rules such as ::ffff:0:0/96 matches every IPv4 address checked against it. */
const NOT_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
}
/**
 * IANA allocates only 2000::/3 as global unicast; everything else (the ::/8 block with its
 * IPv4-compatible ::a.b.c.d and IPv4-translated ::ffff:0:a.b.c.d forms, 100::/8, 4000::/3,
 * 5f00::/16 SRv6 SIDs, ULA, link-local, site-local, multicast) is reserved or not reachable on
 * the internet, so an IPv6 address must be inside it before the special-purpose list is checked.
 */
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet('2000::', 3, 'ipv6');
// The special-purpose ranges that are not covered by "outside 2000::/3" are all listed anyway,
// so the list reads as RFC 6890's registry (and RFC 6052, 4291, 3879, 9637) does.
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible ::a.b.c.d (RFC 4291 §2.5.5.1, deprecated)
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765)
  ['64:ff9b::', 96], // NAT64 well-known prefix (RFC 6052)
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation (RFC 8215)
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4, which embeds an IPv4 address
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 SIDs (RFC 9602)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local, deprecated (RFC 3879)
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether an IP address is on the public internet. IPv6 forms that embed an IPv4 address (mapped,
 * compatible, translated, NAT64, 6to4) count as not public, whatever the IPv4 address: they reach
 * IPv4 ranges indirectly. So does anything that is not an IP address.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !NOT_PUBLIC_V4.check(address, 'ipv4');
  return GLOBAL_UNICAST_V6.check(address, 'ipv6') && !NOT_PUBLIC_V6.check(address, 'ipv6');
}
