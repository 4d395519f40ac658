import { useVirtualizer } from '@tanstack/react-virtual';
import { Loader2 } from 'lucide-react';
import { memo, useEffect, useRef } from 'react';

import type { Definition } from '@wsc/api-client';
import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { PresenceMarker } from '@/components/live/presence-marker.tsx';
import { cn } from '@/lib/utils.ts';

import type { TriageRow } from '../api/triage-queries.ts';
import type { TriageFields } from '../lib/triage-fields.ts';

/** Fixed item height: the virtualizer measures nothing, so long queues stay cheap. */
const ITEM_HEIGHT = 60;

/**
 * The queue on the left: virtualized (only visible items are in the DOM), the current record
 * highlighted and kept in view as j/k move through it. Clicking an item opens it.
 */
export function TriageList({
  definition,
  rows,
  currentId,
  fields,
  onPick,
  loadingMore,
  presence,
}: {
  definition: Definition;
  rows: TriageRow[];
  currentId: string | undefined;
  fields: TriageFields;
  onPick: (id: string) => void;
  loadingMore: boolean;
  /** Who else has which record open: a marker on their items. */
  presence: ReadonlyMap<string, PresenceEntry[]>;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ITEM_HEIGHT,
    overscan: 8,
    initialRect: { width: 340, height: 800 },
  });
  const index = rows.findIndex((r) => r.id === currentId);
  useEffect(() => {
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [index, virtualizer]);
  const items = virtualizer.getVirtualItems();

  return (
    <div
      ref={scrollRef}
      className="w-72 shrink-0 overflow-y-auto border-r lg:w-96"
      data-testid="triage-list"
    >
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
  );
}

const QueueItem = memo(function QueueItem({
  row,
  top,
  current,
  titleField,
  fields,
  onPick,
  others,
}: {
  row: TriageRow;
  top: number;
  current: boolean;
  titleField: string | undefined;
  fields: TriageFields;
  onPick: (id: string) => void;
  others: PresenceEntry[] | undefined;
}) {
  const status = fields.status ? row[fields.status.name] : undefined;
  const severity = fields.severity ? row[fields.severity.name] : undefined;
  return (
    <li className="absolute inset-x-0" style={{ top, height: ITEM_HEIGHT }}>
      <button
        type="button"
        aria-current={current ? 'true' : undefined}
        onClick={() => onPick(row.id)}
        className={cn(
          'focus-visible:ring-ring/50 flex h-full w-full flex-col justify-center gap-1 border-b px-4 text-left outline-none focus-visible:ring-[3px] focus-visible:ring-inset',
          current ? 'bg-accent text-accent-foreground' : 'hover:bg-muted/60',
        )}
      >
        <span className="flex items-center gap-2 text-xs">
          <span className="text-muted-foreground font-mono">{row.id}</span>
          <PresenceMarker entries={others} />
          {status && <span className="rounded border px-1 py-px">{status}</span>}
          {severity && <span className="text-muted-foreground">{severity}</span>}
        </span>
        <span className="truncate text-sm">{(titleField && row[titleField]) || row.id}</span>
      </button>
    </li>
  );
});
