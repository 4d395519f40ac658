import { useVirtualizer } from '@tanstack/react-virtual';
import { Loader2 } from 'lucide-react';
import { memo, useEffect, useImperativeHandle, useLayoutEffect, useRef } from 'react';

import type { Definition } from '@wsc/api-client';
import type { PresenceEntry } from '@wsc/api-client/bff-events';

import type { PlaceAnchor } from '@/lib/keep-place.ts';
import { LiveQueueBanner } from '@/components/live-queue-banner.tsx';
import { PresenceMarker } from '@/components/live/presence-marker.tsx';
import { PendingMarker } from '@/components/pending-marker.tsx';
import { keepPlace, placeToKeep } from '@/lib/keep-place.ts';
import { usePendingIds } from '@/lib/use-optimistic.ts';
import { cn } from '@/lib/utils.ts';

import type { TriageRow } from '../api/triage-queries.ts';
import type { TriageFields } from '../lib/triage-fields.ts';

/** Fixed item height: the virtualizer measures nothing, so long queues stay cheap. */
const ITEM_HEIGHT = 60;

/** What a departed item says (title and screen readers). */
const DEPARTED_NOTE =
  'Changed elsewhere and no longer in this queue; it goes when the queue reloads';

/**
 * The queue on the left: virtualized (only visible items are in the DOM), the current record
 * highlighted and kept in view as j/k move through it. Clicking an item opens it. Live (ADR
 * 0025): a "N new" banner over it merges records created by others, holding the focused, pointed
 * at or first visible item where it is; items gone from the queue are dimmed until a reload.
 */
export function TriageList({
  definition,
  rows,
  currentId,
  fields,
  onPick,
  loadingMore,
  fresh,
  onMerge,
  departed,
  keepPlaceRef,
  presence,
}: {
  definition: Definition;
  rows: TriageRow[];
  currentId: string | undefined;
  fields: TriageFields;
  onPick: (id: string) => void;
  loadingMore: boolean;
  /** New records waiting behind the banner. */
  fresh: number;
  onMerge: () => void;
  departed: ReadonlySet<string>;
  /** Filled with a function to call just before the rows change under the user. */
  keepPlaceRef: React.Ref<() => void>;
  /** Who else has which record open: a marker on their items. */
  presence: ReadonlyMap<string, PresenceEntry[]>;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const anchor = useRef<PlaceAnchor | null>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  useImperativeHandle(keepPlaceRef, () => () => {
    const ids = rowsRef.current.map((r) => r.id);
    anchor.current = placeToKeep(scrollRef.current, ids, ITEM_HEIGHT);
  });
  // Before paint (and before the current item is scrolled into view): hold the anchor still.
  useLayoutEffect(() => {
    const held = anchor.current;
    anchor.current = null;
    if (held)
      keepPlace(
        scrollRef.current,
        held,
        rows.map((r) => r.id),
        ITEM_HEIGHT,
      );
  }, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ITEM_HEIGHT,
    overscan: 8,
    initialRect: { width: 340, height: 800 },
  });
  const index = rows.findIndex((r) => r.id === currentId);
  const indexRef = useRef(index);
  indexRef.current = index;
  const found = index >= 0;
  // Scrolled into view when the current record changes (j/k, a pick), not when rows merged in
  // above it shift its index: the virtualizer would scroll back to its last known offset, undoing
  // keepPlace.
  useEffect(() => {
    if (found) virtualizer.scrollToIndex(indexRef.current, { align: 'auto' });
  }, [currentId, found, virtualizer]);
  const items = virtualizer.getVirtualItems();
  // Records with a write not yet confirmed: marked on their items (ADR 0028).
  const pending = usePendingIds(definition.recordType, definition.alias);

  return (
    <div className="relative flex w-72 shrink-0 flex-col border-r lg:w-96">
      <LiveQueueBanner count={fresh} noun="record" onMerge={onMerge} top={8} />
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto" data-testid="triage-list">
        <ul
          aria-label={`${definition.name} queue`}
          className="relative"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <QueueItem
                key={row.id}
                row={row}
                top={item.start}
                current={row.id === currentId}
                departed={departed.has(row.id)}
                pending={pending.has(row.id)}
                titleField={definition.titleField}
                fields={fields}
                onPick={onPick}
                others={presence.get(row.id)}
              />
            );
          })}
        </ul>
        {loadingMore && (
          <p
            className="text-muted-foreground flex items-center gap-2 px-4 py-2 text-xs"
            role="status"
          >
            <Loader2 className="size-3.5 animate-spin" aria-hidden="true" /> Loading more…
          </p>
        )}
      </div>
    </div>
  );
}

const QueueItem = memo(function QueueItem({
  row,
  top,
  current,
  departed,
  pending,
  titleField,
  fields,
  onPick,
  others,
}: {
  row: TriageRow;
  top: number;
  current: boolean;
  departed: boolean;
  /** A write of the record is not confirmed yet: what the item shows may still roll back. */
  pending: boolean;
  titleField: string | undefined;
  fields: TriageFields;
  onPick: (id: string) => void;
  others: PresenceEntry[] | undefined;
}) {
  const status = fields.status ? row[fields.status.name] : undefined;
  const severity = fields.severity ? row[fields.severity.name] : undefined;
  return (
    <li
      className="absolute inset-x-0"
      style={{ top, height: ITEM_HEIGHT }}
      data-row-id={row.id}
      data-departed={departed || undefined}
      data-pending={pending || undefined}
      title={departed ? DEPARTED_NOTE : undefined}
    >
      <button
        type="button"
        aria-current={current ? 'true' : undefined}
        onClick={() => onPick(row.id)}
        className={cn(
          'focus-visible:ring-ring/50 flex h-full w-full flex-col justify-center gap-1 border-b px-4 text-left outline-none focus-visible:ring-[3px] focus-visible:ring-inset',
          current ? 'bg-accent text-accent-foreground' : 'hover:bg-muted/60',
          departed && 'text-muted-foreground italic',
        )}
      >
        {departed && <span className="sr-only">{DEPARTED_NOTE}: </span>}
        <span className="flex items-center gap-2 text-xs">
          <span className="text-muted-foreground font-mono">{row.id}</span>
          <PresenceMarker entries={others} />
          {status && <span className="rounded border px-1 py-px">{status}</span>}
          {severity && <span className="text-muted-foreground">{severity}</span>}
          <PendingMarker pending={pending} className="ml-auto" />
        </span>
        <span className="truncate text-sm">{(titleField && row[titleField]) || row.id}</span>
      </button>
    </li>
  );
});
