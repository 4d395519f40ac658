import type { Field, RecordType } from '@wsc/api-client';

import type { ExportSource } from '@/lib/export/run-export.ts';
import { api } from '@/lib/api.ts';
import { columnKindOf } from '@/lib/export/cells.ts';
import { EXPORT_PAGE_SIZE } from '@/lib/export/run-export.ts';
import { nextCursor } from '@/queries/paging.ts';
import { requestFilter } from '@/queries/request-filter.ts';

import { columnHeader } from './columns.ts';

/**
 * Every record the list shows, for an export: the list's filter, its sort where the service sorts
 * (else the service's order), and its visible columns in order, read 1,000 at a time. Relative
 * dates in the filter (`{today}`, ADR 0017) are resolved once, when the export starts, so every
 * page of one file means the same dates.
 *
 * @example
 * const source = recordExportSource({ recordType: 'apps', alias: 'support', fields, columns, filter, sort });
 */
export function recordExportSource({
  recordType,
  alias,
  fields,
  columns,
  filter,
  sort,
}: {
  recordType: RecordType;
  alias: string;
  fields: Field[];
  columns: string[];
  filter: string | undefined;
  /** The server sort, or `undefined` where the service cannot sort. */
  sort: string | undefined;
}): ExportSource {
  const types = new Map(fields.map((field) => [field.name, field.type]));
  const resolved = requestFilter(filter, fields);
  return {
    columns: columns.map((name) => ({
      header: columnHeader(name),
      kind: columnKindOf(types.get(name)),
    })),
    fetchPage: async (after, signal) => {
      const page = await api.searchRecords(recordType, alias, {
        filter: resolved,
        sort: sort || undefined,
        first: EXPORT_PAGE_SIZE,
        after,
        signal,
      });
      return {
        rows: page.items.map((item) => columns.map((name) => item.data[name])),
        total: page.total,
        next: nextCursor(page),
        skipped: page.skipped,
      };
    },
  };
}
