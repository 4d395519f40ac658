// The live events of one BFF instance (ADR 0023): its Server-Sent Event streams, the presence rows
// it keeps alive, and one LISTEN on the store's `wsc_live` channel through which every instance
// hears every other's presence changes, record changes and ended sessions. The hub does nothing
// (no timer, no listening connection) while this instance serves no stream.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

import type {
  PresenceEntry,
  PresenceEvent,
  PresenceInput,
  PresenceRecord,
  RecordChangedEvent,
} from '@wsc/api-client/bff-events';
import { RecordChangedEventSchema } from '@wsc/api-client/bff-events';

import type { BffDatabase } from '../../db/schema.ts';
import type { SessionRecord, SessionStore } from '../../db/store.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FairnessLimits, LiveEventsConfig } from '../../lib/config.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RecordChange, RecordChangeBus } from '../../lib/record-changes.ts';
import type { Visible } from '../../lib/visible-definitions.ts';
import type { Entry } from './presence-fan-out.ts';
import { ProblemException } from '../../lib/errors.ts';
import { actorOf } from '../../lib/people.ts';
import { throttledRuns } from '../../lib/throttled-runs.ts';
import { definitionKey } from '../../lib/visible-definitions.ts';
import { presenceStore, toEntry } from './events.store.ts';
import { changesByDefinition, presenceFanOut } from './presence-fan-out.ts';
import { presenceLimits } from './presence-limits.ts';
import { streamVisibility } from './stream-visibility.ts';

/** The one channel of the live events: `p:<region>`, `s:<session hash>` or `c:<change JSON>`. */
export const LIVE_CHANNEL = 'wsc_live';

/** NOTIFY payloads must stay under PostgreSQL's 8000 bytes; ids only keep them far below. */
const MAX_NOTIFY_BYTES = 7_500;

type Stream = {
  id: string;
  session: SessionRecord;
  region: string;
  controller: ReadableStreamDefaultController<Uint8Array>;
  closed: boolean;
};

/** A slot taken before the stream opens (the limits count it); `release` gives it back. */
export type Admission = { session: SessionRecord; release: () => void };

const encoder = new TextEncoder();

function event(name: string, data: unknown): string {
  // JSON.stringify never writes a raw newline, so one `data:` line holds the whole event.
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

function publicEntry({ userId: _userId, ...entry }: Entry): PresenceEntry {
  return entry;
}

function sameEntry(a: Entry, b: Entry): boolean {
  return (
    a.recordType === b.recordType &&
    a.alias === b.alias &&
    a.recordId === b.recordId &&
    a.editing === b.editing &&
    a.since === b.since &&
    a.user.name === b.user.name &&
    a.identity === b.identity
  );
}

function tooMany(detail: string, retryAfterSeconds: number): ProblemException {
  return new ProblemException({
    status: 429,
    code: 'too_many_streams',
    title: 'Too Many Requests',
    detail,
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}

function notFound(detail: string, field: string, message: string): ProblemException {
  return new ProblemException({
    status: 404,
    code: 'not_found',
    title: 'Not Found',
    detail,
    errors: [{ field, message }],
  });
}

/**
 * The instance's hub; `app.ts` makes one per app.
 *
 * @example
 * const hub = createLiveHub({ store, clock, logger, config: config.liveEvents, fairness, idleTimeoutMs, bus, visible, credentialsRejected, recordReadable });
 * const admission = hub.admit(session);
 */
export function createLiveHub(deps: {
  store: SessionStore;
  clock: Clock;
  logger: Logger;
  config: LiveEventsConfig;
  /** The session idle timeout: a stream does not keep its session alive. */
  idleTimeoutMs: number;
  /** Per person: presence changes; and how often a region's presence is read again. */
  fairness: Pick<FairnessLimits, 'presencePerPerson' | 'presenceReadIntervalMs'>;
  bus: RecordChangeBus;
  /**
   * What the session may see (lib/visible-definitions.ts): `recordType/alias` keys and how long
   * to trust them; `fresh` asks the upstream again. Throws CredentialsRejectedError when the
   * credential is refused.
   */
  visible: (
    session: SessionRecord,
    options?: { fresh?: boolean },
  ) => Promise<Pick<Visible, 'keys' | 'ttlMs'>>;
  /** The session's credential was refused upstream: end the session on every instance. */
  credentialsRejected: (session: SessionRecord) => Promise<void>;
  /** Whether the record exists and the session may read it (presence names only those). */
  recordReadable: (session: SessionRecord, record: PresenceRecord) => Promise<boolean>;
}) {
  const { store, clock, logger, config } = deps;
  const db: Kysely<BffDatabase> = store.db;
  const presence = presenceStore(db);
  const instanceId = randomUUID();
  const refreshMs = Math.max(10, Math.floor(config.presenceTtlMs / 4));

  const streams = new Map<string, Stream>();
  /** Streams being opened (admitted, not yet streaming), per session hash and in all. */
  const opening = new Map<string, number>();
  let openingCount = 0;
  /** What this instance last read of each region it serves streams in. */
  const known = new Map<string, Map<string, Entry>>();
  const visible = streamVisibility({
    clock,
    logger,
    heartbeatMs: config.heartbeatMs,
    visible: deps.visible,
    credentialsRejected: deps.credentialsRejected,
  });
  const limits = presenceLimits({
    clock,
    perStream: config.presencePuts,
    perPerson: deps.fairness.presencePerPerson,
  });

  let activation: Promise<void> | undefined;
  let stopListening: (() => Promise<void>) | undefined;
  let timers: NodeJS.Timeout[] = [];

  const warn = (what: string) => (error: unknown) => {
    logger.warn(what, { error: error instanceof Error ? error.message : String(error) });
  };

  const notify = async (payload: string) => {
    if (Buffer.byteLength(payload) > MAX_NOTIFY_BYTES) {
      logger.warn('live event too large to notify; dropped', { bytes: Buffer.byteLength(payload) });
      return;
    }
    await sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`.execute(db);
  };

  const sees = (stream: Stream, entry: Entry): boolean =>
    entry.userId !== stream.session.ownerId &&
    (visible.keysOf(stream.session.idHash)?.has(definitionKey(entry.recordType, entry.alias)) ??
      false);

  const write = (stream: Stream, text: string) => {
    if (stream.closed) return;
    try {
      stream.controller.enqueue(encoder.encode(text));
    } catch {
      cleanup(stream);
      return;
    }
    // A reader that does not keep up: its queue passed the bound. Dropped rather than buffered;
    // the console reconnects and starts again from a snapshot.
    if ((stream.controller.desiredSize ?? 0) < 0) {
      logger.info('live event stream dropped: slow consumer', { stream: stream.id.slice(0, 8) });
      stream.controller.error(new Error('slow consumer'));
      cleanup(stream);
    }
  };

  const streamsIn = (region: string) => [...streams.values()].filter((s) => s.region === region);

  const apply = (region: string, rows: Awaited<ReturnType<typeof presence.openRecords>>) => {
    // A read that finished after the region's last stream left: nobody here to tell, and a
    // picture kept now would be stale when a stream of the region opens again.
    if (openingCount === 0 && streamsIn(region).length === 0) {
      known.delete(region);
      return;
    }
    const next = new Map<string, Entry>();
    for (const row of rows) {
      const entry = toEntry(row);
      if (entry) next.set(entry.connectionId, entry);
    }
    const prev = known.get(region) ?? new Map<string, Entry>();
    known.set(region, next);
    const fanOut = presenceFanOut(
      changesByDefinition(prev, next, sameEntry),
      publicEntry,
      (delta) => event('presence', delta),
    );
    if (fanOut.empty) return;
    for (const stream of streamsIn(region)) {
      const text = fanOut.eventFor(visible.keysOf(stream.session.idHash), stream.session.ownerId);
      if (text) write(stream, text);
    }
  };

  /**
   * Reads the region's open records again: at once, or, when it was read less than the interval
   * ago, once at the end of it for every change that came meanwhile.
   */
  const reread = throttledRuns({
    intervalMs: deps.fairness.presenceReadIntervalMs,
    run: async (region) => {
      try {
        apply(region, await presence.openRecords(region, clock.now()));
      } catch (error) {
        warn('presence read failed')(error);
      }
    },
  });

  const forward = (raw: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    const region = (parsed as { region?: unknown }).region;
    const change = RecordChangedEventSchema.safeParse(parsed);
    if (!change.success || typeof region !== 'string') return;
    const key = definitionKey(change.data.recordType, change.data.alias);
    for (const stream of streamsIn(region)) {
      if (visible.keysOf(stream.session.idHash)?.has(key)) {
        write(stream, event('record-changed', change.data));
      }
    }
  };

  /** Ends a stream from this side: what is queued is still sent, then the response ends. */
  const end = (stream: Stream) => {
    try {
      stream.controller.close();
    } catch {
      // Already errored (dropped): nothing to close.
    }
    cleanup(stream);
  };

  const endSession = (sessionHash: string) => {
    for (const stream of [...streams.values()]) {
      if (stream.session.idHash === sessionHash) end(stream);
    }
  };

  const onNotify = (payload: string) => {
    const kind = payload.slice(0, 2);
    const rest = payload.slice(2);
    if (kind === 'p:') {
      if (known.has(rest)) void reread(rest);
    } else if (kind === 's:') endSession(rest);
    else if (kind === 'c:') forward(rest);
  };

  /** A stream must not outlive its session: signed out elsewhere, expired, or idle. */
  const checkSessions = async () => {
    const now = clock.now();
    const hashes = new Set([...streams.values()].map((s) => s.session.idHash));
    for (const hash of hashes) {
      const record = await store.get(hash);
      if (!record || now >= record.expiresAt || now - record.lastSeenAt >= deps.idleTimeoutMs) {
        endSession(hash);
      }
    }
  };

  /** Sessions with a stream (open or opening) on this instance. */
  const streamingHere = (hash: string) =>
    opening.has(hash) || [...streams.values()].some((s) => s.session.idHash === hash);

  const heartbeat = () => {
    for (const stream of [...streams.values()]) write(stream, ': heartbeat\n\n');
    limits.prune();
    void checkSessions().catch(warn('live session check failed'));
    const sessions = new Map([...streams.values()].map((s) => [s.session.idHash, s.session]));
    void visible.refresh(sessions.values());
  };

  const keepAlive = async () => {
    const now = clock.now();
    await presence.refresh(instanceId, now + config.presenceTtlMs);
    for (const region of await presence.sweep(now)) await notify(`p:${region}`);
  };

  const activate = (): Promise<void> => {
    activation ??= (async () => {
      stopListening = await store.listen(LIVE_CHANNEL, {
        onNotify,
        // Notifications may have been missed while the connection was down: read again.
        onState: (listening) => {
          if (listening) for (const region of known.keys()) void reread(region);
        },
      });
      timers = [
        setInterval(heartbeat, config.heartbeatMs),
        setInterval(() => void keepAlive().catch(warn('presence refresh failed')), refreshMs),
      ];
      for (const timer of timers) timer.unref();
    })();
    return activation;
  };

  const deactivateWhenIdle = () => {
    if (streams.size > 0 || openingCount > 0 || !activation) return;
    for (const timer of timers) clearInterval(timer);
    timers = [];
    const stop = stopListening;
    stopListening = undefined;
    activation = undefined;
    known.clear();
    void stop?.().catch(warn('unlisten failed'));
  };

  function cleanup(stream: Stream) {
    if (stream.closed) return;
    stream.closed = true;
    streams.delete(stream.id);
    limits.forget(stream.id);
    if (streamsIn(stream.region).length === 0) known.delete(stream.region);
    if (!streamingHere(stream.session.idHash)) visible.forget(stream.session.idHash);
    void presence
      .remove(stream.id)
      .then(() => notify(`p:${stream.region}`))
      .catch(warn('presence removal failed'));
    deactivateWhenIdle();
  }

  const unsubscribe = deps.bus.subscribe((change: RecordChange) => {
    const data: RecordChangedEvent & { region: string } = {
      region: change.region,
      recordType: change.recordType as RecordChangedEvent['recordType'],
      alias: change.alias.slice(0, 200),
      recordId: change.recordId.slice(0, 200),
      kind: change.kind,
      actor: { id: change.actor.id.slice(0, 200), name: change.actor.name.slice(0, 200) },
      identity: change.actor.identity,
      source: change.source.slice(0, 200),
      at: new Date(change.at).toISOString(),
    };
    void notify(`c:${JSON.stringify(data)}`).catch(warn('record change notify failed'));
  });

  return {
    instanceId,

    /** Takes a stream slot of the session and of the instance, or throws 429. */
    admit(session: SessionRecord): Admission {
      const ofSession =
        [...streams.values()].filter((s) => s.session.idHash === session.idHash).length +
        (opening.get(session.idHash) ?? 0);
      if (ofSession >= config.maxStreamsPerSession) {
        throw tooMany(
          `At most ${config.maxStreamsPerSession} event streams per session (one per tab)`,
          5,
        );
      }
      if (streams.size + openingCount >= config.maxStreams) {
        throw tooMany('This server holds as many event streams as it may', 30);
      }
      opening.set(session.idHash, (opening.get(session.idHash) ?? 0) + 1);
      openingCount += 1;
      let released = false;
      return {
        session,
        release: () => {
          if (released) return;
          released = true;
          openingCount -= 1;
          const left = (opening.get(session.idHash) ?? 1) - 1;
          if (left > 0) opening.set(session.idHash, left);
          else opening.delete(session.idHash);
          deactivateWhenIdle();
        },
      };
    },

    /** The definitions the session can see (cached a minute); throws as the API does. */
    visibleTo(session: SessionRecord): Promise<Set<string>> {
      return visible.get(session, streamingHere(session.idHash));
    },

    /**
     * Opens an admitted stream: its row, the hello and the presence snapshot first.
     */
    async open(admission: Admission): Promise<ReadableStream<Uint8Array>> {
      const { session } = admission;
      const id = randomUUID();
      const now = clock.now();
      const actor = actorOf(session);
      try {
        await activate();
        await presence.insert(
          {
            connectionId: id,
            sessionHash: session.idHash,
            instanceId,
            region: session.region,
            userId: actor.id,
            userName: actor.name,
            userIdentity: actor.identity,
          },
          now,
          now + config.presenceTtlMs,
        );
        if (!known.has(session.region)) await reread(session.region);
      } catch (error) {
        admission.release();
        throw error;
      }
      let self: Stream | undefined;
      const body = new ReadableStream<Uint8Array>(
        {
          start: (controller) => {
            self = { id, session, region: session.region, controller, closed: false };
            streams.set(id, self);
            admission.release();
            const entries = [...(known.get(session.region)?.values() ?? [])]
              .filter((entry) => self && sees(self, entry))
              .map(publicEntry);
            const snapshot: PresenceEvent = { kind: 'snapshot', entries };
            write(
              self,
              `retry: ${config.retryMs}\n\n` +
                event('hello', { connectionId: id, heartbeatMs: config.heartbeatMs }) +
                event('presence', snapshot),
            );
          },
          cancel: () => {
            if (self) cleanup(self);
          },
        },
        new ByteLengthQueuingStrategy({ highWaterMark: config.maxQueueBytes }),
      );
      return body;
    },

    /**
     * Sets what one of the session's streams shows. In this order, so that a refused flood costs
     * no store query and nothing is counted or asked upstream for a stream that is not the
     * caller's: 429 past the person's rate; 404 when the stream is not the session's (or gone);
     * 429 past the stream's rate; 404 when the definition is not one the session sees, or the
     * record does not exist or is not the session's to read.
     */
    async setPresence(session: SessionRecord, input: PresenceInput): Promise<void> {
      const now = clock.now();
      limits.takePerson(session.ownerId);
      const row = await presence.owned(input.connectionId, session.idHash, now);
      if (!row) {
        throw notFound(
          'No open event stream of this session has this id',
          'connectionId',
          'Not a live stream of this session',
        );
      }
      limits.takeStream(input.connectionId);
      const record = input.record;
      if (record) {
        const keys = await this.visibleTo(session);
        if (!keys.has(definitionKey(record.recordType, record.alias))) {
          throw notFound(
            'No such definition in this workspace',
            'record.alias',
            'Not a definition you can see',
          );
        }
        if (!(await deps.recordReadable(session, record))) {
          throw notFound(
            'No record with this id that you may read',
            'record.recordId',
            'Not a record you can read',
          );
        }
      }
      if (await presence.setRecord(input.connectionId, row, record, now)) {
        await notify(`p:${row.region}`);
      }
    },

    /** Ends the session's streams on every instance (sign-out). */
    async sessionEnded(sessionHash: string): Promise<void> {
      endSession(sessionHash);
      await notify(`s:${sessionHash}`).catch(warn('session end notify failed'));
    },

    /** The person's streams open on this instance (the per-person cap reads it first). */
    streamsOf(ownerId: string): number {
      return [...streams.values()].filter((s) => s.session.ownerId === ownerId).length;
    },

    /** What is held now (tests and the bench check nothing is left behind). */
    stats() {
      return {
        streams: streams.size,
        opening: openingCount,
        listening: stopListening !== undefined,
        timers: timers.length,
        regions: known.size,
        visibleSessions: visible.size(),
        rateBuckets: limits.streamWindows(),
      };
    },

    /** Ends every stream and stops listening (shutdown). */
    async close(): Promise<void> {
      unsubscribe();
      for (const stream of [...streams.values()]) end(stream);
      await activation?.catch(() => undefined);
      deactivateWhenIdle();
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
