import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { saveRecord, StaleRecordError } from '@/lib/record-writes.ts';

import type { triageQueueQueryOptions } from '../api/triage-queries.ts';
import { replaceInPages, triageRecordQueryOptions } from '../api/triage-queries.ts';
import {
  changesAnything,
  describeChange,
  describeConflict,
  valuesBefore,
} from '../lib/triage-fields.ts';
import { useSerializedWrites } from './use-serialized-writes.ts';
import { useUndoStack } from './use-undo-stack.ts';

interface UndoEntry {
  id: string;
  before: RecordData;
  after: RecordData;
}

export interface TriageChangesInput {
  definition: Definition;
  /** The queue's cache key: a saved record is replaced in its pages, in place. */
  queueKey: ReturnType<typeof triageQueueQueryOptions>['queryKey'];
  /** The current record, which `change` writes to. */
  id: string | undefined;
  /** Reports each write's outcome to the user. */
  onStatus: (message: string) => void;
}

/**
 * The writes of triage: `change` saves fields of the current record (one write at a time, each
 * read fresh first, so its If-Match is current) and remembers what they were, `undo` writes the
 * last change's old values back. `busy` while a write runs; `undoCount` for the Undo button.
 *
 * @example
 * const { change, undo } = useTriageChanges({ definition, queueKey, id, onStatus: setStatus });
 * await change({ Status: 'Open' });
 */
export function useTriageChanges({ definition, queueKey, id, onStatus }: TriageChangesInput) {
  const recordType = definition.recordType as RecordType;
  const alias = definition.alias;
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const enqueue = useSerializedWrites();
  const undoStack = useUndoStack<UndoEntry>();
  const { push } = undoStack;

  const write = useCallback(
    async (targetId: string, changes: RecordData, options: { undoable: boolean }) => {
      const recordOptions = triageRecordQueryOptions(recordType, alias, targetId);
      setBusy(true);
      try {
        const current = await queryClient.ensureQueryData(recordOptions);
        if (!changesAnything(current.record, changes)) {
          onStatus(`${targetId}: nothing to change.`);
          return true;
        }
        const before = valuesBefore(current.record, changes);
        const saved = await saveRecord({
          recordType,
          alias,
          id: targetId,
          definition,
          base: current.record,
          changes,
          etag: current.etag,
          source: 'triage',
        });
        queryClient.setQueryData(recordOptions.queryKey, saved);
        queryClient.setQueryData(queueKey, (data) =>
          replaceInPages(data, targetId, saved.record, definition),
        );
        if (options.undoable) push({ id: targetId, before, after: changes });
        onStatus(
          options.undoable
            ? `${targetId}: ${describeChange(changes)}. Press u to undo.`
            : `${targetId}: undone (${describeChange(changes)}).`,
        );
        return true;
      } catch (error) {
        if (isApiError(error) && error.status === 412) {
          // Someone else saved first: show their version and what moved; the user decides again.
          await queryClient.invalidateQueries({ queryKey: recordOptions.queryKey });
          const what = error instanceof StaleRecordError ? `: ${describeConflict(error)}` : '';
          onStatus(
            `${targetId} was changed by someone else${what}. Reloaded it; nothing was saved.`,
          );
        } else {
          onStatus(`${targetId}: not saved. ${describeError(error).title}`);
        }
        return false;
      } finally {
        setBusy(false);
      }
    },
    [queryClient, recordType, alias, queueKey, definition, push, onStatus],
  );

  const change = useCallback(
    (changes: RecordData) => {
      if (!id) return Promise.resolve(false);
      return enqueue(() => write(id, changes, { undoable: true }));
    },
    [id, enqueue, write],
  );

  const { pop } = undoStack;
  const undo = useCallback(() => {
    const last = pop();
    if (!last) {
      onStatus('Nothing to undo.');
      return;
    }
    void enqueue(async () => {
      const ok = await write(last.id, last.before, { undoable: false });
      // A failed undo stays undoable, so the user can try again after a reload.
      if (!ok) push(last);
    });
  }, [enqueue, write, pop, push, onStatus]);

  return { busy, change, undo, undoCount: undoStack.count };
}
