import { describe, expect, it } from 'vitest';

import { createSealer, hashSessionId, newSessionId } from './crypto.ts';

describe('session ids and sealing', () => {
  it('makes 256-bit base64url ids and a stable sha256 key', () => {
    const id = newSessionId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(32);
    expect(newSessionId()).not.toBe(id);
    expect(hashSessionId(id)).toBe(hashSessionId(id));
    expect(hashSessionId(id)).not.toContain(id);
  });

  it('round-trips, hides the plaintext, and refuses tampering, another context or another key', () => {
    const sealer = createSealer('k'.repeat(40));
    const box = sealer.seal('my-client-secret', 'ctx-1');
    expect(box).not.toContain('my-client-secret');
    expect(sealer.seal('my-client-secret', 'ctx-1')).not.toBe(box);
    expect(sealer.open(box, 'ctx-1')).toBe('my-client-secret');
    expect(() => sealer.open(box, 'ctx-2')).toThrow();
    expect(() => createSealer('j'.repeat(40)).open(box, 'ctx-1')).toThrow();
    const raw = Buffer.from(box.slice(3), 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => sealer.open(`v1.${raw.toString('base64url')}`, 'ctx-1')).toThrow();
  });

  it('refuses a SESSION_SECRET shorter than 32 characters', () => {
    expect(() => createSealer('short')).toThrow(/32/);
  });
});
