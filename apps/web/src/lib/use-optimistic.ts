import type { QueryKey } from '@tanstack/react-query';
import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useSyncExternalStore } from 'react';

import type { RecordRef } from '@/queries/records.ts';

import type { OptimisticStore, PendingRecordWrite, WriteOutcome } from './optimistic-records.ts';
import { optimisticStore } from './optimistic-records.ts';

const NONE: readonly never[] = Object.freeze([]);

/**
 * The optimistic store of the app's query client (lib/optimistic-records.ts).
 *
 * @example
 * const store = useOptimisticStore();
 * store.changeRecord({ record, definition, changes, source: 'triage' });
 */
export function useOptimisticStore(): OptimisticStore {
  return optimisticStore(useQueryClient());
}

/**
 * The pending writes of one record, re-rendering when they change: the pending marker of a
 * record and of its fields.
 *
 * @example
 * const pending = usePendingWrites({ recordType, alias, id });
 * const saving = pending.some((w) => w.fields.includes('Status'));
 */
export function usePendingWrites(record: RecordRef | undefined): readonly PendingRecordWrite[] {
  const store = useOptimisticStore();
  const { recordType, alias, id } = record ?? {};
  const snapshot = useCallback(
    () =>
      recordType && alias !== undefined && id !== undefined
        ? store.pendingWrites({ recordType, alias, id })
        : NONE,
    [store, recordType, alias, id],
  );
  return useSyncExternalStore(
    useCallback((on) => store.records.subscribe(on), [store]),
    snapshot,
  );
}

/**
 * The handles of a definition's records with writes pending: the marker on list rows.
 *
 * @example
 * const pending = usePendingIds('apps', 'support-tickets'); // Set { 'SUP-1' }
 */
export function usePendingIds(recordType: string, alias: string): ReadonlySet<string> {
  const store = useOptimisticStore();
  const snapshot = useCallback(
    () => store.pendingIds(recordType, alias),
    [store, recordType, alias],
  );
  return useSyncExternalStore(
    useCallback((on) => store.records.subscribe(on), [store]),
    snapshot,
  );
}

/**
 * The pending changes of a cached list (watchers, related items), in order.
 *
 * @example
 * const adding = usePendingListChanges<WatcherChange>(options.queryKey);
 */
export function usePendingListChanges<M>(queryKey: QueryKey): readonly M[] {
  const store = useOptimisticStore();
  const key = hashKey(queryKey);
  const snapshot = useCallback(() => store.lists.pending(key) as readonly M[], [store, key]);
  return useSyncExternalStore(
    useCallback((on) => store.lists.subscribe(on), [store]),
    snapshot,
  );
}

/**
 * Optimistic changes to one cached list (a record's watchers, its related items): `change` shows
 * `apply` at once, sends, and reads the list again once it settled either way; `pending` lists
 * the metas of the changes not confirmed yet.
 *
 * @example
 * const { change, pending } = useListChanges<WatcherPagedList, WatcherChange>(queryKey);
 * await change((list) => withWatcher(list, email), () => addWatchers(record, [email]), meta);
 */
export function useListChanges<T, M>(queryKey: QueryKey) {
  const queryClient = useQueryClient();
  const store = useOptimisticStore();
  const pending = usePendingListChanges<M>(queryKey);
  const key = useRef(queryKey);
  key.current = queryKey;
  const hash = hashKey(queryKey);
  const change = useCallback(
    async (apply: (data: T) => T, send: () => Promise<unknown>, meta: M) => {
      const queryKey = key.current;
      const outcome: WriteOutcome<unknown> = await store.changeList({
        queryKey,
        apply,
        send,
        meta,
      });
      void queryClient.invalidateQueries({ queryKey });
      return outcome;
    },
    // The list is the same while its key hashes the same.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, queryClient, hash],
  );
  return { change, pending };
}
