import { z } from 'zod';

/**
 * The records list's URL state. Every key falls back (`.catch`) instead of failing, so a mangled
 * or outdated link still opens the list: at worst without that part of the view.
 *
 * - `filter`: RSQL text, as the API takes it.
 * - `sort`: the API's sort list, `-Created At,Title` (`-` = descending).
 * - `cols`: visible columns in order; absent = the definition's default columns.
 * - `cursor`: the `after` cursor the view starts from (absent = the first page).
 * - `view`: the saved view this list was opened from (highlighted in the sidebar).
 */
export const RecordListSearchSchema = z.object({
  filter: z.string().max(4096).optional().catch(undefined),
  sort: z.string().max(1024).optional().catch(undefined),
  cols: z.array(z.string().max(200)).max(200).optional().catch(undefined),
  cursor: z.string().max(2048).optional().catch(undefined),
  view: z.string().max(64).optional().catch(undefined),
});
export type RecordListSearch = z.infer<typeof RecordListSearchSchema>;

/** One sort key: a field name and its direction. */
export interface SortKey {
  field: string;
  desc: boolean;
}

/**
 * Parses the API's sort list. Field names may contain spaces but not commas.
 *
 * @example
 * parseSort('-Created At,Title'); // [{ field: 'Created At', desc: true }, { field: 'Title', desc: false }]
 */
export function parseSort(sort: string | undefined): SortKey[] {
  if (!sort) return [];
  return sort
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part !== '-')
    .map((part) =>
      part.startsWith('-')
        ? { field: part.slice(1).trim(), desc: true }
        : { field: part, desc: false },
    );
}

/**
 * The inverse of {@link parseSort}; `undefined` for no sort, so the URL drops the key.
 *
 * @example
 * serializeSort([{ field: 'Due Date', desc: false }]); // 'Due Date'
 */
export function serializeSort(keys: SortKey[]): string | undefined {
  if (keys.length === 0) return undefined;
  return keys.map((key) => `${key.desc ? '-' : ''}${key.field}`).join(',');
}

/**
 * Header click cycle for one column: ascending, then descending, then unsorted.
 *
 * @example
 * nextSort('Title', undefined); // 'Title'
 * nextSort('Title', 'Title'); // '-Title'
 * nextSort('Title', '-Title'); // undefined
 */
export function nextSort(field: string, current: string | undefined): string | undefined {
  const key = parseSort(current).find((k) => k.field === field);
  if (!key) return serializeSort([{ field, desc: false }]);
  if (!key.desc) return serializeSort([{ field, desc: true }]);
  return undefined;
}
