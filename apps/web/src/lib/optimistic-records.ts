// The console's optimistic writes through TanStack Query's cache (ADR 0028): a write is painted
// into the record's query and every cached list that shows it before it is sent; the wire sends
// one write of a record at a time; a refusal repaints that record alone from what the server
// confirmed, with its later writes re-applied. Triage, the record editor, watchers and related
// items all go through the one store of their query client.
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { hashKey } from '@tanstack/react-query';

import type { Definition, RecordData, RecordReply } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { api } from '@/lib/api.ts';
import { changesAnything, saveRecord, StaleRecordError } from '@/lib/record-writes.ts';
import { recordKeys } from '@/queries/records.ts';

import type { PendingWrite, WriteOutcome } from './optimistic/pending-ledger.ts';
import { PendingLedger } from './optimistic/pending-ledger.ts';
import { paintRecordInList, paintRow, rowInList } from './optimistic/record-lists.ts';

export type { WriteOutcome } from './optimistic/pending-ledger.ts';

/** A pending record write as the screen marks it: the fields it sets. */
export interface PendingRecordWrite {
  fields: readonly string[];
}

/** A change to the fields of one record. */
export interface RecordChange {
  record: RecordRef;
  definition: Pick<Definition, 'fields' | 'handleField'>;
  changes: RecordData;
  /** Where in the console it was made, for the record history (`triage`, `editor`). */
  source: string;
  /** The record as the user saw it, when that is not simply the cache (the editor's copy). */
  seen?: RecordReply | undefined;
}

/** A change to a cached list of something hanging off a record (its watchers, related items). */
export interface ListChange<T, M> {
  queryKey: QueryKey;
  /** The change as the list shows it at once. */
  apply: (data: T) => T;
  /** Makes the change on the server; the list is read again after (by the caller). */
  send: () => Promise<unknown>;
  /** What the screen says about it while pending. */
  meta: M;
}

interface Tracked {
  record: RecordRef;
  definition: Pick<Definition, 'handleField'>;
  /** Fields any write of this round has set (a rollback may have to unset them in rows). */
  touched: Set<string>;
}

const NO_IDS: ReadonlySet<string> = new Set();

/**
 * The optimistic writes of one query client. Records are keyed by their detail query; a read of
 * the record that lands while writes are pending becomes their base, and a list that is read
 * again is painted over at once, so nothing the user did flickers away before it is confirmed.
 */
export class OptimisticStore {
  readonly records: PendingLedger<RecordReply, PendingRecordWrite>;
  readonly lists: PendingLedger<unknown, unknown>;
  readonly #queryClient: QueryClient;
  readonly #tracked = new Map<string, Tracked>();
  /** The query key of each list with changes pending, by its hash. */
  readonly #listKeys = new Map<string, QueryKey>();
  /** Above zero while the store writes into the cache (its own updates are not news). */
  #painting = 0;
  #idsVersion = -1;
  #ids = new Map<string, ReadonlySet<string>>();

  constructor(queryClient: QueryClient) {
    this.#queryClient = queryClient;
    this.records = new PendingLedger((key, view) => this.#paintRecord(key, view));
    this.lists = new PendingLedger((key, view) => this.#paintList(key, view));
    queryClient.getQueryCache().subscribe((event) => {
      if (this.#painting > 0 || event.type !== 'updated' || event.action.type !== 'success') return;
      this.#cacheUpdated(event.query.queryKey, event.query.state.data, event.action.manual);
    });
  }

  /** Whether any write (to a record or a list) is still on its way or waiting for its turn. */
  hasPending(): boolean {
    return this.records.keys().length > 0 || this.lists.keys().length > 0;
  }

  /**
   * Paints a change to a record's fields at once and sends it after the record's earlier writes.
   * Settles with the record as stored, or the refusal (the record is then repainted without it).
   *
   * @example
   * const { settled } = store.changeRecord({ record, definition, changes: { Status: 'Open' }, source: 'triage' });
   */
  changeRecord(change: RecordChange): { id: number; settled: Promise<WriteOutcome<RecordReply>> } {
    const { record, definition, changes } = change;
    const key = recordKey(record);
    const tracked = this.#tracked.get(key) ?? { record, definition, touched: new Set<string>() };
    for (const field of Object.keys(changes)) tracked.touched.add(field);
    this.#tracked.set(key, tracked);
    const write: PendingWrite<RecordReply, PendingRecordWrite> = {
      apply: (view) => ({ record: { ...view.record, ...changes }, etag: view.etag }),
      send: (base) => sendRecordChange(change, base),
      rebase: (error) =>
        error instanceof StaleRecordError ? { record: error.latest, etag: error.etag } : undefined,
      seen: change.seen,
      meta: { fields: Object.keys(changes) },
    };
    const queued = this.records.enqueue(key, () => this.#cachedRecord(tracked), write);
    const settled = queued.settled.then((outcome) => {
      if (outcome.status === 'confirmed') {
        // The stored record is the newest of its fields (audit stamps): rows take all of it,
        // with the fields of writes still pending over it.
        const shown = this.records.view(key)?.record ?? outcome.value.record;
        this.#paintRows(tracked, { ...outcome.value.record, ...touchedOf(tracked, shown) });
      }
      if (!this.records.has(key)) this.#tracked.delete(key);
      return outcome;
    });
    return { id: queued.id, settled };
  }

  /**
   * Paints a change to a cached list at once and sends it after the list's earlier changes; a
   * refusal repaints the list without it.
   *
   * @example
   * store.changeList({ queryKey, apply: (d) => without(d, email), send: () => removeWatchers(record, [email]), meta });
   */
  changeList<T, M>(change: ListChange<T, M>): Promise<WriteOutcome<unknown>> {
    const key = hashKey(change.queryKey);
    this.#listKeys.set(key, change.queryKey);
    const apply = change.apply as (data: unknown) => unknown;
    const queued = this.lists.enqueue(key, () => this.#queryClient.getQueryData(change.queryKey), {
      apply,
      // Writes to lists answer nothing useful: what is stored is the change made, until re-read.
      send: async (base) => {
        await change.send();
        return base === undefined ? base : apply(base);
      },
      meta: change.meta,
    });
    return queued.settled.then((outcome) => {
      if (!this.lists.has(key)) this.#listKeys.delete(key);
      return outcome;
    });
  }

  /**
   * The record as the screen shows it: with its pending writes, else as cached (its query, else a
   * list's row); `undefined` when the cache does not hold it.
   *
   * @example
   * const shown = store.shownRecord(record, definition)?.record;
   */
  shownRecord(
    record: RecordRef,
    definition: Pick<Definition, 'handleField'>,
  ): RecordReply | undefined {
    return (
      this.records.view(recordKey(record)) ??
      this.#cachedRecord({ record, definition, touched: new Set() })
    );
  }

  /** Withdraws a record write that has not gone out yet (undo of a queued key). */
  cancel(id: number): boolean {
    return this.records.cancel(id);
  }

  /** The pending writes of one record, in order (the same array until it changes). */
  pendingWrites(record: RecordRef): readonly PendingRecordWrite[] {
    return this.records.pending(recordKey(record));
  }

  /** The handles of a definition's records with writes pending (the same set until it changes). */
  pendingIds(recordType: string, alias: string): ReadonlySet<string> {
    if (this.#idsVersion !== this.records.version) {
      this.#idsVersion = this.records.version;
      this.#ids = new Map();
    }
    const name = `${recordType}/${alias}`;
    let ids = this.#ids.get(name);
    if (!ids) {
      const found = [...this.#tracked.entries()]
        .filter(
          ([key, t]) =>
            this.records.has(key) && `${t.record.recordType}/${t.record.alias}` === name,
        )
        .map(([, t]) => t.record.id);
      ids = found.length > 0 ? new Set(found) : NO_IDS;
      this.#ids.set(name, ids);
    }
    return ids;
  }

  /** The record as the cache holds it: its own query, else a list's row (without an ETag). */
  #cachedRecord(tracked: Tracked): RecordReply | undefined {
    const { recordType, alias, id } = tracked.record;
    const detail = this.#queryClient.getQueryData<RecordReply>(
      recordKeys.detail(recordType, alias, id),
    );
    if (detail) return detail;
    for (const [, data] of this.#queryClient.getQueriesData({
      queryKey: recordKeys.lists(recordType, alias),
    })) {
      const row = rowInList(data, id, tracked.definition);
      if (row) return { record: row, etag: undefined };
    }
    return undefined;
  }

  #paintRecord(key: string, view: RecordReply | undefined): void {
    const tracked = this.#tracked.get(key);
    if (!tracked || !view) return;
    const { recordType, alias, id } = tracked.record;
    const detailKey = recordKeys.detail(recordType, alias, id);
    this.#painting += 1;
    try {
      // Only a record already read: a record made up of a row would pass for one with its ETag.
      if (this.#queryClient.getQueryData(detailKey) !== undefined) {
        this.#queryClient.setQueryData(detailKey, view);
      }
    } finally {
      this.#painting -= 1;
    }
    this.#paintRows(tracked, touchedOf(tracked, view.record));
  }

  /** Paints the record into the cached lists that hold it (`record`: the fields to paint). */
  #paintRows(tracked: Tracked, record: RecordData): void {
    const { recordType, alias, id } = tracked.record;
    this.#painting += 1;
    try {
      this.#queryClient.setQueriesData({ queryKey: recordKeys.lists(recordType, alias) }, (data) =>
        paintRecordInList(
          data,
          id,
          (row) => paintRow(row, record, tracked.touched),
          tracked.definition,
        ),
      );
    } finally {
      this.#painting -= 1;
    }
  }

  /**
   * A list was read again while writes are pending: its rows are newer than anything else held,
   * so only the fields the writes set are painted over them (as always).
   */
  #repaintRows(key: string, tracked: Tracked): void {
    const view = this.records.view(key);
    if (view) this.#paintRows(tracked, touchedOf(tracked, view.record));
  }

  #paintList(key: string, view: unknown): void {
    const queryKey = this.#listKeys.get(key);
    if (!queryKey || view === undefined) return;
    this.#painting += 1;
    try {
      this.#queryClient.setQueryData(queryKey, view);
    } finally {
      this.#painting -= 1;
    }
  }

  /** Someone else updated the cache: a read of a record is news, a list read again is painted over. */
  #cacheUpdated(queryKey: QueryKey, data: unknown, manual: boolean | undefined): void {
    const [kind, recordType, alias] = queryKey;
    if (kind === 'record') {
      const key = hashKey(queryKey);
      if (!this.records.has(key)) return;
      if (manual || data === undefined) this.records.repaint(key);
      else this.records.confirm(key, data as RecordReply);
      return;
    }
    if (kind === 'records') {
      for (const [key, t] of this.#tracked) {
        if (t.record.recordType === recordType && t.record.alias === alias) {
          this.#repaintRows(key, t);
        }
      }
      return;
    }
    const key = hashKey(queryKey);
    if (!this.lists.has(key)) return;
    if (manual || data === undefined) this.lists.repaint(key);
    else this.lists.confirm(key, data);
  }
}

/** The fields of `record` the round's writes set: what is painted into list rows. */
function touchedOf(tracked: Tracked, record: RecordData): RecordData {
  const touched: RecordData = {};
  for (const field of tracked.touched) {
    const value = record[field];
    if (value !== undefined) touched[field] = value;
  }
  return touched;
}

/** The ledger key of a record: its detail query's hash. */
function recordKey(record: RecordRef): string {
  return hashKey(recordKeys.detail(record.recordType, record.alias, record.id));
}

/**
 * Sends one record change on `base` (what the earlier writes left, or the user's copy). Nothing is
 * sent when the change changes nothing any more (a rolled-back write undone). A record known
 * only from a list row has no ETag: where the server has them, it is read and checked here.
 */
async function sendRecordChange(
  change: RecordChange,
  base: RecordReply | undefined,
): Promise<RecordReply> {
  const { record, definition, changes, source } = change;
  const { recordType, alias, id } = record;
  const known = base ?? (await api.getRecord(recordType, alias, id));
  if (!changesAnything(known.record, changes)) return known;
  return saveRecord({
    recordType,
    alias,
    id,
    definition,
    base: known.record,
    changes,
    etag: known.etag,
    conflictCheck: known.etag === undefined && api.profile === 'extended' ? 'browser' : 'server',
    source,
  });
}

const stores = new WeakMap<QueryClient, OptimisticStore>();

/**
 * The optimistic store of a query client (one per client: the cache it paints into).
 *
 * @example
 * const store = optimisticStore(queryClient);
 */
export function optimisticStore(queryClient: QueryClient): OptimisticStore {
  let store = stores.get(queryClient);
  if (!store) {
    store = new OptimisticStore(queryClient);
    stores.set(queryClient, store);
    guardLeaving(store);
  }
  return store;
}

/**
 * Leaving the page (reload, closing the tab, typing another address) would abort the writes still
 * on their way: while any is pending the browser asks first, as it does for running uploads.
 * Moving around inside the console keeps them going and asks nothing.
 */
function guardLeaving(store: OptimisticStore): void {
  globalThis.addEventListener?.('beforeunload', (event) => {
    if (store.hasPending()) event.preventDefault();
  });
}
