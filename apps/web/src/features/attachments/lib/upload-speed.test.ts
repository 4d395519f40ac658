import { describe, expect, it } from 'vitest';

import { addSample, formatBytes, rate } from './upload-speed.ts';

describe('upload speed', () => {
  it('measures bytes per second over a sliding window', () => {
    let samples = addSample([], { at: 0, loaded: 0 }, 1000);
    expect(rate(samples)).toBe(0);
    samples = addSample(samples, { at: 500, loaded: 500 }, 1000);
    samples = addSample(samples, { at: 1000, loaded: 1000 }, 1000);
    expect(rate(samples)).toBe(1000);
    // The burst at the start falls out of the window.
    samples = addSample(samples, { at: 2000, loaded: 1100 }, 1000);
    expect(samples.map((s) => s.at)).toEqual([1000, 2000]);
    expect(rate(samples)).toBe(100);
  });

  it('formats sizes in binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(50 * 1024 * 1024)).toBe('50 MB');
    expect(formatBytes(262_144_000)).toBe('250 MB');
  });
});
