import { describe, expect, it } from 'vitest';

import type { Field } from '@wsc/api-client';

import { sortRecords } from './local-sort.ts';

const fields: Field[] = [
  { name: 'Title', type: 'TEXT', required: false },
  { name: 'Priority', type: 'NUMBER', required: false },
  { name: 'Due', type: 'DATE', required: false },
];

const rows = [
  { Title: 'b', Priority: '10', Due: '2024-03-01' },
  { Title: 'a', Priority: '9', Due: '' },
  { Title: 'C', Priority: '', Due: '2024-01-15' },
  { Title: 'a2', Priority: '9', Due: '2024-02-01' },
];

describe('sortRecords', () => {
  it('sorts numbers by value, not as text, and keeps ties in server order', () => {
    expect(
      sortRecords(rows, [{ field: 'Priority', desc: false }], fields).map((r) => r.Title),
    ).toEqual(['a', 'a2', 'b', 'C']);
  });

  it('puts empty values last in both directions', () => {
    expect(sortRecords(rows, [{ field: 'Due', desc: true }], fields).map((r) => r.Title)).toEqual([
      'b',
      'a2',
      'C',
      'a',
    ]);
    expect(sortRecords(rows, [{ field: 'Due', desc: false }], fields).map((r) => r.Title)).toEqual([
      'C',
      'a2',
      'b',
      'a',
    ]);
  });

  it('compares text case-insensitively and by a second key', () => {
    expect(
      sortRecords(
        rows,
        [
          { field: 'Priority', desc: true },
          { field: 'Title', desc: true },
        ],
        fields,
      ).map((r) => r.Title),
    ).toEqual(['b', 'a2', 'a', 'C']);
    expect(
      sortRecords(rows, [{ field: 'Title', desc: false }], fields).map((r) => r.Title),
    ).toEqual(['a', 'a2', 'b', 'C']);
  });

  it('returns the rows untouched without keys', () => {
    expect(sortRecords(rows, [], fields)).toBe(rows);
  });
});
