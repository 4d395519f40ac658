// The region re-read's throttle (ADR 0027): a burst of asks costs one run at once and one more at
// the end of the interval, never one per ask. Deterministic: the asks wait on a run held open.
import { describe, expect, it } from 'vitest';

import { throttledRuns } from './throttled-runs.ts';

describe('throttledRuns', () => {
  it('runs a burst of 100 asks as two runs: the first at once, one more for all the others', async () => {
    let runs = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ask = throttledRuns({
      intervalMs: 50,
      run: async () => {
        runs += 1;
        if (runs === 1) await held;
      },
    });
    const first = ask('default');
    const rest = Array.from({ length: 99 }, () => ask('default'));
    expect(runs).toBe(1);
    release();
    await Promise.all([first, ...rest]);
    expect(runs).toBe(2);
  });

  it('waits out the interval before running again, and keeps keys apart', async () => {
    const starts: Record<string, number[]> = { a: [], b: [] };
    const ask = throttledRuns({
      intervalMs: 200,
      run: async (key) => {
        starts[key]?.push(performance.now());
      },
    });
    await ask('a');
    await Promise.all([ask('a'), ask('b')]);
    expect(starts.a).toHaveLength(2);
    expect(starts.b).toHaveLength(1);
    const [one = 0, two = 0] = starts.a ?? [];
    expect(two - one).toBeGreaterThanOrEqual(200);
  });
});
