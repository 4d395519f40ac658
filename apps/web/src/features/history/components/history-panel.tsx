import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { useId } from 'react';

import type { Definition } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { lastUpdateFields } from '@/lib/audit-fields.ts';
import { recordQueryOptions } from '@/queries/records.ts';

import { recordHistoryQueryOptions } from '../api/history.ts';
import { outsideChange } from '../lib/describe.ts';
import { HistoryEntries, When } from './history-entries.tsx';

/**
 * A record's History tab: the changes made through the console (the BFF keeps them; the API has no
 * history), newest first, and where the record names a later change made elsewhere, that one.
 */
export function HistoryPanel({
  record,
  definition,
}: {
  record: RecordRef;
  /** The record's definition, for its audit fields; absent: no line about outside changes. */
  definition: Definition | undefined;
}) {
  const query = useInfiniteQuery(recordHistoryQueryOptions(record));
  // Read already by the record panel: its audit fields, where the server has them.
  const current = useQuery(recordQueryOptions(record.recordType, record.alias, record.id));
  const headingId = useId();
  const now = Date.now();
  const entries = query.data?.pages.flatMap((page) => page.items) ?? [];
  const outside =
    query.isSuccess && current.data && definition
      ? outsideChange(current.data.record, lastUpdateFields(definition), entries[0]?.at)
      : undefined;

  return (
    <section aria-labelledby={headingId} className="grid content-start gap-3 px-6 py-4">
      <h3
        id={headingId}
        className="text-muted-foreground text-xs font-medium tracking-wide uppercase"
      >
        History
      </h3>
      <p className="text-muted-foreground text-sm">
        Changes made outside the console are not listed.
      </p>
      {outside && (
        <p className="rounded-md border border-dashed px-3 py-2 text-sm" role="note">
          Last changed outside the console: <When at={outside.at} now={now} />
          {outside.by ? ` by ${outside.by}` : ''}
        </p>
      )}
      {query.isPending ? (
        <div className="grid gap-2" role="status" aria-busy="true" aria-label="Loading history">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-14 w-full" />
          ))}
        </div>
      ) : query.isError ? (
        <ErrorPanel compact error={query.error} onRetry={() => void query.refetch()} />
      ) : entries.length === 0 ? (
        <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center text-sm">
          <History className="size-5" aria-hidden="true" />
          No changes made through the console yet.
        </div>
      ) : (
        <>
          <HistoryEntries entries={entries} now={now} />
          {query.hasNextPage && (
            <Button
              variant="outline"
              size="sm"
              className="justify-self-start"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? 'Loading…' : 'Load older'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
