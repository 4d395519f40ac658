import type { InfiniteData, QueryClient, QueryFunction, QueryKey } from '@tanstack/react-query';
import { skipToken, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';

import type { RecordData } from '@wsc/api-client';

import type { LiveItem, LivePage } from '@/lib/live-queue.ts';
import {
  applyUpdates,
  compareWithLoaded,
  LIVE_POLL_INTERVAL_MS,
  mergeFresh,
  startLivePoll,
} from '@/lib/live-queue.ts';
import { isLiveQueueHeld, watchLiveQueue } from '@/queries/live-queue.ts';

/** What the last poll found that waits for the user: the fresh records and the polled page. */
interface Pending {
  polled: LiveItem[];
  fresh: LiveItem[];
  total: number | undefined;
}

const NOTHING: Pending = { polled: [], fresh: [], total: undefined };
const NONE: ReadonlySet<string> = new Set();

/**
 * A list's first page, fetched with the list's own query function and first page parameter
 * (outside its cache): the very request the list's first page sends (filter, sort where the
 * server sorts, `first`, the URL's cursor), so the poll is valid wherever the list is, the hosted
 * profile's published contract included.
 *
 * @example
 * const live = useLiveQueue({ fetchFirstPage: (signal) => firstPageOf(options, queryClient, signal), ... });
 */
export function firstPageOf<TPage, TKey extends QueryKey, TParam>(
  options: {
    queryKey: TKey;
    queryFn?: QueryFunction<TPage, TKey, TParam> | typeof skipToken | undefined;
    initialPageParam: TParam;
  },
  client: QueryClient,
  signal: AbortSignal,
): Promise<TPage> {
  const { queryFn } = options;
  if (!queryFn || queryFn === skipToken) return Promise.reject(new Error('the list has no query'));
  return Promise.resolve(
    queryFn({
      client,
      queryKey: options.queryKey,
      signal,
      pageParam: options.initialPageParam,
      direction: 'forward',
      meta: undefined,
    }),
  );
}

export interface LiveQueueInput {
  /** The list's infinite query key: its cached pages are compared and updated. */
  queryKey: QueryKey;
  /** Fetches the list's first page, exactly as the list's own first request. */
  fetchFirstPage: (signal: AbortSignal) => Promise<LivePage>;
  /** A record's id (its handle); records without one are left alone. */
  idOf: (record: RecordData) => string | undefined;
  /** The definition, to hear {@link checkLiveQueueNow}. */
  recordType: string;
  alias: string;
  /** Whether the list has a page after those loaded (false: every match belongs in it). */
  hasNextPage: boolean;
  /** False while the list has not loaded (nothing to compare with). */
  enabled: boolean;
  /** Called just before the live queue changes the list's rows, to keep the user's place. */
  onBeforeChange?: () => void;
}

/**
 * Keeps a records list live (ADR 0025): polls its first page every {@link LIVE_POLL_INTERVAL_MS}
 * while the tab is visible (one poll in flight, none while hidden, one at once when it shows
 * again or when {@link checkLiveQueueNow} names the definition), updates held rows in place at
 * once, and holds new records back as `freshCount` until `merge()` puts them at their sorted
 * places. An empty list takes them at once. `departed` are held rows the view no longer returns
 * (kept until a reload, marked). Stops when the list unmounts or its query changes.
 *
 * @example
 * const live = useLiveQueue({ queryKey, fetchFirstPage, idOf, recordType, alias, hasNextPage, enabled });
 * {live.freshCount > 0 && <LiveQueueBanner count={live.freshCount} onMerge={live.merge} />}
 */
export function useLiveQueue({
  queryKey,
  fetchFirstPage,
  idOf,
  recordType,
  alias,
  hasNextPage,
  enabled,
  onBeforeChange,
}: LiveQueueInput) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(NOTHING);
  const [departed, setDeparted] = useState<ReadonlySet<string>>(NONE);
  // The poll reads the latest inputs without restarting on every render.
  const latest = useRef({ fetchFirstPage, idOf, hasNextPage, onBeforeChange });
  latest.current = { fetchFirstPage, idOf, hasNextPage, onBeforeChange };
  const keyHash = JSON.stringify(queryKey);

  const merge = useCallback(
    (found: Pending) => {
      const { idOf: id, onBeforeChange: before } = latest.current;
      before?.();
      queryClient.setQueryData<InfiniteData<LivePage>>(queryKey, (data) =>
        data
          ? { ...data, pages: mergeFresh(data.pages, found.polled, found.fresh, id, found.total) }
          : data,
      );
      setPending(NOTHING);
    },
    // queryKey is compared by its hash: a new array with the same key is the same list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, keyHash],
  );

  useEffect(() => {
    setPending(NOTHING);
    setDeparted(NONE);
    if (!enabled) return;
    const check = async (signal: AbortSignal) => {
      const page = await latest.current.fetchFirstPage(signal);
      if (signal.aborted) return;
      const data = queryClient.getQueryData<InfiniteData<LivePage>>(queryKey);
      if (!data) return;
      const { idOf: id, hasNextPage: more, onBeforeChange: before } = latest.current;
      const loaded = data.pages.flatMap((p) => p.items.map((item) => item.data));
      const found = compareWithLoaded(loaded, page.items, id, !more);
      if (found.updated.size > 0) {
        before?.();
        queryClient.setQueryData<InfiniteData<LivePage>>(queryKey, (current) =>
          current ? { ...current, pages: applyUpdates(current.pages, found.updated, id) } : current,
        );
      }
      setDeparted((previous) =>
        found.departed.size === 0 && previous.size === 0 ? previous : found.departed,
      );
      const next = { polled: page.items, fresh: found.fresh, total: page.total };
      // Nothing is under the user's cursor in an empty list: new records go straight in.
      if (loaded.length === 0 && found.fresh.length > 0) merge(next);
      else setPending(found.fresh.length > 0 ? next : NOTHING);
    };
    const poll = startLivePoll({
      intervalMs: LIVE_POLL_INTERVAL_MS,
      check,
      held: () => isLiveQueueHeld(recordType, alias),
    });
    const unwatch = watchLiveQueue(recordType, alias, poll.checkNow);
    return () => {
      unwatch();
      poll.stop();
    };
    // queryKey is compared by its hash (see merge).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryClient, keyHash, enabled, recordType, alias, merge]);

  return {
    freshCount: pending.fresh.length,
    merge: useCallback(() => merge(pending), [merge, pending]),
    departed,
  };
}
