// @vitest-environment node
import { readFileSync } from 'node:fs';
import { twMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';

import { classesInUse, generateConfigSource, OUTPUT } from '../../scripts/gen-tw-merge-config.mjs';
import { cn } from './utils.ts';

describe('cn merges like the full tailwind-merge on the classes in use (ADR 0022)', () => {
  const classes = classesInUse();

  it('has a generated configuration that is up to date (pnpm --filter web gen:tw-merge)', () => {
    expect(readFileSync(OUTPUT, 'utf8')).toBe(generateConfigSource());
  });

  it('finds the classes the console writes', () => {
    expect(classes.length).toBeGreaterThan(300);
    for (const written of ['h-9', 'px-4', 'bg-accent', 'text-sm', 'rounded-md']) {
      expect(classes).toContain(written);
    }
  });

  // A class written twice stays twice when it conflicts with no other class (the configuration
  // leaves it out): the same style either way, so identical pairs are not compared.
  it('gives the same result as the full twMerge for every pair of classes in use', () => {
    const differences: string[] = [];
    for (const a of classes) {
      for (const b of classes) {
        if (a === b) continue;
        for (const input of [`${a} ${b}`, `hover:${a} hover:${b}`, `md:${a} ${b}`]) {
          const expected = twMerge(input);
          const actual = cn(input);
          if (actual !== expected) differences.push(`${input}: ${actual} (twMerge: ${expected})`);
        }
      }
    }
    expect(differences.slice(0, 20)).toEqual([]);
    // Every pair of some 600 classes, three ways: seconds of CPU, many more on a shared machine.
  }, 120_000);

  it('lets a later class replace an earlier one of its group, and only that', () => {
    expect(cn('h-9 px-4 text-sm', 'h-8')).toBe('px-4 text-sm h-8');
    expect(cn('px-4', 'p-0')).toBe('p-0');
    expect(cn('p-0', 'px-4')).toBe('p-0 px-4');
    expect(cn('bg-muted', 'hover:bg-accent')).toBe('bg-muted hover:bg-accent');
    expect(cn('text-sm', false, undefined, ['font-medium', { 'text-xs': true }])).toBe(
      'font-medium text-xs',
    );
  });
});
