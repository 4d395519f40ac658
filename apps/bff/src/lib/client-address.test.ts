import { describe, expect, it } from 'vitest';

import { clientAddress } from './client-address.ts';

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('10.0.0.5', '198.51.100.7', 0)).toBe('10.0.0.5');
    expect(clientAddress(undefined, undefined, 0)).toBe('unknown');
  });

  it('is the entry the trusted proxies appended, ignoring what the client wrote further left', () => {
    // A load balancer (10.0.0.5) appends the address it saw; the client forged the first entry.
    expect(clientAddress('10.0.0.5', '203.0.113.9, 198.51.100.7', 1)).toBe('198.51.100.7');
    // CDN then load balancer: two hops.
    expect(clientAddress('10.0.0.5', '203.0.113.9, 198.51.100.7, 172.16.0.2', 2)).toBe(
      '198.51.100.7',
    );
    expect(clientAddress('10.0.0.5', ' 198.51.100.7 ,', 1)).toBe('198.51.100.7');
  });

  it('falls back to the leftmost address when the header is shorter than the trusted hops', () => {
    expect(clientAddress('10.0.0.5', '198.51.100.7', 3)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.5', undefined, 1)).toBe('10.0.0.5');
  });
});
