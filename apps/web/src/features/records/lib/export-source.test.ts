import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Field, RecordPagedList } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

import { recordExportSource } from './export-source.ts';

const FIELDS: Field[] = [
  { name: 'id', type: 'HANDLE', required: false, readOnly: true },
  { name: 'Amount', type: 'DECIMAL', required: false },
  { name: 'Due Date', type: 'DATE', required: false },
  { name: 'Updated At', type: 'DATETIME', required: false, readOnly: true },
];

afterEach(() => vi.restoreAllMocks());

describe('recordExportSource', () => {
  it('reads 1,000 a page with the sort, resolves relative dates once, keeps the visible columns', async () => {
    const search = vi.spyOn(api, 'searchRecords').mockResolvedValue({
      items: [
        {
          cursor: undefined,
          data: { id: 'SUP-1', Amount: '-5', 'Due Date': '2026-01-02', Other: 'x' },
        },
      ],
      total: 1,
      paging: {
        has_next_page: true,
        end_cursor: 'c1',
        has_previous_page: false,
        start_cursor: null,
      },
      skipped: 2,
    } satisfies RecordPagedList);
    const source = recordExportSource({
      recordType: 'apps',
      alias: 'support-tickets',
      fields: FIELDS,
      columns: ['id', 'Due Date', 'Amount'],
      filter: 'Due Date=={today}',
      sort: '-Amount',
    });
    expect(source.columns).toEqual([
      { header: 'ID', kind: 'text' },
      { header: 'Due Date', kind: 'date' },
      { header: 'Amount', kind: 'number' },
    ]);
    const signal = new AbortController().signal;
    const page = await source.fetchPage(undefined, signal);
    expect(page).toEqual({
      rows: [['SUP-1', '2026-01-02', '-5']],
      total: 1,
      next: 'c1',
      skipped: 2,
    });
    await source.fetchPage('c1', signal);
    const [first, second] = search.mock.calls.map((call) => call[2]);
    expect(first?.filter).toMatch(/^Due Date==\d{4}-\d{2}-\d{2}$/);
    expect(second?.filter).toBe(first?.filter);
    expect(first).toMatchObject({ sort: '-Amount', first: 1000, after: undefined });
    expect(second).toMatchObject({ after: 'c1' });
  });
});
