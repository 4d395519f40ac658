import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';

import type { BulkRun, BulkUndoResult, Definition } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { bff } from '@/lib/bff.ts';

import type { BulkOutcome } from '../lib/scheduler.ts';
import type { CurrentRecord, UndoPlan } from '../lib/undo-plan.ts';
import { toFailureInfo } from '../api/bulk-api.ts';
import { bulkRunsQueryOptions, readCurrent, restoreRecord } from '../api/bulk-runs-api.ts';
import { runBulk } from '../lib/scheduler.ts';
import { conflictReason, planUndo } from '../lib/undo-plan.ts';
import { whileWriting } from '../lib/while-writing.ts';
import { BULK_CONCURRENCY, BULK_MIN_INTERVAL_MS } from './use-bulk-run.ts';

export type UndoStep =
  | { name: 'idle' }
  /** Reading the run from the BFF, then every record of it as stored now. */
  | { name: 'checking'; loaded: number; total: number }
  | { name: 'preview'; run: BulkRun; plan: UndoPlan }
  | { name: 'running'; total: number; offset: number }
  | { name: 'done'; result: BulkUndoResult };

/** Failed restores that were conflicts: a 412 (ETag) or the hosted stale check. */
const isConflict = (o: BulkOutcome) => !o.ok && o.status === 412;

/**
 * Undoing a bulk run: `check` reads the run (the BFF keeps it 7 days) and every record of it as
 * stored now (4 in flight, paced), and plans which records go back, which conflict (changed by
 * someone else since the run: left alone) and which already are back; `run` writes the previous
 * values with the same scheduler as the run did, each write conditional on the record not having
 * moved since the check; the result is recorded on the run in the BFF.
 *
 * @example
 * const undo = useBulkUndo(definition);
 * await undo.check(runId);
 */
export function useBulkUndo(definition: Definition) {
  const queryClient = useQueryClient();
  // The check needs only these: stable while the definition's list refetches.
  const { recordType, alias } = definition;
  const [step, setStep] = useState<UndoStep>({ name: 'idle' });
  const [problem, setProblem] = useState<string | undefined>();
  const [outcomes, setOutcomes] = useState<BulkOutcome[]>([]);
  const abort = useRef<AbortController | null>(null);
  const ran = useRef(false);

  const check = useCallback(
    async (runId: string) => {
      setProblem(undefined);
      setOutcomes([]);
      const controller = new AbortController();
      abort.current = controller;
      setStep({ name: 'checking', loaded: 0, total: 0 });
      try {
        const run = await bff.bulkRuns.get(runId, { signal: controller.signal });
        const current = new Map<string, CurrentRecord | { error: string }>();
        setStep({ name: 'checking', loaded: 0, total: run.records.length });
        await runBulk(
          run.records,
          async (record, signal) => {
            current.set(record.id, await readCurrent({ recordType, alias }, record.id, signal));
          },
          {
            concurrency: BULK_CONCURRENCY,
            minIntervalMs: BULK_MIN_INTERVAL_MS,
            signal: controller.signal,
            describe: toFailureInfo,
            onOutcome: () =>
              setStep({ name: 'checking', loaded: current.size, total: run.records.length }),
          },
        );
        if (controller.signal.aborted) {
          // Superseded by a newer check (a re-mount), or cancelled: the newer one speaks.
          if (abort.current === controller) setStep({ name: 'idle' });
          return;
        }
        setStep({ name: 'preview', run, plan: planUndo(run.changes, run.records, current) });
      } catch (error) {
        if (abort.current !== controller || controller.signal.aborted) return;
        setStep({ name: 'idle' });
        setProblem(describeError(error).title);
      }
    },
    [recordType, alias],
  );
  const stop = useCallback(() => abort.current?.abort(), []);

  async function run(runId: string, plan: UndoPlan) {
    const controller = new AbortController();
    abort.current = controller;
    ran.current = true;
    // Conflicts and unreadable records are results already: listed with the writes' outcomes.
    const known: BulkOutcome[] = [
      ...plan.conflicts.map((c) => ({
        id: c.id,
        ok: false as const,
        attempts: 0,
        status: 412,
        reason: conflictReason(c),
      })),
      ...plan.unreadable.map((u) => ({
        id: u.id,
        ok: false as const,
        attempts: 0,
        reason: u.reason,
      })),
    ];
    setOutcomes(known);
    setStep({ name: 'running', total: plan.toRestore.length, offset: known.length });
    const written = await whileWriting(
      definition,
      (items) => setOutcomes((current) => [...current, ...items]),
      (onOutcome) =>
        runBulk(
          plan.toRestore,
          (item, signal) => restoreRecord(definition, item, signal, `undo:${runId}`),
          {
            concurrency: BULK_CONCURRENCY,
            minIntervalMs: BULK_MIN_INTERVAL_MS,
            signal: controller.signal,
            describe: (error) => {
              const info = toFailureInfo(error);
              return info.status === 412
                ? { ...info, reason: 'Changed by someone else since the check: left as it is' }
                : info;
            },
            onOutcome,
          },
        ),
    );
    const all = [...known, ...written];
    const result: BulkUndoResult = {
      restored: all.filter((o) => o.ok).length,
      conflicts: all.filter(isConflict).length,
      skipped: plan.unchanged,
      failed: all.filter((o) => !o.ok && !isConflict(o)).length,
    };
    setStep({ name: 'done', result });
    try {
      await bff.bulkRuns.recordUndo(runId, result);
    } catch (error) {
      setProblem(`The undo ran, but could not be noted on the run: ${describeError(error).title}`);
    }
    void queryClient.invalidateQueries({
      queryKey: bulkRunsQueryOptions(definition.recordType, definition.alias).queryKey,
    });
  }

  return {
    step,
    problem,
    outcomes,
    check,
    run,
    stop,
    /** Whether anything was written, so the caller refreshes only then. */
    ran: () => ran.current,
  };
}
