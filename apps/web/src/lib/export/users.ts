import type { User, UserPagedList } from '@wsc/api-client';

import { personName, statusLabel } from '@/lib/people.ts';
import { nextCursor } from '@/queries/paging.ts';

import type { ExportColumn } from './cells.ts';
import type { ExportSource } from './run-export.ts';
import { EXPORT_PAGE_SIZE } from './run-export.ts';

/** The columns of a users export: those the users table and a group's members table show. */
export const USER_EXPORT_COLUMNS: ExportColumn[] = [
  { header: 'Name', kind: 'text' },
  { header: 'Email', kind: 'text' },
  { header: 'Job title', kind: 'text' },
  { header: 'Status', kind: 'text' },
];

/**
 * One user as a row of {@link USER_EXPORT_COLUMNS}, worded as the tables word it.
 *
 * @example
 * userExportRow(ada); // ['Ada Lovelace', 'ada@example.com', 'Analyst', 'Active']
 */
export function userExportRow(user: User): (string | undefined)[] {
  return [
    personName(user, ''),
    user.email,
    user.jobTitle,
    user.status ? statusLabel(user.status) : undefined,
  ];
}

/**
 * An export of a users list (the directory, a group's members): `list` reads one page of
 * {@link EXPORT_PAGE_SIZE} after a cursor.
 *
 * @example
 * userExportSource((first, after, signal) => api.listUsers({ filter, first, after, signal }));
 */
export function userExportSource(
  list: (first: number, after: string | undefined, signal: AbortSignal) => Promise<UserPagedList>,
): ExportSource {
  return {
    columns: USER_EXPORT_COLUMNS,
    fetchPage: async (after, signal) => {
      const page = await list(EXPORT_PAGE_SIZE, after, signal);
      return {
        rows: page.items.map(userExportRow),
        total: page.total,
        next: nextCursor(page),
        skipped: page.skipped,
      };
    },
  };
}
