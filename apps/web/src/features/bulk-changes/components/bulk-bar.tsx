import { PenLine } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';

import type { Definition, RecordData } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import { formatCount } from '@/lib/format.ts';

import type { BulkTarget } from '../hooks/use-bulk-run.ts';

// The dialog (editors, scheduler) loads when it is first opened, not with the list.
const BulkChangeDialog = lazy(() =>
  import('./bulk-change-dialog.tsx').then((m) => ({ default: m.BulkChangeDialog })),
);

/**
 * The bar over the table while rows are checked: how many, "Select all N matching this filter",
 * clear, and "Change fields…" which opens the bulk-change dialog.
 */
export function BulkBar({
  definition,
  rows,
  selected,
  allMatching,
  total,
  filter,
  onSelectAllMatching,
  onClear,
  onApplied,
}: {
  definition: Definition;
  /** The loaded rows (the checked ones are taken from here). */
  rows: RecordData[];
  selected: ReadonlySet<string>;
  /** Every record matching the filter is selected, loaded or not. */
  allMatching: boolean;
  total: number | undefined;
  filter: string | undefined;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onApplied: () => void;
}) {
  const [target, setTarget] = useState<BulkTarget | null>(null);
  if (selected.size === 0 && !allMatching) return null;
  const count = allMatching ? (total ?? 0) : selected.size;

  function openDialog() {
    setTarget(
      allMatching
        ? { kind: 'filter', filter, total: total ?? 0 }
        : {
            kind: 'selected',
            records: rows.filter((r) => {
              const id = recordHandle(r, definition);
              return id !== undefined && selected.has(id);
            }),
          },
    );
  }

  return (
    <div
      className="bg-accent/40 flex flex-wrap items-center gap-3 border-b px-6 py-2 text-sm"
      role="region"
      aria-label="Selection"
    >
      <span className="font-medium tabular-nums" data-testid="bulk-selected">
        {allMatching
          ? `All ${formatCount(count)} matching records selected`
          : `${formatCount(count)} selected`}
      </span>
      {!allMatching && total !== undefined && total > selected.size && (
        <Button variant="link" size="xs" className="px-0" onClick={onSelectAllMatching}>
          Select all {formatCount(total)} matching {filter ? 'this filter' : 'records'}
        </Button>
      )}
      <Button variant="ghost" size="xs" onClick={onClear}>
        Clear selection
      </Button>
      <Button size="sm" className="ml-auto" onClick={openDialog}>
        <PenLine aria-hidden="true" /> Change fields…
      </Button>
      {target && (
        <Suspense fallback={null}>
          <BulkChangeDialog
            definition={definition}
            target={target}
            open
            onOpenChange={(open) => !open && setTarget(null)}
            onApplied={onApplied}
          />
        </Suspense>
      )}
    </div>
  );
}
