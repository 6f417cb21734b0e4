import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { isPublicUnicast, IPV4_DENIED, IPV6_DENIED } from '../../src/domain/webhooks/address-policy.js';

describe('webhook address policy: only globally routable unicast', () => {
  it.each([
    ['0.0.0.0/8 this network', '0.1.2.3'],
    ['10.0.0.0/8 private', '10.255.0.1'],
    ['100.64.0.0/10 CGNAT', '100.127.255.254'],
    ['127.0.0.0/8 loopback', '127.0.0.2'],
    ['169.254.0.0/16 link-local, cloud metadata', '169.254.169.254'],
    ['172.16.0.0/12 private', '172.31.255.1'],
    ['192.0.0.0/24 IETF protocol assignments', '192.0.0.9'],
    ['192.0.2.0/24 TEST-NET-1', '192.0.2.10'],
    ['192.31.196.0/24 AS112-v4', '192.31.196.1'],
    ['192.52.193.0/24 AMT', '192.52.193.1'],
    ['192.88.99.0/24 6to4 relay anycast', '192.88.99.1'],
    ['192.168.0.0/16 private', '192.168.1.1'],
    ['192.175.48.0/24 AS112 direct delegation', '192.175.48.6'],
    ['198.18.0.0/15 benchmarking', '198.19.255.1'],
    ['198.51.100.0/24 TEST-NET-2', '198.51.100.7'],
    ['203.0.113.0/24 TEST-NET-3', '203.0.113.7'],
    ['224.0.0.0/4 multicast', '239.255.255.250'],
    ['240.0.0.0/4 reserved', '250.1.2.3'],
    ['255.255.255.255 broadcast', '255.255.255.255'],
  ])('refuses IPv4 %s (%s)', (_range, address) => {
    expect(isPublicUnicast(address)).toBe(false);
  });

  it.each([
    ['::/128 unspecified', '::'],
    ['::1/128 loopback', '::1'],
    ['::ffff:0:0/96 IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['::ffff:0:0/96 IPv4-mapped metadata', '::ffff:a9fe:a9fe'],
    ['::ffff:0:0/96 IPv4-mapped benchmarking', '::ffff:198.18.0.1'],
    ['::/96 IPv4-compatible', '::a9fe:a9fe'],
    ['::/96 IPv4-compatible public', '::8.8.8.8'],
    ['64:ff9b::/96 NAT64', '64:ff9b::a9fe:a9fe'],
    ['64:ff9b::/96 NAT64 of a public address', '64:ff9b::808:808'],
    ['64:ff9b:1::/48 local NAT64', '64:ff9b:1::a00:1'],
    ['100::/64 discard-only', '100::1'],
    ['2001::/32 Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['2001::/32 Teredo embedding a private IPv4', '2001:0:a00:1::1'],
    ['2001:2::/48 benchmarking', '2001:2::1'],
    ['2001:10::/28 ORCHID', '2001:10::1'],
    ['2001:20::/28 ORCHIDv2', '2001:20::1'],
    ['2001:db8::/32 documentation', '2001:db8::1'],
    ['3fff::/20 documentation', '3fff::1'],
    ['2002::/16 6to4 embedding 10.0.0.1', '2002:a00:1::1'],
    ['2002::/16 6to4 embedding 127.0.0.1', '2002:7f00:1::1'],
    ['2002::/16 6to4 embedding 169.254.169.254', '2002:a9fe:a9fe::1'],
    ['2620:4f:8000::/48 AS112', '2620:4f:8000::1'],
    ['fc00::/7 unique-local', 'fd12:3456::1'],
    ['fe80::/10 link-local', 'fe80::1'],
    ['fec0::/10 site-local', 'fec0::1'],
    ['ff00::/8 multicast', 'ff02::1'],
    ['5f00::/16 SRv6 SIDs (outside 2000::/3)', '5f00::1'],
  ])('refuses IPv6 %s (%s)', (_range, address) => {
    expect(isPublicUnicast(address)).toBe(false);
  });

  it.each([
    ['a public IPv4', '8.8.8.8'],
    ['a public IPv4 next to 198.18.0.0/15', '198.20.0.1'],
    ['a public IPv4 next to 100.64.0.0/10', '100.128.0.1'],
    ['a public IPv6', '2606:4700:4700::1111'],
    ['IPv4-mapped of a public IPv4', '::ffff:8.8.8.8'],
    ['6to4 of a public IPv4', '2002:808:808::1'],
    ['a public IPv6 next to 2001::/23', '2001:200::1'],
  ])('allows %s (%s)', (_name, address) => {
    expect(isPublicUnicast(address)).toBe(true);
  });

  it.each(['1.2.3', '0177.0.0.1', '0x7f.0.0.1', '2130706433', 'fe80::1%eth0', 'localhost', '', '8.8.8.8.8'])('refuses a non-canonical or unparsable form %j', (address) => {
    expect(isPublicUnicast(address)).toBe(false);
  });

  it('refuses the first and last address of every denied block', () => {
    for (const block of [...IPV4_DENIED, ...IPV6_DENIED]) {
      const [first] = ipaddr.parseCIDR(block);
      const text = first.kind() === 'ipv6' ? (first as ipaddr.IPv6).toNormalizedString() : first.toString();
      expect(isPublicUnicast(text), block).toBe(false);
      const last = first.kind() === 'ipv4' ? ipaddr.IPv4.broadcastAddressFromCIDR(block).toString() : ipaddr.IPv6.broadcastAddressFromCIDR(block).toNormalizedString();
      expect(isPublicUnicast(last), block).toBe(false);
    }
  });
});
