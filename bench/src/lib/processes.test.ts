import { describe, expect, it } from 'vitest';

import { parseProcStat, parseProcStatus, readCpuMs, readMemory } from './processes.ts';

describe('parseProcStatus', () => {
  it('reads VmRSS and VmHWM in bytes', () => {
    const text = 'Name:\tnode\nVmPeak:\t 999 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1024 kB\n';
    expect(parseProcStatus(text)).toEqual({ rss: 1024 * 1024, hwm: 2048 * 1024 });
  });

  it('fails loudly when a line is missing', () => {
    expect(() => parseProcStatus('VmRSS:\t 1 kB\n')).toThrow(/VmHWM/);
  });

  it('reads this process from /proc', async () => {
    const memory = await readMemory(process.pid);
    expect(memory.rss).toBeGreaterThan(1024 * 1024);
    expect(memory.hwm).toBeGreaterThanOrEqual(memory.rss);
  });
});

describe('parseProcStat', () => {
  it('adds utime and stime (clock ticks) as milliseconds, even with spaces in the name', () => {
    expect(parseProcStat('42 (node x) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0 20 0')).toBe(2000);
  });

  it('refuses text that is not a stat line', () => {
    expect(() => parseProcStat('nonsense')).toThrow(/format/);
  });

  it('reads CPU time that grows as this process works', async () => {
    const before = await readCpuMs(process.pid);
    const until = Date.now() + 60;
    while (Date.now() < until) Math.sqrt(Math.random());
    expect(await readCpuMs(process.pid)).toBeGreaterThanOrEqual(before);
  });
});
