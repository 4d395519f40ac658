import { describe, expect, it } from 'vitest';

import { nextSort, parseSort, RecordListSearchSchema, serializeSort } from './search-params.ts';

describe('RecordListSearchSchema', () => {
  it('keeps valid params', () => {
    const search = {
      filter: 'Status==Open',
      sort: '-Created At',
      cols: ['id', 'Title'],
      cursor: 'abc',
    };
    expect(RecordListSearchSchema.parse(search)).toEqual(search);
  });

  it('falls back per key instead of failing on a mangled link', () => {
    expect(
      RecordListSearchSchema.parse({
        filter: 42,
        sort: ['x'],
        cols: 'Title',
        cursor: { a: 1 },
        extra: 'kept?',
      }),
    ).toEqual({ filter: undefined, sort: undefined, cols: undefined, cursor: undefined });
    expect(RecordListSearchSchema.parse({ filter: 'x'.repeat(5000) }).filter).toBeUndefined();
    expect(RecordListSearchSchema.parse({})).toEqual({});
  });
});

describe('sort params', () => {
  it('parses and serializes the API sort list, spaces in names included', () => {
    const keys = parseSort('-Created At,Title');
    expect(keys).toEqual([
      { field: 'Created At', desc: true },
      { field: 'Title', desc: false },
    ]);
    expect(serializeSort(keys)).toBe('-Created At,Title');
    expect(serializeSort([])).toBeUndefined();
    expect(parseSort(undefined)).toEqual([]);
  });

  it('cycles a header through ascending, descending and unsorted', () => {
    expect(nextSort('Title', undefined)).toBe('Title');
    expect(nextSort('Title', 'Title')).toBe('-Title');
    expect(nextSort('Title', '-Title')).toBeUndefined();
    expect(nextSort('Status', '-Title')).toBe('Status');
  });
});
