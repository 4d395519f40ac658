import { ListFilter, Loader2 } from 'lucide-react';
import { useState } from 'react';

import type { ApiError } from '@wsc/api-client';

import type { FilterField } from '@/components/filter-builder/filter-field.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { FilterBuilder } from '@/components/filter-builder/filter-builder.tsx';
import { countConditions, rsqlToGroup } from '@/components/filter-builder/filter-model.ts';
import { SkippedNote } from '@/components/skipped-note.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';

/** What the shell reads of the page's cursor-paged infinite query. */
export interface ListPageQuery {
  data?: { pages: { skipped: number; skippedReason?: string }[] } | undefined;
  error: ApiError | null;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
  refetch: () => unknown;
}

export interface ListPageProps {
  query: ListPageQuery;
  /** How many rows are shown: none means the empty state. */
  count: number;
  /** The applied RSQL filter, if any. */
  filter: string | undefined;
  /** The filter builder's fields and what applying a filter does. */
  filterFields: FilterField[];
  onApplyFilter: (filter: string | undefined) => void;
  /** The id of the filter panel (the Filter button controls it). */
  filterPanelId: string;
  /** Toolbar controls before the Filter button (a search box). */
  toolbarStart?: React.ReactNode;
  /** Toolbar controls after the applied filter (Clear). */
  toolbarAfterFilter?: React.ReactNode;
  /** Toolbar controls on the right (columns, New). */
  toolbarEnd?: React.ReactNode;
  /** Shown between the filter panel and the table (notes, the selection bar). */
  aboveTable?: React.ReactNode;
  skeleton: TableSkeletonProps;
  /** The empty state: nothing matches, or nothing exists yet. */
  empty: React.ReactNode;
  /** The table of the loaded rows. */
  table: React.ReactNode;
  /** The footer's live status line (what is loaded of how many) and its test id. */
  status: React.ReactNode;
  statusTestId: string;
  /** The noun of one row, for the note on rows the service sent without an id. */
  noun: string;
  /** Loads the next page (the footer's "Load more"). */
  onLoadMore: () => void;
  /** Footer controls before "Load more" (back to the first page). */
  pagingStart?: React.ReactNode;
  /** Footer controls after "Load more", shown while there is a next page (next page). */
  pagingEnd?: React.ReactNode;
  /** Dialogs the page opens. */
  children?: React.ReactNode;
}

/**
 * The shell of a list page (records, users): a toolbar with the Filter button and the applied
 * filter, the filter builder panel, the table with its loading, error and empty states in place,
 * and a footer with the live status line, skipped rows and paging. The page supplies its query,
 * its table and what differs.
 *
 * @example
 * <ListPage query={query} count={users.length} filter={search.filter} ... table={<UsersTable users={users} />} />
 */
export function ListPage({
  query,
  count,
  filter,
  filterFields,
  onApplyFilter,
  filterPanelId,
  toolbarStart,
  toolbarAfterFilter,
  toolbarEnd,
  aboveTable,
  skeleton,
  empty,
  table,
  status,
  statusTestId,
  noun,
  onLoadMore,
  pagingStart,
  pagingEnd,
  children,
}: ListPageProps) {
  const [filterOpen, setFilterOpen] = useState(false);
  const retry = () => void query.refetch();

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b px-6 py-2.5">
        {toolbarStart}
        <Button
          variant={filter ? 'secondary' : 'outline'}
          size="sm"
          aria-expanded={filterOpen}
          aria-controls={filterPanelId}
          onClick={() => setFilterOpen((open) => !open)}
        >
          <ListFilter aria-hidden="true" />
          Filter
          {filter && (
            <Badge variant="default" className="h-5 min-w-5 px-1.5 tabular-nums">
              {filterCount(filter) ?? '!'}
            </Badge>
          )}
        </Button>
        {filter && (
          <code
            className="bg-muted text-muted-foreground max-w-[40ch] truncate rounded-md px-2 py-1 font-mono text-xs"
            title={filter}
            data-testid="active-filter"
          >
            {filter}
          </code>
        )}
        {toolbarAfterFilter}
        <div className="ml-auto flex items-center gap-2">
          {query.isFetching && !query.isFetchingNextPage && !query.isPending && (
            <span role="status" className="text-muted-foreground">
              <Loader2 className="size-4 animate-spin" aria-hidden="true" />
              <span className="sr-only">Updating</span>
            </span>
          )}
          {toolbarEnd}
        </div>
      </div>

      {filterOpen && (
        <div id={filterPanelId} className="bg-muted/30 border-b px-6 py-3">
          <FilterBuilder
            // Re-mount when the applied filter changes elsewhere (Back/Forward, Clear).
            key={filter ?? ''}
            fields={filterFields}
            value={filter ?? ''}
            onApply={(next) => onApplyFilter(next || undefined)}
            onClose={() => setFilterOpen(false)}
          />
        </div>
      )}

      {aboveTable}

      {query.isPending ? (
        <TableSkeleton {...skeleton} />
      ) : query.isError && count === 0 ? (
        <ErrorPanel error={query.error} onRetry={retry} className="flex-1" />
      ) : count === 0 ? (
        empty
      ) : (
        table
      )}

      {query.isError && count > 0 && <ErrorPanel compact error={query.error} onRetry={retry} />}

      <footer className="text-muted-foreground flex items-center gap-3 border-t px-6 py-2 text-xs">
        <span role="status" aria-live="polite" data-testid={statusTestId}>
          {status}
        </span>
        <SkippedNote pages={query.data?.pages} noun={noun} />
        <div className="ml-auto flex items-center gap-2">
          {pagingStart}
          {query.hasNextPage && (
            <>
              <Button
                variant="outline"
                size="xs"
                onClick={onLoadMore}
                disabled={query.isFetchingNextPage}
              >
                {query.isFetchingNextPage && (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                )}
                Load more
              </Button>
              {pagingEnd}
            </>
          )}
        </div>
      </footer>

      {children}
    </div>
  );
}

/** The number of conditions of an applied filter, or null when it cannot be read back. */
function filterCount(filter: string): number | null {
  try {
    return countConditions(rsqlToGroup(filter));
  } catch {
    return null;
  }
}

export interface TableSkeletonProps {
  /** What is loading, for assistive technology ('Loading users'). */
  label: string;
  /** The height of one row (a Tailwind class), as the table draws it. */
  rowClassName: string;
  /** The widths of the placeholder cells (Tailwind classes). */
  cellClassNames: string[];
}

/** A table-shaped placeholder while the first page loads (a status region, so it is labelled). */
function TableSkeleton({ label, rowClassName, cellClassNames }: TableSkeletonProps) {
  return (
    <div className="flex-1 overflow-hidden" role="status" aria-busy="true" aria-label={label}>
      <div className="bg-muted h-9 border-b" />
      {Array.from({ length: 12 }, (_, i) => (
        <div key={i} className={`flex ${rowClassName} items-center gap-6 border-b px-4`}>
          {cellClassNames.map((cell, j) => (
            <Skeleton key={j} className={`h-3.5 ${cell}`} />
          ))}
        </div>
      ))}
    </div>
  );
}
