// Removing an attachment is undoable for a few seconds: the row is hidden at once but the DELETE
// is only sent when the undo window closes. A re-upload cannot restore a file from the server, so
// a delayed delete is the only honest undo.

/** A delete waiting for its undo window to close. */
interface Pending {
  commit: () => Promise<unknown>;
}

const pending = new Map<string, Pending>();
const listeners = new Set<() => void>();
let snapshot: ReadonlySet<string> = new Set();

function emit() {
  snapshot = new Set(pending.keys());
  for (const listener of listeners) listener();
}

/**
 * Hides `key` now; `commit` runs when {@link commitDelete} is called (the toast expired).
 *
 * @example
 * scheduleDelete('SUP-1/att-9', () => removeAttachment(record, 'att-9'));
 */
export function scheduleDelete(key: string, commit: () => Promise<unknown>): void {
  pending.set(key, { commit });
  emit();
}

/**
 * Sends the delayed delete; the key stays hidden until it settles, then `onSettled` runs.
 *
 * @example
 * await commitDelete('SUP-1/att-9');
 */
export async function commitDelete(key: string): Promise<void> {
  const entry = pending.get(key);
  if (!entry) return;
  try {
    await entry.commit();
  } finally {
    pending.delete(key);
    emit();
  }
}

/**
 * Cancels a delayed delete: the item shows again and nothing is sent.
 *
 * @example
 * undoDelete('SUP-1/att-9');
 */
export function undoDelete(key: string): void {
  if (pending.delete(key)) emit();
}

/** For useSyncExternalStore: the keys currently hidden. */
export const pendingDeletes = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  getSnapshot: () => snapshot,
};

// Closing the tab inside the undo window means "go ahead": send what is pending, best effort.
globalThis.addEventListener?.('pagehide', () => {
  for (const key of [...pending.keys()]) void commitDelete(key);
});
