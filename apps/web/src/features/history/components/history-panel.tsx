import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId } from 'react';

import type { Definition } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { lastUpdateFields } from '@/lib/audit-fields.ts';
import { recordQueryOptions } from '@/queries/records.ts';

import { recordHistoryQueryOptions } from '../api/history.ts';
import { outsideChange } from '../lib/describe.ts';
import { When } from './history-entries.tsx';
import { HistoryList } from './history-list.tsx';

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
  const newest = query.data?.pages[0]?.items[0]?.at;
  const outside =
    query.isSuccess && current.data && definition
      ? outsideChange(current.data.record, lastUpdateFields(definition), newest)
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
      <HistoryList
        query={query}
        empty="No changes made through the console yet."
        more="Load older"
      />
    </section>
  );
}
