import { describe, expect, it } from 'vitest';

import type { Field } from '@wsc/api-client';

import { changesFromRows, firstRows, withNextField } from './bulk-rows.ts';

const title: Field = { name: 'Title', type: 'TEXT', required: true };
const status: Field = { name: 'Status', type: 'PICKLIST', required: true, values: ['New', 'Open'] };
const notes: Field = { name: 'Notes', type: 'TEXT', required: false };

describe('bulk change rows', () => {
  it('starts with the first picklist, else the first field, else nothing', () => {
    expect(firstRows([title, status, notes])).toEqual([{ key: 0, field: 'Status', value: '' }]);
    expect(firstRows([notes, title])).toEqual([{ key: 0, field: 'Notes', value: '' }]);
    expect(firstRows([])).toEqual([]);
  });

  it('adds the first field not listed yet, with a new key, until every field is listed', () => {
    const rows = [{ key: 3, field: 'Status', value: 'Open' }];
    const more = withNextField(rows, [status, title]);
    expect(more).toEqual([...rows, { key: 4, field: 'Title', value: '' }]);
    expect(withNextField(more, [status, title])).toBe(more);
  });

  it('turns the rows into changes; an empty optional value clears the field', () => {
    expect(
      changesFromRows(
        [
          { key: 0, field: 'Status', value: 'Open' },
          { key: 1, field: 'Notes', value: '' },
        ],
        [status, notes],
      ),
    ).toEqual({ changes: { Status: 'Open', Notes: '' } });
  });

  it('names a required field left empty, and asks for a field when none is set', () => {
    expect(changesFromRows([{ key: 0, field: 'Status', value: ' ' }], [status])).toEqual({
      problem: 'Status is required: choose a value.',
    });
    expect(changesFromRows([{ key: 0, field: 'Gone', value: 'x' }], [status])).toEqual({
      problem: 'Choose at least one field to set.',
    });
    expect(changesFromRows([], [status])).toEqual({
      problem: 'Choose at least one field to set.',
    });
  });
});
