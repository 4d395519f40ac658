import { describe, expect, it } from 'vitest';

import type { Principal } from '../lib/types.ts';
import { TokenCache } from './token-cache.ts';

const principal = (userId: string): Principal => ({
  userId,
  email: `${userId}@example.com`,
  firstName: 'A',
  lastName: 'B',
  jobTitle: null,
  status: 'ACTIVE',
  role: 'MEMBER',
  clientId: `wsc_${userId}`,
});

function listeningCache(maxEntries = 3, maxAgeMs = 60_000) {
  let now = 1_000_000;
  const cache = new TokenCache<Principal>({ maxEntries, maxAgeMs }, () => now);
  cache.setListening(true);
  return { cache, advance: (ms: number) => (now += ms), now: () => now };
}

describe('TokenCache', () => {
  it('answers nothing and remembers nothing until it listens for changes', () => {
    const cache = new TokenCache<Principal>({ maxEntries: 10, maxAgeMs: 60_000 });
    cache.remember('h1', principal('u1'), Date.now() + 60_000, cache.generation);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.setListening(true);
    cache.remember('h1', principal('u1'), Date.now() + 60_000, cache.generation);
    expect(cache.get('h1')?.userId).toBe('u1');
  });

  it('forgets everything when the listener is lost, and stays off until it is back', () => {
    const { cache, now } = listeningCache();
    cache.remember('h1', principal('u1'), now() + 60_000, cache.generation);
    cache.setListening(false);
    expect(cache.size).toBe(0);
    cache.remember('h1', principal('u1'), now() + 60_000, cache.generation);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('does not remember a lookup that started before the cache was emptied', () => {
    const { cache, now } = listeningCache();
    const before = cache.generation;
    cache.invalidate(); // a revocation lands while the lookup is in flight
    cache.remember('h1', principal('u1'), now() + 60_000, before);
    expect(cache.get('h1')).toBeUndefined();
    cache.remember('h1', principal('u1'), now() + 60_000, cache.generation);
    expect(cache.get('h1')?.userId).toBe('u1');
  });

  it("never answers past the token's expiry or the longest trusted age", () => {
    const { cache, advance, now } = listeningCache(3, 10_000);
    cache.remember('short', principal('u1'), now() + 5_000, cache.generation);
    cache.remember('long', principal('u2'), now() + 3_600_000, cache.generation);
    advance(5_000);
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')?.userId).toBe('u2');
    advance(5_000);
    expect(cache.get('long')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries, dropping the oldest; 0 turns it off', () => {
    const { cache, now } = listeningCache(2);
    for (const id of ['a', 'b', 'c']) {
      cache.remember(id, principal(id), now() + 60_000, cache.generation);
    }
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.userId).toBe('c');

    const off = new TokenCache<Principal>({ maxEntries: 0, maxAgeMs: 60_000 });
    off.setListening(true);
    off.remember('a', principal('a'), Date.now() + 60_000, off.generation);
    expect(off.active).toBe(false);
    expect(off.size).toBe(0);
  });
});
