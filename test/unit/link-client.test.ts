import { describe, expect, it } from 'vitest';
import { linkClientKey } from '../../src/domain/links/client-cap.js';

// A payment link's per-client cap (docs/security.md "Payment links") counts one IPv6 subscriber (a
// /64) as one client, so rotating addresses inside one's own prefix does not multiply the
// allowance.
describe('linkClientKey', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as its IPv4', () => {
    expect(linkClientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(linkClientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });
  it('counts every address of one IPv6 /64 as one client, and another /64 as another', () => {
    const a = linkClientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(linkClientKey('2001:db8:1:2::1')).toBe(a);
    expect(a).toBe('2001:db8:1:2::/64');
    expect(linkClientKey('2001:db8:1:3::1')).not.toBe(a);
  });
  it('leaves what is not an address as it is', () => {
    expect(linkClientKey('unknown')).toBe('unknown');
  });
});
