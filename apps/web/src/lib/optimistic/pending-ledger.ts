// The core of the console's optimistic writes (ADR 0028), free of React and of TanStack Query:
// per key (one record, one record's watchers), the value last confirmed by the server and the
// writes not yet confirmed, in the order the user made them. The screen shows the confirmed value
// with every pending write layered on it; the wire sends one write of a key at a time.

/** How one optimistic write ended. */
export type WriteOutcome<T> =
  | { status: 'confirmed'; value: T }
  | { status: 'refused'; error: unknown }
  | { status: 'cancelled' };

/** One write: how it looks on screen at once, and how it is sent. */
export interface PendingWrite<T, M> {
  /** The change as the screen shows it, layered over the value before it. */
  apply: (value: T) => T;
  /**
   * Sends the change, once every earlier write of the same key has settled. `base` is what it is
   * based on: the confirmed value (or `seen`). Answers the value now stored; throws when refused.
   */
  send: (base: T | undefined) => Promise<T>;
  /** The stored value a refusal reveals (a 412's `latest`); `undefined` leaves it unchanged. */
  rebase?: ((error: unknown, confirmed: T | undefined) => T | undefined) | undefined;
  /**
   * What the user saw when acting (the editor's copy of the record): sent as the base instead of
   * the confirmed value, as long as no write of the key settled between this one's start and its
   * turn on the wire (after that, the confirmed value is newer than anything the user saw).
   */
  seen?: T | undefined;
  /** What the screen says about the write while it is pending (its fields, a label). */
  meta: M;
}

interface Patch<T, M> {
  id: number;
  write: PendingWrite<T, M>;
  started: boolean;
  /** The key's generation when the write was made (see `seen`). */
  generation: number;
  resolve: (outcome: WriteOutcome<T>) => void;
}

interface Entry<T, M> {
  confirmed: T | undefined;
  patches: Patch<T, M>[];
  /** The last write's turn on the wire: the next one starts when it settled. */
  tail: Promise<void>;
  /** Counts settled writes. */
  generation: number;
  /** The pending writes' metas, a new array on every change (a stable UI snapshot). */
  metas: readonly M[];
}

/** Paints a key's value: the confirmed one with the pending writes over it. */
export type Render<T> = (key: string, view: T | undefined) => void;

const NONE: readonly never[] = Object.freeze([]);

/**
 * Pending writes per key over the value last confirmed. A write shows at once (`render` is called
 * with the new view before {@link PendingLedger.enqueue} returns); it goes on the wire when the
 * key's earlier writes settled, based on the value they left. A refused write is dropped and the
 * view is painted again from the confirmed value with the later writes re-applied: only that key
 * moves, and only by that write. A key with nothing pending is forgotten (the cache holds it).
 *
 * @example
 * const ledger = new PendingLedger<Ticket, string>((key, view) => paint(key, view));
 * const { settled } = ledger.enqueue('SUP-1', () => cached('SUP-1'), {
 *   apply: (t) => ({ ...t, Status: 'Open' }),
 *   send: (base) => api.save(base, { Status: 'Open' }),
 *   meta: 'Status',
 * });
 * const outcome = await settled; // { status: 'confirmed', value } | { status: 'refused', error }
 */
export class PendingLedger<T, M> {
  readonly #entries = new Map<string, Entry<T, M>>();
  readonly #listeners = new Set<() => void>();
  readonly #render: Render<T>;
  #nextId = 1;
  #version = 0;

  constructor(render: Render<T>) {
    this.#render = render;
  }

  /**
   * Adds a write to `key`, paints it, and queues it behind the key's earlier writes. `initial`
   * gives the confirmed value when the key has nothing pending (else the ledger's own is kept).
   */
  enqueue(
    key: string,
    initial: () => T | undefined,
    write: PendingWrite<T, M>,
  ): { id: number; settled: Promise<WriteOutcome<T>> } {
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = {
        confirmed: initial(),
        patches: [],
        tail: Promise.resolve(),
        generation: 0,
        metas: NONE,
      };
      this.#entries.set(key, entry);
    }
    const id = this.#nextId++;
    let resolve: (outcome: WriteOutcome<T>) => void = () => undefined;
    const settled = new Promise<WriteOutcome<T>>((done) => (resolve = done));
    const patch: Patch<T, M> = { id, write, started: false, generation: entry.generation, resolve };
    entry.patches.push(patch);
    const current = entry;
    entry.tail = entry.tail.then(() => this.#run(key, current, patch));
    this.#changed(key, entry);
    return { id, settled };
  }

  /**
   * Withdraws a write that has not gone out yet (an undo of a queued key press): it leaves the
   * screen and is never sent. False when it is on the wire already, or settled.
   */
  cancel(id: number): boolean {
    for (const [key, entry] of this.#entries) {
      const patch = entry.patches.find((p) => p.id === id);
      if (!patch) continue;
      if (patch.started) return false;
      this.#drop(key, entry, patch);
      patch.resolve({ status: 'cancelled' });
      return true;
    }
    return false;
  }

  /** A read of the stored value landed while writes are pending: the base of the next ones. */
  confirm(key: string, value: T): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.confirmed = value;
    this.#changed(key, entry);
  }

  /** Paints `key` again (what it was painted into was replaced underneath). */
  repaint(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) this.#render(key, this.#view(entry));
  }

  /** The confirmed value with the pending writes over it; `undefined` when nothing is pending. */
  view(key: string): T | undefined {
    const entry = this.#entries.get(key);
    return entry ? this.#view(entry) : undefined;
  }

  /** Whether `key` has writes pending. */
  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The keys with writes pending. */
  keys(): string[] {
    return [...this.#entries.keys()];
  }

  /** The pending writes' metas of `key`, in order: the same array until the key changes. */
  pending(key: string): readonly M[] {
    return this.#entries.get(key)?.metas ?? NONE;
  }

  /** Changes on every write made, withdrawn or settled (a snapshot version for the UI). */
  get version(): number {
    return this.#version;
  }

  /** Calls `listener` after every change; answers the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #run(key: string, entry: Entry<T, M>, patch: Patch<T, M>): Promise<void> {
    if (!entry.patches.includes(patch)) return; // withdrawn while it waited
    patch.started = true;
    const { write } = patch;
    const base =
      write.seen !== undefined && patch.generation === entry.generation
        ? write.seen
        : entry.confirmed;
    let outcome: WriteOutcome<T>;
    try {
      const value = await write.send(base);
      entry.confirmed = value;
      outcome = { status: 'confirmed', value };
    } catch (error) {
      entry.confirmed = write.rebase?.(error, entry.confirmed) ?? entry.confirmed;
      outcome = { status: 'refused', error };
    }
    entry.generation += 1;
    this.#drop(key, entry, patch);
    patch.resolve(outcome);
  }

  #drop(key: string, entry: Entry<T, M>, patch: Patch<T, M>): void {
    entry.patches = entry.patches.filter((p) => p !== patch);
    // Forgotten before listeners hear of it, so that what they read agrees with the paint.
    if (entry.patches.length === 0) this.#entries.delete(key);
    this.#changed(key, entry);
  }

  #view(entry: Entry<T, M>): T | undefined {
    let value = entry.confirmed;
    for (const patch of entry.patches) if (value !== undefined) value = patch.write.apply(value);
    return value;
  }

  #changed(key: string, entry: Entry<T, M>): void {
    entry.metas = entry.patches.length > 0 ? entry.patches.map((p) => p.write.meta) : NONE;
    this.#version += 1;
    this.#render(key, this.#view(entry));
    for (const listener of this.#listeners) listener();
  }
}
