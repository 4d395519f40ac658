import { CheckCircle2, Loader2, Plus, RotateCcw, Trash2, XCircle } from 'lucide-react';
import { useId, useMemo, useRef, useState } from 'react';

import type { Definition, Field, RecordData, RecordType } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { FieldEditor } from '@/components/field-editor.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { useCapabilities } from '@/lib/capabilities.ts';
import { formatCount } from '@/lib/format.ts';

import type { BulkItem, BulkPlan } from '../lib/plan.ts';
import type { BulkOutcome } from '../lib/scheduler.ts';
import { bulkUpdate, fetchAllMatching, toFailureInfo } from '../api/bulk-api.ts';
import { planBulk } from '../lib/plan.ts';
import { runBulk } from '../lib/scheduler.ts';

/** What a bulk change applies to: the checked rows, or everything the filter matches. */
export type BulkTarget =
  | { kind: 'selected'; records: RecordData[] }
  | { kind: 'filter'; filter: string | undefined; total: number };

/** Requests in flight at once, and the pace: ~18 per second stays under the API's 20/s. */
export const BULK_CONCURRENCY = 4;
export const BULK_MIN_INTERVAL_MS = 55;

type Step =
  | { name: 'edit' }
  | { name: 'loading'; loaded: number; total: number }
  | { name: 'preview'; plan: BulkPlan; changes: RecordData }
  /** `offset`: outcomes kept from an earlier run (a retry only redoes the failed ones). */
  | { name: 'running'; total: number; offset: number; changes: RecordData }
  | { name: 'done'; changes: RecordData };

interface Row {
  key: number;
  field: string;
  value: string;
}

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
  const recordType = definition.recordType as RecordType;
  const { etag: serverChecks } = useCapabilities();
  const editable = useMemo(
    () => definition.fields.filter((f) => !f.readOnly && f.name !== definition.handleField),
    [definition],
  );
  const first = editable.find((f) => f.type === 'PICKLIST') ?? (editable[0] as Field | undefined);
  const [rows, setRows] = useState<Row[]>(() =>
    first ? [{ key: 0, field: first.name, value: '' }] : [],
  );
  const [step, setStep] = useState<Step>({ name: 'edit' });
  const [problem, setProblem] = useState<string | undefined>();
  const [outcomes, setOutcomes] = useState<BulkOutcome[]>([]);
  const abort = useRef<AbortController | null>(null);
  const ran = useRef(false);
  const prefix = useId();
  const count = target.kind === 'selected' ? target.records.length : target.total;
  const byName = new Map(editable.map((f) => [f.name, f]));

  function changesFromRows(): RecordData | undefined {
    const changes: RecordData = {};
    for (const row of rows) {
      const field = byName.get(row.field);
      if (!field) continue;
      if (field.required && row.value.trim() === '') {
        setProblem(`${field.name} is required: choose a value.`);
        return undefined;
      }
      changes[field.name] = row.value;
    }
    if (Object.keys(changes).length === 0) {
      setProblem('Choose at least one field to set.');
      return undefined;
    }
    return changes;
  }

  async function preview() {
    const changes = changesFromRows();
    if (!changes) return;
    setProblem(undefined);
    abort.current = new AbortController();
    try {
      const records =
        target.kind === 'selected'
          ? target.records
          : await (async () => {
              setStep({ name: 'loading', loaded: 0, total: target.total });
              return fetchAllMatching(recordType, definition.alias, target.filter, {
                signal: abort.current?.signal,
                onProgress: (loaded, total) => setStep({ name: 'loading', loaded, total }),
              });
            })();
      setStep({ name: 'preview', plan: planBulk(records, changes, definition), changes });
    } catch (error) {
      setStep({ name: 'edit' });
      setProblem(describeError(error).title);
    }
  }

  async function run(ids: BulkItem[], changes: RecordData, previous: BulkOutcome[]) {
    const controller = new AbortController();
    abort.current = controller;
    ran.current = true;
    const retried = new Set(ids.map((i) => i.id));
    const kept = previous.filter((o) => !retried.has(o.id));
    setOutcomes(kept);
    setStep({ name: 'running', total: ids.length, offset: kept.length, changes });
    await runBulk(
      ids,
      (item, signal) => bulkUpdate(definition, item, changes, serverChecks, signal),
      {
        concurrency: BULK_CONCURRENCY,
        minIntervalMs: BULK_MIN_INTERVAL_MS,
        signal: controller.signal,
        describe: toFailureInfo,
        onOutcome: (outcome) => setOutcomes((current) => [...current, outcome]),
      },
    );
    setStep({ name: 'done', changes });
  }

  function close(next: boolean) {
    if (next) return;
    abort.current?.abort();
    onOpenChange(false);
    if (ran.current) onApplied();
  }

  const failed = outcomes.filter((o) => !o.ok);
  const succeeded = outcomes.length - failed.length;

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
          <form
            id={`${prefix}-form`}
            className="grid gap-3"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void preview();
            }}
          >
            {rows.map((row, index) => {
              const field = byName.get(row.field);
              const fieldId = `${prefix}-field-${row.key}`;
              const valueId = `${prefix}-value-${row.key}`;
              return (
                <div key={row.key} className="grid grid-cols-[12rem_1fr_auto] items-end gap-2">
                  <div className="grid gap-1.5">
                    <Label htmlFor={fieldId}>Field {index + 1}</Label>
                    <NativeSelect
                      id={fieldId}
                      value={row.field}
                      onChange={(event) =>
                        setRows((current) =>
                          current.map((r) =>
                            r.key === row.key ? { ...r, field: event.target.value, value: '' } : r,
                          ),
                        )
                      }
                    >
                      {editable.map((f) => (
                        <option
                          key={f.name}
                          value={f.name}
                          disabled={f.name !== row.field && rows.some((r) => r.field === f.name)}
                        >
                          {f.name}
                        </option>
                      ))}
                    </NativeSelect>
                  </div>
                  <div className="grid gap-1.5">
                    <Label htmlFor={valueId} id={`${valueId}-label`}>
                      New {field?.name ?? 'value'}
                    </Label>
                    {field && (
                      <FieldEditor
                        field={field}
                        id={valueId}
                        labelledBy={`${valueId}-label`}
                        value={row.value}
                        onChange={(value) =>
                          setRows((current) =>
                            current.map((r) => (r.key === row.key ? { ...r, value } : r)),
                          )
                        }
                      />
                    )}
                  </div>
                  <Button
                    type="button"
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Remove ${row.field}`}
                    disabled={rows.length === 1}
                    onClick={() => setRows((current) => current.filter((r) => r.key !== row.key))}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                </div>
              );
            })}
            <div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={rows.length >= editable.length}
                onClick={() => {
                  const free = editable.find((f) => !rows.some((r) => r.field === f.name));
                  if (free) {
                    setRows((current) => [
                      ...current,
                      {
                        key: Math.max(0, ...current.map((r) => r.key)) + 1,
                        field: free.name,
                        value: '',
                      },
                    ]);
                  }
                }}
              >
                <Plus aria-hidden="true" /> Add field
              </Button>
            </div>
            <p className="text-muted-foreground text-xs">
              An empty value clears an optional field. Fields not listed stay as they are.
            </p>
            {problem && (
              <p role="alert" className="text-destructive text-sm">
                {problem}
              </p>
            )}
          </form>
        )}

        {step.name === 'loading' && (
          <div className="grid gap-2" aria-busy="true">
            <p role="status" className="flex items-center gap-2 text-sm">
              <Loader2 className="size-4 animate-spin" aria-hidden="true" />
              Finding matching records: {formatCount(step.loaded)} of {formatCount(step.total)}
            </p>
            <Progress value={step.loaded} max={Math.max(step.total, 1)} label="Loading records" />
          </div>
        )}

        {step.name === 'preview' && (
          <div className="grid gap-2" data-testid="bulk-preview">
            <p className="text-sm" role="status">
              <strong className="tabular-nums">{formatCount(step.plan.toChange.length)}</strong>{' '}
              {step.plan.toChange.length === 1 ? 'record' : 'records'} will change
              {step.plan.unchanged > 0 && (
                <>
                  ; <span className="tabular-nums">{formatCount(step.plan.unchanged)}</span> already{' '}
                  {step.plan.unchanged === 1 ? 'has' : 'have'} these values
                </>
              )}
              {step.plan.unaddressable > 0 && (
                <>
                  ; <span className="tabular-nums">{formatCount(step.plan.unaddressable)}</span>{' '}
                  {step.plan.unaddressable === 1 ? 'has' : 'have'} no handle and cannot be changed
                  from here
                </>
              )}
              .
            </p>
            <ul className="text-muted-foreground text-sm">
              {Object.entries(step.changes).map(([name, value]) => (
                <li key={name}>
                  {name} → <span className="text-foreground">{value || '(empty)'}</span>
                </li>
              ))}
            </ul>
          </div>
        )}

        {(step.name === 'running' || step.name === 'done') && (
          <div className="grid gap-3">
            {step.name === 'running' && (
              <>
                <p role="status" className="text-sm tabular-nums">
                  {formatCount(outcomes.length - step.offset)} of {formatCount(step.total)} done…
                </p>
                <Progress
                  value={outcomes.length - step.offset}
                  max={Math.max(step.total, 1)}
                  label="Bulk change progress"
                />
              </>
            )}
            {step.name === 'done' && (
              <p role="status" className="text-sm" data-testid="bulk-summary">
                {formatCount(succeeded)} changed
                {failed.length > 0 ? `, ${formatCount(failed.length)} failed` : ''}.
              </p>
            )}
            <ResultList outcomes={outcomes} />
          </div>
        )}

        <DialogFooter>
          {step.name === 'edit' && (
            <>
              <Button variant="ghost" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" form={`${prefix}-form`}>
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
              <Button variant="ghost" onClick={() => setStep({ name: 'edit' })}>
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
            <Button variant="outline" onClick={() => abort.current?.abort()}>
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
              <Button onClick={() => close(false)}>Done</Button>
            </>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function Progress({ value, max, label }: { value: number; max: number; label: string }) {
  const percent = Math.min(100, Math.round((value / max) * 100));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className="bg-muted h-2 w-full overflow-hidden rounded-full"
    >
      <div className="bg-primary h-full transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}

function ResultList({ outcomes }: { outcomes: BulkOutcome[] }) {
  // Failures first: they are what needs attention.
  const sorted = useMemo(
    () => [...outcomes.filter((o) => !o.ok), ...outcomes.filter((o) => o.ok)],
    [outcomes],
  );
  if (sorted.length === 0) return null;
  return (
    <ul
      aria-label="Results per record"
      className="max-h-64 divide-y overflow-y-auto rounded-md border text-sm"
    >
      {sorted.map((outcome) => (
        <li key={outcome.id} className="flex items-start gap-2 px-3 py-1.5">
          {outcome.ok ? (
            <CheckCircle2 aria-hidden="true" className="text-success mt-0.5 size-4 shrink-0" />
          ) : (
            <XCircle aria-hidden="true" className="text-destructive mt-0.5 size-4 shrink-0" />
          )}
          <span className="font-mono text-xs leading-5">{outcome.id}</span>
          <span className={outcome.ok ? 'text-muted-foreground' : 'text-destructive'}>
            {outcome.ok ? 'Changed' : `Failed: ${outcome.reason}`}
          </span>
        </li>
      ))}
    </ul>
  );
}
