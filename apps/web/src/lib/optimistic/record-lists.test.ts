import { describe, expect, it } from 'vitest';

import type { RecordPagedList } from '@wsc/api-client';

import { ONLY_PAGE } from '@/testing/render.tsx';

import { paintRecordInList, paintRow, rowInList } from './record-lists.ts';

const definition = { handleField: 'Ticket ID' };
const page = (ids: string[]): RecordPagedList => ({
  paging: ONLY_PAGE,
  total: ids.length,
  skipped: 0,
  items: ids.map((id, i) => ({ cursor: `c${i}`, data: { 'Ticket ID': id, Status: 'New' } })),
});

describe('paintRow', () => {
  it('puts the record over the row and unsets a touched field the record lacks', () => {
    expect(
      paintRow({ Status: 'Open', Owner: 'a@x', Title: 'T' }, { Status: 'New' }, new Set(['Owner'])),
    ).toEqual({ Status: 'New', Title: 'T' });
  });
});

describe('paintRecordInList', () => {
  const paint = (row: Record<string, string>) => ({ ...row, Status: 'Open' });

  it('paints the record in an infinite list, in whichever page holds it', () => {
    const data = { pages: [page(['SUP-1']), page(['SUP-2'])], pageParams: [undefined, 'c0'] };
    const painted = paintRecordInList(data, 'SUP-2', paint, definition);
    expect(painted && 'pages' in painted && painted.pages[1]?.items[0]?.data.Status).toBe('Open');
    expect(painted && 'pages' in painted && painted.pages[0]).toBe(data.pages[0]);
  });

  it('paints a single page (a picker), and leaves lists without the record alone', () => {
    const painted = paintRecordInList(page(['SUP-1']), 'SUP-1', paint, definition);
    expect(painted && 'items' in painted && painted.items[0]?.data.Status).toBe('Open');
    expect(paintRecordInList(page(['SUP-1']), 'SUP-9', paint, definition)).toBeUndefined();
    expect(paintRecordInList({ other: true }, 'SUP-1', paint, definition)).toBeUndefined();
    expect(paintRecordInList(undefined, 'SUP-1', paint, definition)).toBeUndefined();
  });
});

describe('rowInList', () => {
  it('finds the row by its handle in either shape', () => {
    expect(rowInList({ pages: [page(['SUP-1'])] }, 'SUP-1', definition)).toMatchObject({
      'Ticket ID': 'SUP-1',
    });
    expect(rowInList(page(['SUP-1']), 'SUP-2', definition)).toBeUndefined();
  });
});
