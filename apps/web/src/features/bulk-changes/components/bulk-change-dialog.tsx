import { RotateCcw, Undo2 } from 'lucide-react';
import { useId, useMemo, useState } from 'react';

import type { Definition } from '@wsc/api-client';
import { MAX_BULK_RUN_RECORDS } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { formatCount } from '@/lib/format.ts';

import type { BulkTarget } from '../hooks/use-bulk-run.ts';
import type { BulkRow } from '../lib/bulk-rows.ts';
import { useBulkRun } from '../hooks/use-bulk-run.ts';
import { changesFromRows, firstRows } from '../lib/bulk-rows.ts';
import { BulkFieldsForm } from './bulk-fields-form.tsx';
import { BulkLoading, BulkPreview, BulkResults } from './bulk-steps.tsx';
import { BulkUndoPanel } from './bulk-undo-panel.tsx';

/**
 * Set fields on many records: choose fields and values (typed editors), preview how many records
 * will actually change, run with a progress bar (4 in flight, paced, backing off on 429), and get
 * a per-record result with "Retry failed".
 */
export function BulkChangeDialog({
  definition,
  target,
  open,
  onOpenChange,
  onApplied,
}: {
  definition: Definition;
  target: BulkTarget;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After a run: the caller refreshes what it shows. */
  onApplied: () => void;
}) {
  const editable = useMemo(
    () => definition.fields.filter((f) => !f.readOnly && f.name !== definition.handleField),
    [definition],
  );
  const [rows, setRows] = useState<BulkRow[]>(() => firstRows(editable));
  const { step, problem, setProblem, outcomes, undoable, preview, run, back, stop, ran } =
    useBulkRun(definition, target);
  /** After a run: the dialog turns into its undo. */
  const [undoing, setUndoing] = useState(false);
  const formId = `${useId()}-form`;
  const count = target.kind === 'selected' ? target.records.length : target.total;

  function submit() {
    const result = changesFromRows(rows, editable);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    void preview(result.changes);
  }

  function close(next: boolean) {
    if (next) return;
    stop();
    onOpenChange(false);
    if (ran()) onApplied();
  }

  const failed = outcomes.filter((o) => !o.ok);

  if (undoing && undoable?.kind === 'kept') {
    return (
      <Dialog open={open} onOpenChange={close}>
        <DialogContent className="sm:max-w-2xl">
          <BulkUndoPanel
            definition={definition}
            runId={undoable.runId}
            onClose={() => close(false)}
            onWritten={() => undefined}
          />
        </DialogContent>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            Change {formatCount(count)} {count === 1 ? 'record' : 'records'}
          </DialogTitle>
          <DialogDescription>
            {target.kind === 'selected'
              ? 'Set fields on the selected records.'
              : target.filter
                ? 'Set fields on every record matching the current filter.'
                : `Set fields on every ${definition.name} record.`}
          </DialogDescription>
        </DialogHeader>

        {step.name === 'edit' && (
          <BulkFieldsForm
            id={formId}
            editable={editable}
            rows={rows}
            onRowsChange={setRows}
            problem={problem}
            onSubmit={submit}
          />
        )}
        {step.name === 'loading' && <BulkLoading loaded={step.loaded} total={step.total} />}
        {step.name === 'preview' && (
          <>
            <BulkPreview plan={step.plan} changes={step.changes} />
            <p className="text-muted-foreground text-xs">
              {step.plan.toChange.length > MAX_BULK_RUN_RECORDS
                ? `Over ${formatCount(MAX_BULK_RUN_RECORDS)} records: this run cannot be undone afterwards.`
                : 'The previous values are kept for 7 days, so this run can be undone (also from "Recent bulk runs").'}
            </p>
            {problem && (
              <p role="alert" className="text-destructive text-sm">
                {problem}
              </p>
            )}
          </>
        )}
        {(step.name === 'running' || step.name === 'done') && (
          <BulkResults running={step.name === 'running' ? step : undefined} outcomes={outcomes} />
        )}
        {step.name === 'done' && undoable?.kind === 'too_large' && (
          <p className="text-muted-foreground text-xs">
            This run was too large to keep its previous values: it cannot be undone.
          </p>
        )}

        <DialogFooter>
          {step.name === 'edit' && (
            <>
              <Button variant="ghost" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" form={formId}>
                Preview changes
              </Button>
            </>
          )}
          {step.name === 'loading' && (
            <Button variant="ghost" onClick={() => close(false)}>
              Cancel
            </Button>
          )}
          {step.name === 'preview' && (
            <>
              <Button variant="ghost" onClick={back}>
                Back
              </Button>
              <Button
                disabled={step.plan.toChange.length === 0}
                onClick={() => void run(step.plan.toChange, step.changes, [])}
              >
                Apply to {formatCount(step.plan.toChange.length)}{' '}
                {step.plan.toChange.length === 1 ? 'record' : 'records'}
              </Button>
            </>
          )}
          {step.name === 'running' && (
            <Button variant="outline" onClick={stop}>
              Stop
            </Button>
          )}
          {step.name === 'done' && (
            <>
              {failed.length > 0 && (
                <Button
                  variant="outline"
                  onClick={() =>
                    void run(
                      failed.map((o) => ({ id: o.id })),
                      step.changes,
                      outcomes,
                    )
                  }
                >
                  <RotateCcw aria-hidden="true" /> Retry failed ({formatCount(failed.length)})
                </Button>
              )}
              {undoable?.kind === 'kept' && (
                <Button variant="outline" onClick={() => setUndoing(true)}>
                  <Undo2 aria-hidden="true" /> Undo this run
                </Button>
              )}
              <Button onClick={() => close(false)}>Done</Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
