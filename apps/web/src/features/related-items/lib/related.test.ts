import { describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';

import { ticketsDefinition } from '@/testing/render.tsx';

import { pickerFilter, recordTypePath, titleLookups } from './related.ts';

const tasks: Definition = {
  recordType: 'tasks',
  alias: 'tasks',
  name: 'Tasks',
  handle: 'TSK',
  titleField: 'Title',
  fields: [{ name: 'Title', type: 'TEXT', required: true }],
};

describe('related items helpers', () => {
  it('maps the upper-case type to the path segment', () => {
    expect(recordTypePath('APP')).toBe('apps');
    expect(recordTypePath('TRANSACTION')).toBe('transactions');
  });

  it('batches title lookups into one id=in=(...) search per definition', () => {
    const lookups = titleLookups(
      [
        { id: 'TSK-1', type: 'TASK', alias: 'tasks', cursor: 'a' },
        { id: 'SUP-9', type: 'APP', alias: 'support-tickets', cursor: 'b' },
        { id: 'TSK-4', type: 'TASK', alias: 'tasks', cursor: 'c' },
        { id: 'REF-1', type: 'TRANSACTION', alias: 'refunds', cursor: 'd' },
      ],
      [ticketsDefinition, tasks],
    );
    expect(lookups.map((l) => [l.definition.handle, l.filter])).toEqual([
      ['TSK', 'id=in=(TSK-1,TSK-4)'],
      ['SUP', 'id=in=(SUP-9)'],
    ]);
  });

  it('searches the title field, and the id too when the term looks like one', () => {
    expect(pickerFilter(ticketsDefinition, '  printer ')).toBe('Title=lki=printer');
    expect(pickerFilter(ticketsDefinition, 'sup-12')).toBe('Title=lki=sup-12,id==SUP-12');
    // Typed text stays a value: reserved characters are quoted, never parsed as RSQL.
    expect(pickerFilter(ticketsDefinition, "a,b;c=='d'")).toBe(`Title=lki='a,b;c==\\'d\\''`);
    expect(pickerFilter(ticketsDefinition, '   ')).toBeUndefined();
  });
});
