import type { Field, RecordData } from '@wsc/api-client';

import type { SortKey } from './search-params.ts';

/** The most records the list loads to sort them in the browser when the server cannot sort. */
export const LOCAL_SORT_LIMIT = 5_000;

function compareBy(type: Field['type'] | undefined): (a: string, b: string) => number {
  switch (type) {
    case 'NUMBER':
    case 'DECIMAL':
      return (a, b) => Number(a) - Number(b);
    case 'DATE':
    case 'DATETIME':
      return (a, b) => Date.parse(a) - Date.parse(b);
    default:
      return (a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });
  }
}

/**
 * Sorts loaded records in the browser, for servers without a `sort` parameter (the hosted API):
 * numbers and dates by value, text naturally, empty values last in both directions, ties in the
 * order the server sent (stable).
 *
 * @example
 * sortRecords(rows, [{ field: 'Priority', desc: false }], fields);
 */
export function sortRecords(rows: RecordData[], keys: SortKey[], fields: Field[]): RecordData[] {
  if (keys.length === 0) return rows;
  const types = new Map(fields.map((field) => [field.name, field.type]));
  const comparers = keys.map((key) => ({ key, compare: compareBy(types.get(key.field)) }));
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      for (const { key, compare } of comparers) {
        const left = a.row[key.field] ?? '';
        const right = b.row[key.field] ?? '';
        if (left === right) continue;
        if (left === '') return 1;
        if (right === '') return -1;
        const order = compare(left, right);
        if (order !== 0 && !Number.isNaN(order)) return key.desc ? -order : order;
      }
      return a.index - b.index;
    })
    .map(({ row }) => row);
}
