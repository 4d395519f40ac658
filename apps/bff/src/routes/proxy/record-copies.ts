// The records the BFF has just proxied to a session, kept a short while so that a write needs no
// read of its own for the history's values before an update (ADR 0029; the hosted conflict check
// always reads: its PUT carries the whole record). Per session (a copy never serves another session), bounded in entries and bytes per
// session and in bytes for the whole process, least recently used first out, with a TTL.
import type { Clock } from '../../lib/clock.ts';
import type { RecordCopiesLimits } from '../../lib/config.ts';

/** A copy read at most this long ago gives an update's values before (ADR 0029). */
export const COPY_FRESH_MS = 10_000;

/** Which record: its type, its definition's alias and its handle. */
export type RecordKey = { recordType: string; alias: string; handle: string };

/** One kept record. */
export type RecordCopy = {
  record: Record<string, unknown>;
  /** The reply's ETag, when it had one. */
  etag: string | undefined;
  /** When the reply it came from arrived (the clock's ms). */
  readAt: number;
  /** Its size as JSON text, as counted against the bounds. */
  bytes: number;
};

type Entry = RecordCopy & { expiresAt: number };
type SessionCopies = { entries: Map<string, Entry>; bytes: number };

/** Expired copies are swept from every session at most this often (reads drop their own). */
const SWEEP_EVERY_MS = 5_000;

const keyOf = (key: RecordKey) => `${key.recordType}\u0000${key.alias}\u0000${key.handle}`;

/**
 * The copies of every session of this process. Maps keep insertion order, which is used as the
 * recency order: a touched entry (or session) is moved to the end, the first is evicted first.
 *
 * @example
 * const copies = new RecordCopies(config.recordCopies, clock);
 * copies.put(session.idHash, { recordType: 'apps', alias: 'support', handle: 'SUP-1' }, record, etag);
 * const before = copies.beforeValues(session.idHash, key, ifMatch)?.record;
 */
export class RecordCopies {
  private readonly sessions = new Map<string, SessionCopies>();
  private bytes = 0;
  private sweptAt = 0;

  constructor(
    private readonly limits: RecordCopiesLimits,
    private readonly clock: Clock,
  ) {}

  /** The copy, if any and not expired (it becomes the most recently used). */
  get(session: string, key: RecordKey): RecordCopy | undefined {
    const copies = this.sessions.get(session);
    const name = keyOf(key);
    const entry = copies?.entries.get(name);
    if (!copies || !entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.remove(session, copies, name);
      return undefined;
    }
    copies.entries.delete(name);
    copies.entries.set(name, entry);
    this.touch(session, copies);
    return entry;
  }

  /**
   * The copy that gives an update's values before: exact when its ETag equals the request's
   * `If-Match` (whatever its age), else one read at most {@link COPY_FRESH_MS} ago.
   */
  beforeValues(session: string, key: RecordKey, ifMatch: string | null): RecordCopy | undefined {
    const copy = this.get(session, key);
    if (!copy) return undefined;
    if (ifMatch !== null && copy.etag !== undefined && copy.etag === ifMatch) return copy;
    return this.clock.now() - copy.readAt <= COPY_FRESH_MS ? copy : undefined;
  }

  /**
   * Keep (or replace) a copy read now. `bytes` is its size as JSON text when the caller knows it
   * (the reply's length); else it is measured. One too large for the bounds is not kept, and
   * an older copy of the record is dropped then.
   */
  put(
    session: string,
    key: RecordKey,
    record: Record<string, unknown>,
    etag: string | undefined,
    bytes = Buffer.byteLength(JSON.stringify(record)),
  ): void {
    this.sweep();
    const copies = this.sessions.get(session) ?? { entries: new Map<string, Entry>(), bytes: 0 };
    const name = keyOf(key);
    this.remove(session, copies, name);
    if (bytes > this.limits.bytesPerSession || bytes > this.limits.bytesTotal) return;
    const readAt = this.clock.now();
    const expiresAt = readAt + (etag === undefined ? COPY_FRESH_MS : this.limits.ttlMs);
    copies.entries.set(name, { record, etag, readAt, bytes, expiresAt });
    copies.bytes += bytes;
    this.bytes += bytes;
    this.touch(session, copies);
    this.evict(session, copies);
  }

  /** Forget the copy of a record (a write that was refused, or one the BFF does not follow). */
  drop(session: string, key: RecordKey): void {
    const copies = this.sessions.get(session);
    if (copies) this.remove(session, copies, keyOf(key));
  }

  /** What is held: for the bounds' tests and the ADR's figures. */
  size(): { sessions: number; entries: number; bytes: number } {
    let entries = 0;
    for (const copies of this.sessions.values()) entries += copies.entries.size;
    return { sessions: this.sessions.size, entries, bytes: this.bytes };
  }

  private touch(session: string, copies: SessionCopies) {
    this.sessions.delete(session);
    this.sessions.set(session, copies);
  }

  private remove(session: string, copies: SessionCopies, name: string) {
    const entry = copies.entries.get(name);
    if (!entry) return;
    copies.entries.delete(name);
    copies.bytes -= entry.bytes;
    this.bytes -= entry.bytes;
    if (copies.entries.size === 0) this.sessions.delete(session);
  }

  /** The session's own bounds first (its oldest go), then the process's (the idlest session's). */
  private evict(session: string, copies: SessionCopies) {
    const { entriesPerSession, bytesPerSession, bytesTotal } = this.limits;
    while (copies.entries.size > entriesPerSession || copies.bytes > bytesPerSession) {
      const oldest = copies.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(session, copies, oldest);
    }
    while (this.bytes > bytesTotal) {
      const [idlest, theirs] = this.sessions.entries().next().value ?? [];
      const oldest = theirs?.entries.keys().next().value;
      if (idlest === undefined || theirs === undefined || oldest === undefined) break;
      this.remove(idlest, theirs, oldest);
    }
  }

  private sweep() {
    const now = this.clock.now();
    if (now - this.sweptAt < SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [session, copies] of [...this.sessions]) {
      for (const [name, entry] of [...copies.entries]) {
        if (entry.expiresAt <= now) this.remove(session, copies, name);
      }
    }
  }
}
