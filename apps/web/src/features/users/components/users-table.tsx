import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';

import type { User } from '@wsc/api-client';

import { personName } from '@/lib/people.ts';
import { wantsNextPage } from '@/queries/paging.ts';

import { UserStatusBadge } from './user-status-badge.tsx';

/** Fixed row height: virtualization measures nothing, so thousands of rows scroll smoothly. */
export const USER_ROW_HEIGHT = 41;

const COLUMNS = [
  { id: 'name', header: 'Name', size: 240 },
  { id: 'email', header: 'Email', size: 280 },
  { id: 'jobTitle', header: 'Job title', size: 220 },
  { id: 'status', header: 'Status', size: 120 },
] as const;

const TOTAL_WIDTH = COLUMNS.reduce((sum, column) => sum + column.size, 0);

/**
 * The users table: a sticky header and virtualized rows (only what is on screen is in the DOM).
 * Like the records table (ADR 0010) it reads the users directly, with no row model: a model
 * object per loaded user, rebuilt for all of them whenever a page arrives, made long tasks from
 * about 5,700 loaded users on (docs/benchmarks.md, "Console at scale"). Each name links to the
 * user's page.
 */
export function UsersTable({ users, onNearEnd }: { users: User[]; onNearEnd?: () => void }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: users.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => USER_ROW_HEIGHT,
    overscan: 10,
    // jsdom and the first paint have no layout: render a first screenful instead of nothing.
    initialRect: { width: 1280, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom =
    items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;
  const scrolled = (virtualizer.scrollOffset ?? 0) > 0;

  useEffect(() => {
    if (onNearEnd && wantsNextPage(users.length, lastIndex, scrolled)) onNearEnd();
  }, [lastIndex, users.length, scrolled, onNearEnd]);

  return (
    <div
      ref={scrollRef}
      className="relative min-h-0 flex-1 overflow-auto"
      data-testid="users-scroll"
      tabIndex={-1}
    >
      <table
        className="w-full table-fixed border-separate border-spacing-0 text-sm"
        style={{ minWidth: TOTAL_WIDTH }}
        aria-label="Users"
        aria-rowcount={users.length + 1}
      >
        <colgroup>
          {COLUMNS.map((column) => (
            <col key={column.id} style={{ width: column.size }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10">
          <tr aria-rowindex={1}>
            {COLUMNS.map((column) => (
              <th
                key={column.id}
                scope="col"
                className="bg-muted text-muted-foreground h-9 border-b px-3 text-left align-middle text-xs font-medium"
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td style={{ height: paddingTop }} colSpan={COLUMNS.length} />
            </tr>
          )}
          {items.map((item) => {
            const user = users[item.index];
            if (!user) return null;
            return (
              <tr
                key={user.id}
                aria-rowindex={item.index + 2}
                className="hover:bg-muted/60"
                style={{ height: USER_ROW_HEIGHT }}
              >
                <td className="truncate border-b px-3 align-middle">
                  <Link
                    to="/users/$userId"
                    params={{ userId: user.id }}
                    className="focus-visible:ring-ring/50 rounded-sm font-medium outline-none hover:underline focus-visible:ring-[3px]"
                  >
                    {personName(user)}
                  </Link>
                </td>
                <td className="text-muted-foreground truncate border-b px-3 align-middle">
                  {user.email}
                </td>
                <td className="truncate border-b px-3 align-middle">
                  {user.jobTitle || <span className="text-muted-foreground">—</span>}
                </td>
                <td className="border-b px-3 align-middle">
                  <UserStatusBadge status={user.status} />
                </td>
              </tr>
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td style={{ height: paddingBottom }} colSpan={COLUMNS.length} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
