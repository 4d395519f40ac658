import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';

import type { Definition, RecordType } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import { useCapabilities } from '@/lib/capabilities.ts';
import { firstPageOf, useLiveQueue } from '@/lib/use-live-queue.ts';

import {
  queueRows,
  triageQueueQueryOptions,
  triageRecordQueryOptions,
} from '../api/triage-queries.ts';

/** How many records ahead (and behind) are fetched before the user gets there. */
const PREFETCH_AHEAD = 2;

export interface TriageQueueInput {
  definition: Definition;
  filter?: string | undefined;
  sort?: string | undefined;
  /** The record shown (from the URL); the first of the queue when absent. */
  currentId?: string | undefined;
  /** Moves to another record (replaces the URL's `id`). */
  onCurrentChange: (id: string) => void;
  /** Tells the user why a move did nothing (at either end of the queue), or what it skipped. */
  onStatus: (message: string) => void;
  /**
   * Who else is editing a record (their names), for j/k to pass over it; absent or empty: the
   * record is not skipped.
   */
  editorsOf?: ((id: string) => string[]) | undefined;
}

/**
 * The status line after j/k passed over records others are editing.
 *
 * @example
 * skippedMessage(1, ['Ana']); // 'Skipped 1 record: Ana is editing'
 */
export function skippedMessage(count: number, names: readonly string[]): string {
  const who = names.length > 1 ? `${names.join(', ')} are` : `${names[0] ?? 'someone'} is`;
  return `Skipped ${count} record${count === 1 ? '' : 's'}: ${who} editing`;
}

/**
 * The triage queue and the place in it: the queue's rows (records with a handle), its total, the
 * current record's index and id, and `move(delta)` along it. Selects the first record when the
 * URL names none, prefetches the current record's neighbours (so `j` / `k` show a record already
 * in the cache) and loads the next page before the user reaches the end of the loaded ones. The
 * queue is live (`live`, ADR 0025): rows changed by others are updated in place, new records
 * wait behind a banner; `keepPlace` is called just before such a change, to hold the list still.
 *
 * @example
 * const { rows, id, move } = useTriageQueue({ definition, filter, sort, currentId, onCurrentChange, onStatus });
 */
export function useTriageQueue({
  definition,
  filter,
  sort,
  currentId,
  onCurrentChange,
  onStatus,
  editorsOf,
}: TriageQueueInput) {
  const recordType = definition.recordType as RecordType;
  const alias = definition.alias;
  const queryClient = useQueryClient();
  const { sort: serverSort } = useCapabilities();
  const options = triageQueueQueryOptions({
    recordType,
    alias,
    filter,
    sort,
    serverSort,
    fields: definition.fields,
  });
  const queue = useInfiniteQuery(options);
  const keepPlace = useRef<(() => void) | null>(null);
  const live = useLiveQueue({
    queryKey: options.queryKey,
    fetchFirstPage: (signal) => firstPageOf(options, queryClient, signal),
    idOf: (record) => recordHandle(record, definition),
    recordType,
    alias,
    hasNextPage: queue.hasNextPage,
    enabled: queue.isSuccess,
    onBeforeChange: () => keepPlace.current?.(),
  });
  const { rows, skipped } = useMemo(
    () =>
      queueRows(
        queue.data?.pages.flatMap((page) => page.items.map((item) => item.data)) ?? [],
        definition,
      ),
    [queue.data, definition],
  );
  const serverTotal = queue.data?.pages[0]?.total;
  // Without a total from the server (hosted), the queue is counted as far as it is loaded.
  const total =
    serverTotal === undefined ? (queue.data ? rows.length : undefined) : serverTotal - skipped;
  const index = currentId === undefined ? -1 : rows.findIndex((r) => r.id === currentId);
  const id = currentId ?? rows[0]?.id;
  const row = index >= 0 ? rows[index] : undefined;

  // Without an id in the URL, the queue's first record is the current one.
  useEffect(() => {
    if (currentId === undefined && rows[0]) onCurrentChange(rows[0].id);
  }, [currentId, rows, onCurrentChange]);

  // Prefetch the neighbours, so `j` / `k` show a record that is already in the cache.
  useEffect(() => {
    const start = Math.max(index, 0);
    for (let step = -1; step <= PREFETCH_AHEAD; step++) {
      const neighbour = rows[start + step];
      if (step === 0 || !neighbour) continue;
      void queryClient.prefetchQuery(triageRecordQueryOptions(recordType, alias, neighbour.id));
    }
  }, [index, rows, queryClient, recordType, alias]);

  // Load the next page of the queue before the user reaches its end.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = queue;
  useEffect(() => {
    if (index >= rows.length - 5 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [index, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const move = useCallback(
    (delta: number) => {
      if (rows.length === 0) return;
      let target = index < 0 ? 0 : Math.min(Math.max(index + delta, 0), rows.length - 1);
      // Pass over records someone else is editing, in the direction of the move.
      const step = delta > 0 ? 1 : -1;
      const names = new Set<string>();
      let passed = 0;
      while (editorsOf && target !== index && rows[target] && rows[target]?.id !== id) {
        const editing = editorsOf(rows[target]?.id ?? '');
        if (editing.length === 0) break;
        for (const name of editing) names.add(name);
        passed += 1;
        target += step;
      }
      const next = rows[target];
      if (!next || next.id === id) {
        onStatus(
          passed > 0
            ? `${skippedMessage(passed, [...names])}; no other record ${delta > 0 ? 'after' : 'before'} this one.`
            : delta > 0
              ? 'This is the last record in the queue.'
              : 'This is the first record.',
        );
        return;
      }
      onCurrentChange(next.id);
      if (passed > 0) onStatus(skippedMessage(passed, [...names]));
    },
    [rows, index, id, onCurrentChange, onStatus, editorsOf],
  );

  return {
    queue,
    queueKey: options.queryKey,
    serverSort,
    rows,
    skipped,
    total,
    /** '+' when the count is only of the loaded pages and more remain. */
    more: serverTotal === undefined && hasNextPage ? '+' : '',
    index,
    id,
    row,
    move,
    live,
    keepPlace,
  };
}
