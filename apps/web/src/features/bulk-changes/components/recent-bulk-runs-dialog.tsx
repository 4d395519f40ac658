import { useQuery } from '@tanstack/react-query';
import { Undo2 } from 'lucide-react';
import { useState } from 'react';

import type { BulkRunSummary, Definition } from '@wsc/api-client';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { formatCount, formatDateTime } from '@/lib/format.ts';

import { bulkRunsQueryOptions } from '../api/bulk-runs-api.ts';
import { BulkUndoPanel } from './bulk-undo-panel.tsx';

/**
 * The user's bulk changes of this record type in the last 7 days (kept by the BFF, so they
 * survive a reload and another browser), each with "Undo…", which turns the dialog into the undo.
 */
export function RecentBulkRunsDialog({
  definition,
  onClose,
  onApplied,
}: {
  definition: Definition;
  onClose: () => void;
  /** After an undo wrote something: the caller refreshes what it shows. */
  onApplied: () => void;
}) {
  const [undoing, setUndoing] = useState<string | null>(null);

  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        {undoing ? (
          <BulkUndoPanel
            definition={definition}
            runId={undoing}
            onClose={onClose}
            onWritten={onApplied}
          />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Recent bulk runs</DialogTitle>
              <DialogDescription>
                Your bulk changes of {definition.name} in the last 7 days. Undo puts back the values
                the records had before; a record changed since is left as it is.
              </DialogDescription>
            </DialogHeader>
            <RunList definition={definition} onUndo={setUndoing} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function RunList({
  definition,
  onUndo,
}: {
  definition: Definition;
  onUndo: (runId: string) => void;
}) {
  const runs = useQuery(bulkRunsQueryOptions(definition.recordType, definition.alias));
  if (runs.isPending) {
    return (
      <p role="status" className="text-muted-foreground text-sm">
        Loading…
      </p>
    );
  }
  if (runs.isError) return <ErrorPanel error={runs.error} onRetry={() => void runs.refetch()} />;
  if (runs.data.length === 0) {
    return <p className="text-muted-foreground text-sm">No bulk changes in the last 7 days.</p>;
  }
  return (
    <ul
      aria-label="Recent bulk runs"
      className="max-h-96 divide-y overflow-y-auto rounded-md border"
    >
      {runs.data.map((run) => (
        <li key={run.id} className="flex items-start gap-3 px-3 py-2 text-sm">
          <div className="grid flex-1 gap-0.5">
            <span>{describeChanges(run)}</span>
            <span className="text-muted-foreground text-xs">
              {formatCount(run.count)} {run.count === 1 ? 'record' : 'records'} ·{' '}
              {formatDateTime(run.createdAt)}
              {run.undo && ` · ${describeUndo(run.undo)}`}
            </span>
          </div>
          <Button
            variant="outline"
            size="sm"
            aria-label={`Undo ${describeChanges(run)} of ${formatDateTime(run.createdAt)}`}
            onClick={() => onUndo(run.id)}
          >
            <Undo2 aria-hidden="true" /> Undo…
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** `Status → Closed, Severity → (empty)`. */
function describeChanges(run: BulkRunSummary): string {
  return Object.entries(run.changes)
    .map(([name, value]) => `${name} → ${value || '(empty)'}`)
    .join(', ');
}

function describeUndo(undo: NonNullable<BulkRunSummary['undo']>): string {
  const parts = [`${formatCount(undo.restored)} restored`];
  if (undo.conflicts > 0) parts.push(`${formatCount(undo.conflicts)} conflicts`);
  if (undo.failed > 0) parts.push(`${formatCount(undo.failed)} failed`);
  return `Undone ${formatDateTime(undo.at)}: ${parts.join(', ')}`;
}
