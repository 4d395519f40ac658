import { describe, expect, it } from 'vitest';

import { numberOption, parseArgs } from './bench.ts';

describe('parseArgs', () => {
  it('splits bench names from --name value and --name=value flags', () => {
    expect(parseArgs(['--', 'soak', '--duration', '60', 'faults', '--only=uploads'])).toEqual({
      names: ['soak', 'faults'],
      options: { duration: '60', only: 'uploads' },
    });
  });

  it('reads a flag without a value as true', () => {
    expect(parseArgs(['fuzz', '--verbose', '--seed', '3'])).toEqual({
      names: ['fuzz'],
      options: { verbose: 'true', seed: '3' },
    });
    expect(parseArgs(['--dry'])).toEqual({ names: [], options: { dry: 'true' } });
  });
});

describe('numberOption', () => {
  it('returns the fallback when absent and the number when given', () => {
    expect(numberOption({}, 'duration', 300)).toBe(300);
    expect(numberOption({ duration: '60' }, 'duration', 300, 5, 3600)).toBe(60);
    expect(numberOption({ share: '0.25' }, 'share', 0.1, 0, 1)).toBe(0.25);
  });

  it('refuses a value that is not a number or out of range, naming the flag', () => {
    expect(() => numberOption({ duration: 'soon' }, 'duration', 300)).toThrow(/--duration/);
    expect(() => numberOption({ duration: '' }, 'duration', 300)).toThrow(/--duration/);
    expect(() => numberOption({ duration: '2' }, 'duration', 300, 5)).toThrow(/\[5,/);
  });
});
