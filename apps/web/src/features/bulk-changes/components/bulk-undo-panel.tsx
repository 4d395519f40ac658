import { useEffect } from 'react';

import type { Definition } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import {
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { formatCount } from '@/lib/format.ts';

import type { UndoPlan } from '../lib/undo-plan.ts';
import { useBulkUndo } from '../hooks/use-bulk-undo.ts';
import { conflictReason } from '../lib/undo-plan.ts';
import { BulkLoading, BulkResults } from './bulk-steps.tsx';

const records = (n: number) => `${formatCount(n)} ${n === 1 ? 'record' : 'records'}`;

/**
 * "Undo this run" inside a dialog: checks every record of the run as stored now (progress),
 * previews what goes back and what conflicts, restores with the same progress and per-record
 * results as a run, and notes the outcome on the run. Rendered inside a DialogContent.
 */
export function BulkUndoPanel({
  definition,
  runId,
  onClose,
  onWritten,
}: {
  definition: Definition;
  runId: string;
  /** Closes the dialog (after stopping whatever is in flight). */
  onClose: () => void;
  /** Something was written: the caller refreshes what it shows. */
  onWritten: () => void;
}) {
  const undo = useBulkUndo(definition);
  const { step, problem, outcomes, check, stop } = undo;
  // Checks on open; closing (or leaving the page) stops the check or the undo in flight.
  useEffect(() => {
    void check(runId);
    return stop;
  }, [check, stop, runId]);

  function close() {
    undo.stop();
    if (undo.ran()) onWritten();
    onClose();
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>Undo bulk change</DialogTitle>
        <DialogDescription>
          Put back the values these records had before the run. A record someone changed since is
          left as it is.
        </DialogDescription>
      </DialogHeader>

      {step.name === 'checking' && (
        <BulkLoading loaded={step.loaded} total={step.total} label="Checking records" />
      )}
      {step.name === 'preview' && <UndoPreview plan={step.plan} />}
      {(step.name === 'running' || step.name === 'done') && (
        <BulkResults
          running={step.name === 'running' ? step : undefined}
          outcomes={outcomes}
          done="restored"
          notDone="not restored"
          label="Undo progress"
        />
      )}
      {problem && (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      )}

      <DialogFooter>
        {step.name === 'checking' && (
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
        )}
        {step.name === 'idle' && problem && (
          <Button variant="outline" onClick={() => void undo.check(runId)}>
            Try again
          </Button>
        )}
        {step.name === 'preview' && (
          <>
            <Button variant="ghost" onClick={close}>
              Cancel
            </Button>
            <Button
              disabled={step.plan.toRestore.length === 0}
              onClick={() => void undo.run(runId, step.plan)}
            >
              Restore {records(step.plan.toRestore.length)}
            </Button>
          </>
        )}
        {step.name === 'running' && (
          <Button variant="outline" onClick={undo.stop}>
            Stop
          </Button>
        )}
        {(step.name === 'done' || (step.name === 'idle' && problem)) && (
          <Button onClick={close}>Done</Button>
        )}
      </DialogFooter>
    </>
  );
}

/** What the undo will do: how many go back, which conflict and why, which are back already. */
function UndoPreview({ plan }: { plan: UndoPlan }) {
  const parts = [
    plan.conflicts.length > 0 &&
      `${records(plan.conflicts.length)} changed by someone else since the run will stay as ${plan.conflicts.length === 1 ? 'it is' : 'they are'}`,
    plan.unchanged > 0 &&
      `${records(plan.unchanged)} already ${plan.unchanged === 1 ? 'has' : 'have'} the previous values`,
    plan.unreadable.length > 0 && `${records(plan.unreadable.length)} could not be read`,
  ].filter(Boolean);
  return (
    <div className="grid gap-2">
      <p className="text-sm" role="status" data-testid="undo-preview">
        <strong className="tabular-nums">{formatCount(plan.toRestore.length)}</strong>{' '}
        {plan.toRestore.length === 1 ? 'record goes' : 'records go'} back to the previous values
        {parts.length > 0 ? `; ${parts.join('; ')}` : ''}.
      </p>
      {plan.conflicts.length > 0 && (
        <ul
          aria-label="Conflicts"
          className="max-h-40 divide-y overflow-y-auto rounded-md border text-sm"
        >
          {plan.conflicts.map((conflict) => (
            <li key={conflict.id} className="flex items-start gap-2 px-3 py-1.5">
              <span className="font-mono text-xs leading-5">{conflict.id}</span>
              <span className="text-muted-foreground">{conflictReason(conflict)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
