// The record panel's line saying who else has the record open ("Ana is editing"), announced
// politely to screen readers as it changes.
import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { describePresence } from '@/lib/use-live-presence.ts';

/**
 * The notice; an empty live region while nobody else has the record open (so the first arrival is
 * announced too).
 *
 * @example
 * <PresenceNotice entries={usePresence(recordType, alias, id)} />
 */
export function PresenceNotice({ entries }: { entries: readonly PresenceEntry[] }) {
  const text = describePresence(entries);
  const editing = entries.some((e) => e.editing);
  return (
    <div aria-live="polite" data-testid="presence-notice">
      {text && (
        <p
          className={
            editing
              ? 'bg-accent text-accent-foreground rounded px-2 py-1 text-xs'
              : 'text-muted-foreground px-2 py-1 text-xs'
          }
        >
          {text}
        </p>
      )}
    </div>
  );
}
