// The console's live events (ADR 0023): one EventSource on `/bff/events` per tab while a records
// or triage page is shown, the presence it reports (who else has which record open), this tab's
// own presence (`PUT /bff/presence`), and the record changes for whoever subscribes. Only the
// records and triage routes load this module (their chunks), never the first load.
import type { PresenceEntry, PresenceRecord, RecordChangedEvent } from '@wsc/api-client/bff-events';
import {
  HelloEventSchema,
  PresenceEventSchema,
  RecordChangedEventSchema,
} from '@wsc/api-client/bff-events';

import { checkLiveQueueNow } from '@/queries/live-queue.ts';

import { bff } from './bff.ts';

/** Reconnect delays: 1 s doubling to 30 s, each with up to half of it taken off at random. */
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;

/** Presence changes are sent at most this often (the BFF takes 30 per 10 s per stream). */
const PUT_SPACING_MS = 350;

/**
 * The delay before reconnect attempt `attempt` (0-based): exponential with jitter, so tabs that
 * lost the BFF together do not all come back at the same moment.
 *
 * @example
 * backoffDelay(0, () => 0.5); // 750
 * backoffDelay(10, () => 0); // 30000
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const full = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 10));
  return Math.round(full - (full / 2) * random());
}

type EventSourceLike = {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  onerror: ((event: Event) => void) | null;
};

export type LiveEventsDeps = {
  /** `undefined` where there is no EventSource: the console then works without live events. */
  openSource: (url: string) => EventSourceLike | undefined;
  setPresence: (input: { connectionId: string; record: PresenceRecord | null }) => Promise<unknown>;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (handle: unknown) => void;
  random: () => number;
};

const recordKey = (recordType: string, alias: string, recordId: string) =>
  `${recordType}/${alias}/${recordId}`;

/**
 * A live events client. The app uses the one `liveEvents` below; tests make their own with fakes.
 *
 * @example
 * const release = liveEvents.retain();
 * liveEvents.setViewing({ recordType: 'apps', alias: 'tickets', recordId: 'SUP-1' });
 */
export function createLiveEvents(deps: LiveEventsDeps) {
  let source: EventSourceLike | undefined;
  let connectionId: string | undefined;
  let users = 0;
  let attempt = 0;
  let reconnectTimer: unknown;
  let entries = new Map<string, PresenceEntry>();
  /** Entries by record key, rebuilt on change (the hooks read it on every render). */
  let byRecord = new Map<string, PresenceEntry[]>();
  const subscribers = new Set<() => void>();
  const changeListeners = new Set<(event: RecordChangedEvent) => void>();

  let viewing: Omit<PresenceRecord, 'editing'> | null = null;
  let editing = false;
  /** What the BFF was last told for this connection (`undefined`: nothing yet). */
  let sent: string | undefined;
  let putting = false;
  let putTimer: unknown;

  const publish = () => {
    byRecord = new Map();
    for (const entry of entries.values()) {
      const key = recordKey(entry.recordType, entry.alias, entry.recordId);
      byRecord.set(key, [...(byRecord.get(key) ?? []), entry]);
    }
    for (const notify of subscribers) notify();
  };

  const wanted = (): PresenceRecord | null => (viewing ? { ...viewing, editing } : null);

  /** Sends the wanted presence when it differs from what was sent, spaced and one at a time. */
  const flush = () => {
    if (!connectionId || putting || putTimer !== undefined) return;
    const record = wanted();
    const text = JSON.stringify(record);
    if (text === sent) return;
    putting = true;
    const id = connectionId;
    sent = text;
    void deps
      .setPresence({ connectionId: id, record })
      .catch(() => {
        // The stream is gone (a new one re-sends on hello) or the rate was hit: try once later.
        if (connectionId === id) sent = undefined;
      })
      .finally(() => {
        putting = false;
        putTimer = deps.setTimer(() => {
          putTimer = undefined;
          flush();
        }, PUT_SPACING_MS);
      });
  };

  const disconnect = () => {
    source?.close();
    source = undefined;
    connectionId = undefined;
    sent = undefined;
    if (reconnectTimer !== undefined) deps.clearTimer(reconnectTimer);
    reconnectTimer = undefined;
    if (entries.size > 0) {
      entries = new Map();
      publish();
    }
  };

  const connect = () => {
    reconnectTimer = undefined;
    if (users === 0 || source) return;
    const next = deps.openSource('/bff/events');
    if (!next) return;
    source = next;
    next.addEventListener('hello', (event) => {
      const hello = HelloEventSchema.safeParse(JSON.parse(event.data));
      if (!hello.success) return;
      attempt = 0;
      connectionId = hello.data.connectionId;
      sent = undefined;
      flush();
    });
    next.addEventListener('presence', (event) => {
      const parsed = PresenceEventSchema.safeParse(JSON.parse(event.data));
      if (!parsed.success) return;
      const data = parsed.data;
      if (data.kind === 'snapshot') {
        entries = new Map(data.entries.map((e) => [e.connectionId, e]));
      } else {
        entries = new Map(entries);
        for (const id of data.removed) entries.delete(id);
        for (const e of data.upserts) entries.set(e.connectionId, e);
      }
      publish();
    });
    next.addEventListener('record-changed', (event) => {
      const parsed = RecordChangedEventSchema.safeParse(JSON.parse(event.data));
      if (!parsed.success) return;
      for (const listener of changeListeners) listener(parsed.data);
    });
    // The browser's own retry stops at an HTTP error (401, 429): reconnect here, backing off.
    next.onerror = () => {
      if (source !== next) return;
      disconnect();
      if (users === 0) return;
      reconnectTimer = deps.setTimer(connect, backoffDelay(attempt, deps.random));
      attempt += 1;
    };
  };

  return {
    /** Keeps the stream open while held; the last release closes it. */
    retain(): () => void {
      users += 1;
      connect();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        users -= 1;
        if (users === 0) {
          attempt = 0;
          disconnect();
        }
      };
    },

    /** The record this tab shows (`null`: none); the editor's state is set apart. */
    setViewing(record: Omit<PresenceRecord, 'editing'> | null) {
      viewing = record;
      if (!record) editing = false;
      flush();
    },

    setEditing(next: boolean) {
      editing = next;
      flush();
    },

    /** Other people's entries by record (see presenceOf): a new map whenever presence changes. */
    snapshot(): PresenceByRecord {
      return byRecord;
    },

    subscribe(listener: () => void): () => void {
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },

    /** Record changes made through the console, by anyone, as they happen. */
    onRecordChanged(listener: (event: RecordChangedEvent) => void): () => void {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
  };
}

export type LiveEvents = ReturnType<typeof createLiveEvents>;

/** Other people's entries, keyed by record (`recordType/alias/recordId`). */
export type PresenceByRecord = ReadonlyMap<string, PresenceEntry[]>;

/**
 * Other people's entries for one record (`undefined`: nobody), from a snapshot.
 *
 * @example
 * presenceOf(liveEvents.snapshot(), 'apps', 'tickets', 'SUP-1');
 */
export function presenceOf(
  all: PresenceByRecord,
  recordType: string,
  alias: string,
  recordId: string,
): PresenceEntry[] | undefined {
  return all.get(recordKey(recordType, alias, recordId));
}

/**
 * The records of one definition someone else has open: record id -> their entries.
 *
 * @example
 * presenceIn(liveEvents.snapshot(), 'apps', 'tickets').get('SUP-1');
 */
export function presenceIn(
  all: PresenceByRecord,
  recordType: string,
  alias: string,
): Map<string, PresenceEntry[]> {
  const out = new Map<string, PresenceEntry[]>();
  for (const list of all.values()) {
    const first = list[0];
    if (first && first.recordType === recordType && first.alias === alias) {
      out.set(first.recordId, list);
    }
  }
  return out;
}

/** The tab's live events. */
export const liveEvents = createLiveEvents({
  openSource: (url) => (typeof EventSource === 'undefined' ? undefined : new EventSource(url)),
  setPresence: (input) => bff.events.setPresence(input),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  random: Math.random,
});

// A change made through the console makes the mounted lists of that definition look at their
// first page now instead of at their next poll (ADR 0025; each check is spaced and coalesced).
liveEvents.onRecordChanged((event) => checkLiveQueueNow(event.recordType, event.alias));

/**
 * Subscribe to record changes made through the console (by anyone): the live queue refetches on
 * them. Returns the unsubscribe.
 *
 * @example
 * useEffect(() => onRecordChanged((e) => console.log(e.recordId)), []);
 */
export function onRecordChanged(listener: (event: RecordChangedEvent) => void): () => void {
  return liveEvents.onRecordChanged(listener);
}
