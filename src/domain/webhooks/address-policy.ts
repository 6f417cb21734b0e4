import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Block = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cidr = (s: string): Block => ipaddr.parseCIDR(s);

/**
 * IPv4 blocks of the IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates), plus
 * multicast and the reserved class E: none is a webhook receiver on the public Internet. The few
 * the registry marks globally reachable (anycast relays, AS112) are refused too: a merchant's
 * server is never one of them.
 */
export const IPV4_DENIED: readonly string[] = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (CGNAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (cloud metadata lives here)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments (incl. DS-Lite 192.0.0.0/29, NAT64 discovery)
  '192.0.2.0/24', // documentation TEST-NET-1
  '192.31.196.0/24', // AS112-v4
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '192.175.48.0/24', // direct delegation AS112
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation TEST-NET-2
  '203.0.113.0/24', // documentation TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved (and 255.255.255.255 broadcast)
];

/** Global unicast is 2000::/3; everything outside it (loopback, ::/96, NAT64, fc00::/7, fe80::/10, fec0::/10, ff00::/8, …) is refused. */
const IPV6_GLOBAL_UNICAST = cidr('2000::/3');

/** Special-purpose blocks inside 2000::/3 (IANA IPv6 Special-Purpose Address Registry). */
export const IPV6_DENIED: readonly string[] = [
  '2001::/23', // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID, AMT, AS112, anycast
  '2001:db8::/32', // documentation
  '2620:4f:8000::/48', // direct delegation AS112
  '3fff::/20', // documentation (RFC 9637)
];

const SIX_TO_FOUR = cidr('2002::/16');

const ipv4Denied = IPV4_DENIED.map(cidr) as [ipaddr.IPv4, number][];
const ipv6Denied = IPV6_DENIED.map(cidr) as [ipaddr.IPv6, number][];

function isPublicIPv4(ip: ipaddr.IPv4): boolean {
  return !ipv4Denied.some((block) => ip.match(block));
}

/** The IPv4 address a 6to4 address (2002:AABB:CCDD::/48) routes to. */
function sixToFourTarget(ip: ipaddr.IPv6): ipaddr.IPv4 {
  const [, high, low] = ip.parts as [number, number, number];
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

function isPublicIPv6(ip: ipaddr.IPv6): boolean {
  // IPv4-mapped (::ffff:a.b.c.d) connects to the IPv4 address itself.
  if (ip.isIPv4MappedAddress()) return isPublicIPv4(ip.toIPv4Address());
  if (!ip.match(IPV6_GLOBAL_UNICAST)) return false;
  if (ipv6Denied.some((block) => ip.match(block))) return false;
  // 6to4 reaches the embedded IPv4 through a relay: as public as that address.
  if (ip.match(SIX_TO_FOUR)) return isPublicIPv4(sixToFourTarget(ip));
  return true;
}

/**
 * An IPv6 text's dotted IPv4 tail as two hex groups. ipaddr.js reads `::a.b.c.d` (IPv4-compatible,
 * which glibc's inet_ntop prints) as IPv4-mapped `::ffff:a.b.c.d`; in hex it reads it right.
 */
function hexTail(text: string): string {
  return text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) => {
    const hex = (x: string, y: string) => ((Number(x) << 8) | Number(y)).toString(16);
    return `${hex(a, b)}:${hex(c, d)}`;
  });
}

/**
 * Whether a webhook may connect to this address: an allow-list of globally routable unicast
 * addresses, not a deny-list of the private ones a library knows, so any form not understood here
 * (a zone id, an odd notation, a new special block inside a denied range) is refused.
 */
export function isPublicUnicast(address: string): boolean {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // Only the canonical notations Node itself would connect to; '1.2.3' or octal forms are refused.
  if (isIP(text) === 0 || text.includes('%') || !ipaddr.isValid(text)) return false;
  const ip = ipaddr.parse(isIP(text) === 6 ? hexTail(text) : text);
  return ip.kind() === 'ipv4' ? isPublicIPv4(ip as ipaddr.IPv4) : isPublicIPv6(ip as ipaddr.IPv6);
}
