const IPV4_OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}$`);
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** Whether a string is an IPv4 address in dotted-quad form (no leading zeros, each part ≤ 255). */
export function isIpv4(value: string): boolean {
  return IPV4.test(value);
}

/**
 * Whether a string is an IPv6 address: eight hex groups, or fewer with one `::`, optionally
 * ending in an embedded IPv4 address (`::ffff:192.0.2.1`, as Node reports IPv4 peers on a
 * dual-stack socket). Zone ids are not accepted.
 */
export function isIpv6(value: string): boolean {
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const tail = groupsOf(halves[1] ?? '');
  let groups = [...head, ...tail];
  const last = groups.at(-1);
  let count = groups.length;
  if (last?.includes('.')) {
    if (!isIpv4(last)) return false;
    groups = groups.slice(0, -1);
    count += 1; // an IPv4 address fills two groups
  }
  if (!groups.every((group) => HEX_GROUP.test(group))) return false;
  return halves.length === 2 ? count < 8 : count === 8;
}

/** Whether a string is an IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
export function isIpOrCidr(value: string): boolean {
  const [address = '', prefix, extra] = value.split('/');
  if (extra !== undefined) return false;
  const v4 = isIpv4(address);
  if (!v4 && !isIpv6(address)) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

/** A bind address only this machine can reach: `localhost`, 127.0.0.0/8 or `::1` (bracketed or not). */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/u, '$1');
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/u.test(name);
}
