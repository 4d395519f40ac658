import { useCallback } from 'react';

import type { Definition, RecordData, RecordReply, RecordType } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import type { WriteOutcome } from '@/lib/optimistic-records.ts';
import { changesAnything, StaleRecordError } from '@/lib/record-writes.ts';
import { useOptimisticStore, usePendingIds } from '@/lib/use-optimistic.ts';

import {
  describeChange,
  describeConflict,
  describeRefusal,
  valuesBefore,
} from '../lib/triage-fields.ts';
import { useUndoStack } from './use-undo-stack.ts';

interface UndoEntry {
  id: string;
  before: RecordData;
  after: RecordData;
  /** The write that made the change: withdrawn instead of undone while it waits for the wire. */
  write: number;
}

export interface TriageChangesInput {
  definition: Definition;
  /** The current record, which `change` writes to. */
  id: string | undefined;
  /** Reports each write's outcome to the user (`error`: a refusal, shown whole). */
  onStatus: (message: string, tone?: 'error') => void;
}

/**
 * The writes of triage, optimistic (ADR 0028): `change` shows the new values of the current
 * record at once, marked pending, and sends them after that record's earlier writes; `undo` does
 * the same with the last change's old values (or withdraws it, when it has not gone out yet). A
 * refusal rolls back that record alone and says why, naming it, wherever the user is by then.
 * `busy` while any write of the definition is pending; `undoCount` for the Undo button.
 *
 * @example
 * const { change, undo } = useTriageChanges({ definition, id, onStatus: setStatus });
 * void change({ Status: 'Open' }); // resolves true once stored, false when refused
 */
export function useTriageChanges({ definition, id, onStatus }: TriageChangesInput) {
  const recordType = definition.recordType as RecordType;
  const alias = definition.alias;
  const store = useOptimisticStore();
  const busy = usePendingIds(recordType, alias).size > 0;
  const undoStack = useUndoStack<UndoEntry>();
  const { push, pop, remove, has } = undoStack;

  /** Paints and queues a write; `undefined` when it would change nothing. */
  const write = useCallback(
    (targetId: string, changes: RecordData) => {
      const record = { recordType, alias, id: targetId };
      const shown = store.shownRecord(record, definition)?.record;
      if (shown && !changesAnything(shown, changes)) return undefined;
      const before = shown ? valuesBefore(shown, changes) : undefined;
      const queued = store.changeRecord({ record, definition, changes, source: 'triage' });
      return { ...queued, before };
    },
    [store, recordType, alias, definition],
  );

  const change = useCallback(
    async (changes: RecordData) => {
      if (!id) return false;
      const queued = write(id, changes);
      if (!queued) {
        onStatus(`${id}: nothing to change.`);
        return true;
      }
      if (queued.before) push({ id, before: queued.before, after: changes, write: queued.id });
      onStatus(`${id}: ${describeChange(changes)} (saving…)`);
      const outcome = await queued.settled;
      const mine = (entry: UndoEntry) => entry.write === queued.id;
      if (outcome.status === 'refused') remove(mine);
      // Undone meanwhile (u while it was on the wire): the undo's own outcome speaks.
      if (outcome.status === 'confirmed' && !has(mine)) return true;
      report(onStatus, id, changes, outcome, 'change');
      return outcome.status === 'confirmed';
    },
    [id, write, push, remove, has, onStatus],
  );

  const undo = useCallback(() => {
    const last = pop();
    if (!last) {
      onStatus('Nothing to undo.');
      return;
    }
    if (store.cancel(last.write)) {
      onStatus(`${last.id}: undone (${describeChange(last.before)}) before it was sent.`);
      return;
    }
    const queued = write(last.id, last.before);
    if (!queued) {
      onStatus(`${last.id}: nothing to undo.`);
      return;
    }
    onStatus(`${last.id}: undoing (${describeChange(last.before)})…`);
    void queued.settled.then((outcome) => {
      // A refused undo stays undoable, so the user can try again.
      if (outcome.status === 'refused') push(last);
      report(onStatus, last.id, last.before, outcome, 'undo');
    });
  }, [store, write, pop, push, onStatus]);

  return { busy, change, undo, undoCount: undoStack.count };
}

/** Says on the status line how a write ended, naming its record (the user may be elsewhere). */
function report(
  onStatus: (message: string, tone?: 'error') => void,
  id: string,
  changes: RecordData,
  outcome: WriteOutcome<RecordReply>,
  kind: 'change' | 'undo',
): void {
  if (outcome.status === 'cancelled') return;
  if (outcome.status === 'confirmed') {
    onStatus(
      kind === 'change'
        ? `${id}: ${describeChange(changes)}. Press u to undo.`
        : `${id}: undone (${describeChange(changes)}).`,
    );
    return;
  }
  const { error } = outcome;
  if (isApiError(error) && error.status === 412) {
    // Someone else saved first: their version is shown now, with what moved; the user decides again.
    const what = error instanceof StaleRecordError ? `: ${describeConflict(error)}` : '';
    onStatus(`${id} was changed by someone else${what}. Reloaded it; nothing was saved.`, 'error');
    return;
  }
  onStatus(describeRefusal(id, changes, error), 'error');
}
