// Comment drafts survive moving around the console (and a reload) within this tab: sessionStorage,
// with an in-memory copy for when storage is unavailable (private modes, quotas).

const PREFIX = 'wsc:comment-draft:';
const memory = new Map<string, string>();

/**
 * The storage key of one record's draft.
 *
 * @example
 * draftKey({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }); // 'apps/support-tickets/SUP-1'
 */
export function draftKey(record: { recordType: string; alias: string; id: string }): string {
  return `${record.recordType}/${record.alias}/${record.id}`;
}

/**
 * Reads a saved draft ('' when none).
 *
 * @example
 * readDraft('apps/support-tickets/SUP-1');
 */
export function readDraft(key: string): string {
  try {
    const stored = sessionStorage.getItem(PREFIX + key);
    if (stored !== null) return stored;
  } catch {
    // Storage blocked: fall back to memory.
  }
  return memory.get(key) ?? '';
}

/**
 * Saves a draft; an empty one is removed.
 *
 * @example
 * saveDraft('apps/support-tickets/SUP-1', 'Called the customer');
 */
export function saveDraft(key: string, text: string): void {
  if (text === '') memory.delete(key);
  else memory.set(key, text);
  try {
    if (text === '') sessionStorage.removeItem(PREFIX + key);
    else sessionStorage.setItem(PREFIX + key, text);
  } catch {
    // Storage full or blocked: the in-memory copy still covers navigation within the tab.
  }
}

/**
 * Forgets every comment draft of this tab (storage and memory). Drafts are keyed by record, not
 * by person, so they must not outlive the session they were typed in: called at sign-out and when
 * a 401 says the session ended, before anyone else can sign in in this tab.
 *
 * @example
 * clearDrafts();
 */
export function clearDrafts(): void {
  memory.clear();
  try {
    // Backwards: removing an item shifts the indexes of those after it.
    for (let i = sessionStorage.length - 1; i >= 0; i--) {
      const key = sessionStorage.key(i);
      if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
    }
  } catch {
    // Storage blocked: there is nothing in it to clear.
  }
}
