import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { History } from 'lucide-react';

import type { ApiError } from '@wsc/api-client';
import type { HistoryPage } from '@wsc/api-client/bff-history';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';

import { HistoryEntries } from './history-entries.tsx';

/**
 * A paged history query as the record's tab and the administrators' page show it: loading,
 * error, nothing yet (`empty`), or the changes and a button for the next (older) page.
 */
export function HistoryList({
  query,
  empty,
  more,
  showRecord = false,
}: {
  query: UseInfiniteQueryResult<InfiniteData<HistoryPage>, ApiError>;
  empty: string;
  /** The next page's button ("Load older", "Load more"). */
  more: string;
  showRecord?: boolean;
}) {
  const entries = query.data?.pages.flatMap((page) => page.items) ?? [];
  if (query.isPending) {
    return (
      <div className="grid gap-2" role="status" aria-busy="true" aria-label="Loading history">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} className="h-14 w-full" />
        ))}
      </div>
    );
  }
  if (query.isError) {
    return <ErrorPanel compact error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (entries.length === 0) {
    return (
      <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center text-sm">
        <History className="size-5" aria-hidden="true" />
        {empty}
      </div>
    );
  }
  return (
    <>
      <HistoryEntries entries={entries} now={Date.now()} showRecord={showRecord} />
      {query.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : more}
        </Button>
      )}
    </>
  );
}
