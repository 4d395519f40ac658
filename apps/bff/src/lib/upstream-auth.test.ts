import { describe, expect, it } from 'vitest';

import { regionFor, tokenUrlFor } from './config.ts';
import { tokenRefreshTime } from './upstream-auth.ts';

describe('upstream helpers', () => {
  it('derives the token URL from the API base without /v1', () => {
    expect(tokenUrlFor('https://api.example.com/v1')).toBe('https://api.example.com/oauth/token');
    expect(tokenUrlFor('http://127.0.0.1:4010/base/v1/')).toBe(
      'http://127.0.0.1:4010/base/oauth/token',
    );
    expect(regionFor('eu', 'http://h/v1/')).toMatchObject({ apiUrl: 'http://h/v1', label: 'EU' });
  });

  it('plans a refresh in whole milliseconds, whatever lifetime the contract lets a reply give', () => {
    expect(tokenRefreshTime(1_000, 3_600, 0.9)).toBe(1_000 + 3_240_000);
    // Seen from `prism mock`: a fractional lifetime (the store keeps a bigint).
    expect(Number.isInteger(tokenRefreshTime(1_000, 1_847_132_339.7124932, 0.9))).toBe(true);
    // Centuries are planned as a week.
    expect(tokenRefreshTime(0, 1e300, 1)).toBe(7 * 24 * 3600 * 1000);
  });
});
