import { ArrowRight } from 'lucide-react';

import type { HistoryEntry } from '@wsc/api-client/bff-history';

import { PersonName } from '@/components/person-name.tsx';
import { formatDateTime } from '@/lib/format.ts';

import { groupChanges, relativeTime, sourceLabel, valueText } from '../lib/describe.ts';

function Value({ value }: { value: unknown }) {
  const text = valueText(value);
  if (text === undefined) return <span className="text-muted-foreground italic">empty</span>;
  return <span className="break-words whitespace-pre-wrap">{text}</span>;
}

/** A time as "5 minutes ago", the exact time on hover. */
export function When({ at, now }: { at: string; now: number }) {
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {relativeTime(at, now)}
    </time>
  );
}

/**
 * Changes, newest first, one item per change: who, when, where in the console, and each field's
 * value before and after. `showRecord` adds the record's handle (the administrators' log).
 */
export function HistoryEntries({
  entries,
  now,
  showRecord = false,
}: {
  entries: HistoryEntry[];
  now: number;
  showRecord?: boolean;
}) {
  return (
    <ol className="grid gap-3" aria-label="Changes">
      {groupChanges(entries).map(({ changeId, first, entries: fields }) => (
        <li key={changeId} className="rounded-md border px-3 py-2 text-sm">
          <div className="text-muted-foreground flex flex-wrap items-baseline gap-x-2">
            <PersonName
              name={first.actor.name}
              identity={first.identity}
              className="text-foreground font-medium"
              data-testid="history-actor"
            />
            <When at={first.at} now={now} />
            {/* Chosen by the browser that made the change: a hint, not evidence (ADR 0026). */}
            <span
              aria-label="Source (as the browser reported it)"
              title="Where the change was made, as the browser reported it; not verified"
              className="bg-muted rounded px-1.5 text-xs"
            >
              {sourceLabel(first.source)}
            </span>
            {showRecord && (
              <span className="font-mono text-xs">
                {first.alias}/{first.recordId}
              </span>
            )}
          </div>
          <ul className="mt-1 grid gap-1">
            {fields.map((entry) =>
              entry.notKept ? (
                <li key={entry.id} className="text-muted-foreground italic" data-testid="not-kept">
                  Not kept: this person&apos;s history for the day was full. The change was made;
                  its values were not recorded.
                </li>
              ) : (
                <li key={entry.id} className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-3">
                  <span className="text-muted-foreground">{entry.field}</span>
                  <span className="flex flex-wrap items-baseline gap-x-1.5">
                    <Value value={entry.before} />
                    <ArrowRight className="size-3 shrink-0 self-center" aria-label="to" />
                    <Value value={entry.after} />
                  </span>
                </li>
              ),
            )}
          </ul>
        </li>
      ))}
    </ol>
  );
}
