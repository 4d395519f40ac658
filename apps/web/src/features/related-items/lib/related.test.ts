import { describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';

import { hostedTicketsDefinition, ticketsDefinition } from '@/testing/render.tsx';

import {
  findRelatedDefinition,
  pickerFilter,
  recordTypePath,
  relatedRowFor,
  titleLookups,
  withoutRelated,
  withRelated,
} from './related.ts';

const tasks: Definition = {
  recordType: 'tasks',
  alias: 'tasks',
  name: 'Tasks',
  handle: 'TSK',
  handleField: 'id',
  titleField: 'Title',
  fields: [{ name: 'Title', type: 'TEXT', required: true }],
};

describe('related items helpers', () => {
  it('maps the upper-case type to the path segment', () => {
    expect(recordTypePath('APP')).toBe('apps');
    expect(recordTypePath('TRANSACTION')).toBe('transactions');
    expect(recordTypePath('task')).toBe('tasks');
    expect(recordTypePath('WIDGET')).toBeUndefined();
  });

  it('finds the definition by handle when the item has no alias (not promised by the contract)', () => {
    const definitions = [ticketsDefinition, tasks];
    expect(
      findRelatedDefinition({ id: 'TSK-4', type: 'TASK', alias: undefined }, definitions),
    ).toBe(tasks);
    expect(
      findRelatedDefinition({ id: 'SUP-1', type: 'TASK', alias: undefined }, definitions),
    ).toBe(undefined);
    expect(findRelatedDefinition({ id: 'ZZZ-1', type: '', alias: undefined }, definitions)).toBe(
      undefined,
    );
  });

  it('looks titles up by the handle field the workspace description names', () => {
    const lookups = titleLookups(
      [{ id: 'SUP-9', type: 'APP', alias: 'support-tickets', cursor: undefined }],
      [hostedTicketsDefinition],
    );
    expect(lookups.map((l) => l.filter)).toEqual(['Ticket ID=in=(SUP-9)']);
    // No handle field: nothing to look titles up by.
    expect(
      titleLookups(
        [{ id: 'SUP-9', type: 'APP', alias: 'support-tickets', cursor: undefined }],
        [{ ...hostedTicketsDefinition, handleField: undefined }],
      ),
    ).toEqual([]);
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
    expect(pickerFilter(hostedTicketsDefinition, 'sup-12')).toBe(
      'Title=lki=sup-12,Ticket ID==SUP-12',
    );
  });
});

describe('relatedRowFor, withRelated, withoutRelated', () => {
  it('adds a related record once, shown with its type and title, and takes it out again', () => {
    const row = relatedRowFor(tasks, 'TSK-3', 'Replace toner');
    expect(row).toMatchObject({ id: 'TSK-3', type: 'TASK', recordType: 'tasks', alias: 'tasks' });
    const list = withRelated({ rows: [], total: 0 }, row);
    expect(list).toMatchObject({ total: 1, rows: [{ id: 'TSK-3', title: 'Replace toner' }] });
    expect(withRelated(list, row)).toBe(list);
    expect(withoutRelated(list, 'TSK-3')).toEqual({ rows: [], total: 0 });
    expect(withoutRelated(list, 'TSK-9')).toEqual(list);
  });
});
