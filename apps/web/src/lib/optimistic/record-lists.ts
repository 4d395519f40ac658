// Painting one record into the cached lists that show it (the records table's pages, the triage
// queue, the pickers): the rows are the server's, the record's fields are the optimistic view.
import type { InfiniteData } from '@tanstack/react-query';

import type { Definition, RecordData, RecordPagedList } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

type ListData = InfiniteData<RecordPagedList, unknown> | RecordPagedList;

function isInfinite(data: object): data is InfiniteData<RecordPagedList, unknown> {
  return Array.isArray((data as { pages?: unknown }).pages);
}

function isPage(data: object): data is RecordPagedList {
  return Array.isArray((data as { items?: unknown }).items);
}

/**
 * One row with the record's fields over it. `touched` names the fields writes have set: one the
 * record no longer has (a rolled-back write of a field that was unset) leaves the row too.
 *
 * @example
 * paintRow({ id: 'SUP-1', Status: 'Open', Owner: 'a@x' }, { id: 'SUP-1', Status: 'New' }, new Set(['Owner']));
 * // { id: 'SUP-1', Status: 'New' }
 */
export function paintRow(
  row: RecordData,
  record: RecordData,
  touched: ReadonlySet<string>,
): RecordData {
  const next = { ...row, ...record };
  for (const field of touched) if (!(field in record)) delete next[field];
  return next;
}

function paintItems(
  page: RecordPagedList,
  id: string,
  paint: (row: RecordData) => RecordData,
  definition: Pick<Definition, 'handleField'>,
): RecordPagedList | undefined {
  let found = false;
  const items = page.items.map((item) => {
    if (recordHandle(item.data, definition) !== id) return item;
    found = true;
    return { ...item, data: paint(item.data) };
  });
  return found ? { ...page, items } : undefined;
}

/**
 * A cached records list (an infinite list's pages, or one page) with the record `id` painted in;
 * `undefined` when the list does not hold it (the cache entry is then left alone) or is of
 * another shape.
 *
 * @example
 * queryClient.setQueriesData({ queryKey: recordKeys.lists(type, alias) }, (data) =>
 *   paintRecordInList(data, 'SUP-1', (row) => ({ ...row, Status: 'Open' }), definition));
 */
export function paintRecordInList(
  data: unknown,
  id: string,
  paint: (row: RecordData) => RecordData,
  definition: Pick<Definition, 'handleField'>,
): ListData | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  if (isInfinite(data)) {
    let found = false;
    const pages = data.pages.map((page) => {
      const painted = paintItems(page, id, paint, definition);
      if (painted) found = true;
      return painted ?? page;
    });
    return found ? { ...data, pages } : undefined;
  }
  return isPage(data) ? paintItems(data, id, paint, definition) : undefined;
}

/**
 * The record `id` as a cached list holds it (the seed of its panel, the base of a write made
 * before the record itself was read); `undefined` when the list does not hold it.
 *
 * @example
 * const row = rowInList(queryClient.getQueryData(queueKey), 'SUP-1', definition);
 */
export function rowInList(
  data: unknown,
  id: string,
  definition: Pick<Definition, 'handleField'>,
): RecordData | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const pages = isInfinite(data) ? data.pages : isPage(data) ? [data] : [];
  for (const page of pages) {
    const item = page.items.find((i) => recordHandle(i.data, definition) === id);
    if (item) return item.data;
  }
  return undefined;
}
