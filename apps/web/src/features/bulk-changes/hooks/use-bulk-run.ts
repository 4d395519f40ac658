import { useRef, useState } from 'react';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';
import { isApiError, MAX_BULK_RUN_RECORDS } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { apiWith } from '@/lib/api.ts';
import { useCapabilities } from '@/lib/capabilities.ts';

import type { BulkItem, BulkPlan } from '../lib/plan.ts';
import type { BulkOutcome } from '../lib/scheduler.ts';
import { fetchAllMatching, readLatest, toFailureInfo, writeRecord } from '../api/bulk-api.ts';
import { storeBulkRun } from '../api/bulk-runs-api.ts';
import { handleBatches } from '../lib/batches.ts';
import { pacedFetch } from '../lib/paced-fetch.ts';
import { planBulk } from '../lib/plan.ts';
import { RequestBudget } from '../lib/request-budget.ts';
import { runInBatches } from '../lib/scheduler.ts';
import { whileWriting } from '../lib/while-writing.ts';

/** What a bulk change applies to: the checked rows, or everything the filter matches. */
export type BulkTarget =
  | { kind: 'selected'; records: RecordData[] }
  | { kind: 'filter'; filter: string | undefined; total: number };

/** Writes in flight at once: the vendor's own CLI's ceiling (ADR 0030). */
export const BULK_CONCURRENCY = 5;
/** The undo's fixed pace (~18 per second under the API's 20/s); the run follows the service. */
export const BULK_MIN_INTERVAL_MS = 55;

/**
 * Whether the run can be undone: `kept` (the BFF holds its previous values: `runId`), or why not
 * (`too_large`: over 5,000 records or 1 MiB of previous values).
 */
export type Undoable = { kind: 'kept'; runId: string } | { kind: 'too_large' };

export type BulkStep =
  | { name: 'edit' }
  | { name: 'loading'; loaded: number; total: number }
  | { name: 'preview'; plan: BulkPlan; changes: RecordData }
  /** `offset`: outcomes kept from an earlier run (a retry only redoes the failed ones). */
  | { name: 'running'; total: number; offset: number; changes: RecordData }
  | { name: 'done'; changes: RecordData };

/**
 * The steps of a bulk change after the form: `preview` reads the records (all that the filter
 * matches, with progress) and plans which will really change; `run` reads them again 100 at a
 * time in one search each and writes them (5 in flight, every request paced by the service's
 * RateLimit headers or the assumed policy, backing off on 429), collecting one outcome per
 * record, and a retry of the failed ones keeps the other outcomes. `stop` aborts what is in flight; `ran` says whether anything was
 * written, so the caller refreshes only then.
 *
 * @example
 * const bulk = useBulkRun(definition, target);
 * await bulk.preview({ Status: 'Closed' });
 */
export function useBulkRun(definition: Definition, target: BulkTarget) {
  const recordType = definition.recordType as RecordType;
  const { etag: serverChecks } = useCapabilities();
  const [step, setStep] = useState<BulkStep>({ name: 'edit' });
  const [problem, setProblem] = useState<string | undefined>();
  const [outcomes, setOutcomes] = useState<BulkOutcome[]>([]);
  const [undoable, setUndoable] = useState<Undoable | undefined>();
  const abort = useRef<AbortController | null>(null);
  const ran = useRef(false);
  /** The kept run this bulk change writes as (its id names the writes in the record history). */
  const runId = useRef<string | undefined>(undefined);

  async function preview(changes: RecordData) {
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

  /**
   * Before the first write, the previous values go to the BFF: a run that cannot be kept for
   * undo because of its size still runs (the preview said so); any other failure stops here.
   */
  async function keepForUndo(ids: BulkItem[], changes: RecordData): Promise<boolean> {
    runId.current = undefined;
    if (ids.length > MAX_BULK_RUN_RECORDS) {
      setUndoable({ kind: 'too_large' });
      return true;
    }
    try {
      const stored = await storeBulkRun(definition, changes, ids);
      runId.current = stored.id;
      setUndoable({ kind: 'kept', runId: stored.id });
      return true;
    } catch (error) {
      if (isApiError(error) && error.status === 413) {
        setUndoable({ kind: 'too_large' });
        return true;
      }
      setProblem(
        `Nothing was changed: the previous values could not be kept for undo (${describeError(error).title}).`,
      );
      return false;
    }
  }

  async function run(ids: BulkItem[], changes: RecordData, previous: BulkOutcome[]) {
    setProblem(undefined);
    // A retry of failed records belongs to the run already kept.
    if (previous.length === 0 && !(await keepForUndo(ids, changes))) return;
    const controller = new AbortController();
    abort.current = controller;
    ran.current = true;
    const retried = new Set(ids.map((i) => i.id));
    const kept = previous.filter((o) => !retried.has(o.id));
    setOutcomes(kept);
    setStep({ name: 'running', total: ids.length, offset: kept.length, changes });
    const source = runId.current ? `bulk-run:${runId.current}` : 'bulk-run';
    // One budget per run: every request of it (re-reads and writes) is paced by the service's
    // RateLimit headers when it sends them, else by the assumed policy (ADR 0030).
    const client = apiWith(pacedFetch(new RequestBudget()));
    await whileWriting(
      definition,
      (items) => setOutcomes((current) => [...current, ...items]),
      (onOutcome) =>
        runInBatches(
          handleBatches(ids, definition.handleField ?? 'id'),
          (batch, signal) => readLatest(client, definition, batch, signal),
          (item, latest, signal) =>
            writeRecord(client, definition, item, latest, changes, {
              serverChecks,
              signal,
              source,
            }),
          {
            concurrency: BULK_CONCURRENCY,
            signal: controller.signal,
            describe: toFailureInfo,
            onOutcome,
          },
        ),
    );
    setStep({ name: 'done', changes });
  }

  return {
    step,
    problem,
    /** Shows a problem with the form (and clears it with `undefined`). */
    setProblem,
    outcomes,
    undoable,
    preview,
    run,
    /** Back from the preview to the form. */
    back: () => setStep({ name: 'edit' }),
    stop: () => abort.current?.abort(),
    ran: () => ran.current,
  };
}
