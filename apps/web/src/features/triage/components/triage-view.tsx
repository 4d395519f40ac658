import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, ChevronUp, Keyboard, Loader2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useCapabilities } from '@/lib/capabilities.ts';
import { formatCount } from '@/lib/format.ts';
import { usePageActions } from '@/lib/page-actions.ts';
import { saveRecord } from '@/lib/record-writes.ts';

import type { TriageAction } from '../lib/triage-keys.ts';
import type { TriageEditorHandle } from './triage-record.tsx';
import {
  queueRows,
  replaceInPages,
  triageQueueQueryOptions,
  triageRecordQueryOptions,
} from '../api/triage-queries.ts';
import { useTriageKeys } from '../hooks/use-triage-keys.ts';
import {
  changesAnything,
  describeChange,
  triageFields,
  valuesBefore,
} from '../lib/triage-fields.ts';
import { AssigneeDialog } from './assignee-dialog.tsx';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';
import { TriageList } from './triage-list.tsx';
import { TriageRecord } from './triage-record.tsx';

export interface TriageViewProps {
  definition: Definition;
  filter?: string | undefined;
  sort?: string | undefined;
  /** The record shown on the right (from the URL); the first of the queue when absent. */
  currentId?: string | undefined;
  /** Moves to another record (replaces the URL's `id`). */
  onCurrentChange: (id: string) => void;
  /** Header slot for the page's own controls (exit link). */
  actions?: React.ReactNode;
}

interface UndoEntry {
  id: string;
  before: RecordData;
  after: RecordData;
}

/** How many records ahead (and behind) are fetched before the user gets there. */
const PREFETCH_AHEAD = 2;

/**
 * Keyboard-first triage over a filtered queue: the list on the left, the current record on the
 * right. j/k move (neighbours are prefetched so the next record shows at once), number keys set
 * status and severity, `a` assigns, `e` edits, `c` comments, `n` saves and moves on, `u` undoes
 * the last change (written back with If-Match), `?` lists every shortcut.
 */
export function TriageView({
  definition,
  filter,
  sort,
  currentId,
  onCurrentChange,
  actions,
}: TriageViewProps) {
  const recordType = definition.recordType as RecordType;
  const alias = definition.alias;
  const queryClient = useQueryClient();
  const fields = useMemo(() => triageFields(definition), [definition]);
  const { sort: serverSort } = useCapabilities();
  const queueOptions = triageQueueQueryOptions({ recordType, alias, filter, sort, serverSort });
  const queue = useInfiniteQuery(queueOptions);
  const { rows, skipped } = useMemo(
    () =>
      queueRows(
        queue.data?.pages.flatMap((page) => page.items.map((item) => item.data)) ?? [],
        definition,
      ),
    [queue.data, definition],
  );
  const serverTotal = queue.data?.pages[0]?.total;
  // Without a total from the server (hosted), the queue is counted as far as it is loaded.
  const total =
    serverTotal === undefined ? (queue.data ? rows.length : undefined) : serverTotal - skipped;
  const index = currentId === undefined ? -1 : rows.findIndex((r) => r.id === currentId);
  const id = currentId ?? rows[0]?.id;
  const row = index >= 0 ? rows[index] : undefined;

  const record = useQuery({
    ...triageRecordQueryOptions(recordType, alias, id ?? ''),
    enabled: id !== undefined,
    // The queue row is the same record without its ETag: show it while the record loads.
    placeholderData: row ? { record: row, etag: undefined } : undefined,
  });

  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [assignOpen, setAssignOpen] = useState(false);
  const undoStack = useRef<UndoEntry[]>([]);
  const [undoCount, setUndoCount] = useState(0);
  const writes = useRef<Promise<unknown>>(Promise.resolve());
  const editorRef = useRef<TriageEditorHandle>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const paneRef = useRef<HTMLDivElement>(null);

  // Without an id in the URL, the queue's first record is the current one.
  useEffect(() => {
    if (currentId === undefined && rows[0]) onCurrentChange(rows[0].id);
  }, [currentId, rows, onCurrentChange]);

  // Prefetch the neighbours, so `j` / `k` show a record that is already in the cache.
  useEffect(() => {
    const start = Math.max(index, 0);
    for (let step = -1; step <= PREFETCH_AHEAD; step++) {
      const neighbour = rows[start + step];
      if (step === 0 || !neighbour) continue;
      void queryClient.prefetchQuery(triageRecordQueryOptions(recordType, alias, neighbour.id));
    }
  }, [index, rows, queryClient, recordType, alias]);

  // Load the next page of the queue before the user reaches its end.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = queue;
  useEffect(() => {
    if (index >= rows.length - 5 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [index, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const move = useCallback(
    (delta: number) => {
      if (rows.length === 0) return;
      const target = index < 0 ? 0 : Math.min(Math.max(index + delta, 0), rows.length - 1);
      const next = rows[target];
      if (!next) return;
      if (next.id === id) {
        setStatus(
          delta > 0 ? 'This is the last record in the queue.' : 'This is the first record.',
        );
        return;
      }
      onCurrentChange(next.id);
    },
    [rows, index, id, onCurrentChange],
  );

  /** One write at a time: a second key press waits for the first, so its If-Match is current. */
  const enqueue = useCallback(<T,>(task: () => Promise<T>): Promise<T> => {
    const run = writes.current.then(task, task);
    writes.current = run.catch(() => undefined);
    return run;
  }, []);

  const write = useCallback(
    async (targetId: string, changes: RecordData, options: { undoable: boolean }) => {
      const recordOptions = triageRecordQueryOptions(recordType, alias, targetId);
      setBusy(true);
      try {
        const current = await queryClient.ensureQueryData(recordOptions);
        if (!changesAnything(current.record, changes)) {
          setStatus(`${targetId}: nothing to change.`);
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
        });
        queryClient.setQueryData(recordOptions.queryKey, saved);
        queryClient.setQueryData(queueOptions.queryKey, (data) =>
          replaceInPages(data, targetId, saved.record, definition),
        );
        if (options.undoable) {
          undoStack.current.push({ id: targetId, before, after: changes });
          setUndoCount(undoStack.current.length);
        }
        setStatus(
          options.undoable
            ? `${targetId}: ${describeChange(changes)}. Press u to undo.`
            : `${targetId}: undone (${describeChange(changes)}).`,
        );
        return true;
      } catch (error) {
        if (isApiError(error) && error.status === 412) {
          // Someone else saved first: show their version; the user decides again.
          await queryClient.invalidateQueries({ queryKey: recordOptions.queryKey });
          setStatus(`${targetId} was changed by someone else; reloaded it. Nothing was saved.`);
        } else {
          setStatus(`${targetId}: not saved. ${describeError(error).title}`);
        }
        return false;
      } finally {
        setBusy(false);
      }
    },
    [queryClient, recordType, alias, queueOptions.queryKey, definition],
  );

  const change = useCallback(
    (changes: RecordData) => {
      if (!id) return Promise.resolve(false);
      return enqueue(() => write(id, changes, { undoable: true }));
    },
    [id, enqueue, write],
  );

  const undo = useCallback(() => {
    const last = undoStack.current.pop();
    setUndoCount(undoStack.current.length);
    if (!last) {
      setStatus('Nothing to undo.');
      return;
    }
    void enqueue(async () => {
      const ok = await write(last.id, last.before, { undoable: false });
      // A failed undo stays undoable, so the user can try again after a reload.
      if (!ok) {
        undoStack.current.push(last);
        setUndoCount(undoStack.current.length);
      }
    });
  }, [enqueue, write]);

  const saveAndNext = useCallback(async () => {
    const changes = editorRef.current?.changes() ?? {};
    if (Object.keys(changes).length > 0) {
      const ok = await change(changes);
      if (!ok) return;
    }
    paneRef.current?.focus();
    move(1);
  }, [change, move]);

  const onAction = useCallback(
    (action: TriageAction) => {
      switch (action.type) {
        case 'next':
          return move(1);
        case 'prev':
          return move(-1);
        case 'status':
        case 'severity': {
          const field = action.type === 'status' ? fields.status : fields.severity;
          const value = field?.values?.[action.index];
          if (field && value !== undefined) void change({ [field.name]: value });
          return;
        }
        case 'assign':
          if (fields.assignee) setAssignOpen(true);
          return;
        case 'edit':
          return editorRef.current?.focus();
        case 'comment':
          return commentRef.current?.focus();
        case 'save-next':
          return void saveAndNext();
        case 'undo':
          return undo();
        case 'help':
          return setHelpOpen(true);
      }
    },
    [move, fields, change, saveAndNext, undo],
  );
  useTriageKeys(onAction);
  usePageActions(
    useMemo(
      () => [
        {
          id: 'triage-shortcuts',
          label: 'Show keyboard shortcuts',
          hint: '?',
          run: () => setHelpOpen(true),
        },
        { id: 'triage-undo', label: 'Undo last change', hint: 'u', run: undo },
        { id: 'triage-next', label: 'Next record', hint: 'j', run: () => move(1) },
      ],
      [undo, move],
    ),
  );

  const more = serverTotal === undefined && hasNextPage ? '+' : '';
  const position =
    total === undefined
      ? 'Loading queue…'
      : total === 0
        ? 'No records match'
        : index >= 0
          ? `${formatCount(index + 1)} of ${formatCount(total)}${more}`
          : `${formatCount(total)}${more} in queue`;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b px-6 py-2">
        <span className="text-sm font-medium tabular-nums" data-testid="triage-position">
          {position}
        </span>
        {filter && (
          <code
            className="bg-muted text-muted-foreground max-w-[40ch] truncate rounded-md px-2 py-1 font-mono text-xs"
            title={filter}
          >
            {filter}
          </code>
        )}
        {!serverSort && sort && (
          <span
            className="text-muted-foreground text-xs"
            data-testid="triage-server-order"
            title="This service cannot sort records, so the queue follows the service's own order"
          >
            Service order (cannot sort)
          </span>
        )}
        {skipped > 0 && (
          <span className="text-muted-foreground text-xs" data-testid="triage-skipped">
            {formatCount(skipped)} without a handle left out
          </span>
        )}
        <p
          role="status"
          aria-live="polite"
          className="text-muted-foreground min-w-0 flex-1 truncate text-sm"
          data-testid="triage-status"
        >
          {busy && <Loader2 className="mr-1 inline size-3.5 animate-spin" aria-hidden="true" />}
          {status}
        </p>
        <div className="ml-auto flex items-center gap-1">
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label="Previous record (k)"
            disabled={index <= 0}
            onClick={() => move(-1)}
          >
            <ChevronUp aria-hidden="true" />
          </Button>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label="Next record (j)"
            disabled={rows.length === 0 || index >= rows.length - 1}
            onClick={() => move(1)}
          >
            <ChevronDown aria-hidden="true" />
          </Button>
          <Button variant="ghost" size="sm" onClick={undo} disabled={undoCount === 0}>
            Undo <kbd className="text-muted-foreground font-mono text-xs">u</kbd>
          </Button>
          <Button variant="outline" size="sm" onClick={() => setHelpOpen(true)}>
            <Keyboard aria-hidden="true" />
            Shortcuts <kbd className="text-muted-foreground font-mono text-xs">?</kbd>
          </Button>
          {actions}
        </div>
      </div>

      {queue.isPending ? (
        <div className="text-muted-foreground flex flex-1 items-center justify-center gap-2 text-sm">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Loading the queue…
        </div>
      ) : queue.isError && rows.length === 0 ? (
        <ErrorPanel error={queue.error} onRetry={() => void queue.refetch()} className="flex-1" />
      ) : rows.length === 0 && currentId === undefined ? (
        <div className="flex flex-1 flex-col items-center justify-center gap-2 p-10 text-center">
          <h2 className="text-base font-semibold">Nothing to triage</h2>
          <p className="text-muted-foreground text-sm">
            {skipped > 0
              ? `${formatCount(skipped)} matching records have no handle, so they cannot be opened here.`
              : 'No records match this filter. Change the filter on the list to triage others.'}
          </p>
        </div>
      ) : (
        <div className="flex min-h-0 flex-1">
          <TriageList
            definition={definition}
            rows={rows}
            currentId={id}
            fields={fields}
            onPick={onCurrentChange}
            loadingMore={isFetchingNextPage}
          />
          <div
            ref={paneRef}
            tabIndex={-1}
            className="flex min-w-0 flex-1 flex-col overflow-y-auto outline-none"
            aria-label="Current record"
            role="region"
          >
            {id === undefined ? null : record.isError && !record.data ? (
              <ErrorPanel
                error={record.error}
                onRetry={() => void record.refetch()}
                className="flex-1"
              />
            ) : record.data ? (
              <TriageRecord
                key={id}
                definition={definition}
                id={id}
                record={record.data.record}
                loaded={record.data.etag !== undefined || !record.isPlaceholderData}
                fields={fields}
                onChange={change}
                onAssign={() => setAssignOpen(true)}
                onSaveNext={() => void saveAndNext()}
                editorRef={editorRef}
                commentRef={commentRef}
                onLeaveField={() => paneRef.current?.focus()}
                onCommented={() => setStatus(`${id}: comment posted.`)}
              />
            ) : (
              <div className="text-muted-foreground flex flex-1 items-center justify-center gap-2 text-sm">
                <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Loading {id}…
              </div>
            )}
          </div>
        </div>
      )}

      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} fields={fields} />
      {fields.assignee && id && (
        <AssigneeDialog
          open={assignOpen}
          onOpenChange={setAssignOpen}
          field={fields.assignee}
          recordId={id}
          onPick={(email) => {
            setAssignOpen(false);
            if (fields.assignee) void change({ [fields.assignee.name]: email });
          }}
        />
      )}
    </div>
  );
}
