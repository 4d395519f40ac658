import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useCallback, useMemo, useRef, useState } from 'react';

import type { Definition, RecordType } from '@wsc/api-client';
import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { formatCount } from '@/lib/format.ts';
import { usePageActions } from '@/lib/page-actions.ts';
import {
  editorsOf,
  useAnnounceViewing,
  useLiveEvents,
  useRecordsWithPresence,
} from '@/lib/use-live-presence.ts';

import type { TriageAction } from '../lib/triage-keys.ts';
import type { TriageEditorHandle } from './triage-record.tsx';
import type { StatusLine } from './triage-toolbar.tsx';
import { triageRecordQueryOptions } from '../api/triage-queries.ts';
import { useSkipEditing } from '../hooks/use-skip-editing.ts';
import { useTriageChanges } from '../hooks/use-triage-changes.ts';
import { useTriageKeys } from '../hooks/use-triage-keys.ts';
import { useTriageQueue } from '../hooks/use-triage-queue.ts';
import { triageFields } from '../lib/triage-fields.ts';
import { AssigneeDialog } from './assignee-dialog.tsx';
import { ShortcutsDialog } from './shortcuts-dialog.tsx';
import { TriageList } from './triage-list.tsx';
import { TriagePane } from './triage-pane.tsx';
import { TriageToolbar } from './triage-toolbar.tsx';

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

/** No one else has the record open (one array, so the pane's props stay equal). */
const NOBODY: readonly PresenceEntry[] = [];

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
  const fields = useMemo(() => triageFields(definition), [definition]);
  const [status, setStatusLine] = useState<StatusLine>({ text: '' });
  const setStatus = useCallback(
    (text: string, tone?: 'error') => setStatusLine({ text, tone }),
    [],
  );
  const [helpOpen, setHelpOpen] = useState(false);
  const [assignOpen, setAssignOpen] = useState(false);
  const editorRef = useRef<TriageEditorHandle>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const paneRef = useRef<HTMLDivElement>(null);

  // Presence: who else has which record open (list markers), and j/k passing over records
  // others are editing unless the user turned that off.
  useLiveEvents();
  const presence = useRecordsWithPresence(definition.recordType as RecordType, definition.alias);
  const [skipEditing, setSkipEditing] = useSkipEditing();
  const othersEditing = useCallback(
    (recordId: string) => editorsOf(presence.get(recordId) ?? []),
    [presence],
  );
  const { queue, serverSort, rows, skipped, total, more, index, id, row, move, live, keepPlace } =
    useTriageQueue({
      definition,
      filter,
      sort,
      currentId,
      onCurrentChange,
      onStatus: setStatus,
      editorsOf: skipEditing ? othersEditing : undefined,
    });
  useAnnounceViewing(
    id === undefined
      ? null
      : { recordType: definition.recordType as RecordType, alias: definition.alias, recordId: id },
  );
  const { busy, change, undo, undoCount } = useTriageChanges({
    definition,
    id,
    onStatus: setStatus,
  });
  const record = useQuery({
    ...triageRecordQueryOptions(definition.recordType as RecordType, definition.alias, id ?? ''),
    enabled: id !== undefined,
    // The queue row is the same record without its ETag: show it while the record loads.
    placeholderData: row ? { record: row, etag: undefined } : undefined,
  });

  // Optimistic (ADR 0028): the changes show at once and the user moves on; a refusal is said on
  // the status line, naming the record.
  const saveAndNext = useCallback(() => {
    const changes = editorRef.current?.changes() ?? {};
    if (Object.keys(changes).length > 0) void change(changes);
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
          return saveAndNext();
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

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <TriageToolbar
        total={total}
        more={more}
        index={index}
        count={rows.length}
        filter={filter}
        serverOrder={!serverSort && Boolean(sort)}
        skipped={skipped}
        busy={busy}
        status={status}
        undoCount={undoCount}
        onMove={move}
        onUndo={undo}
        onHelp={() => setHelpOpen(true)}
        skipEditing={skipEditing}
        onSkipEditingChange={setSkipEditing}
        actions={actions}
      />

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
            loadingMore={queue.isFetchingNextPage}
            fresh={live.freshCount}
            onMerge={live.merge}
            departed={live.departed}
            keepPlaceRef={keepPlace}
            presence={presence}
          />
          <TriagePane
            id={id}
            record={record}
            paneRef={paneRef}
            definition={definition}
            fields={fields}
            onChange={change}
            onAssign={() => setAssignOpen(true)}
            onSaveNext={saveAndNext}
            editorRef={editorRef}
            commentRef={commentRef}
            onLeaveField={() => paneRef.current?.focus()}
            onCommented={() => setStatus(`${id}: comment posted.`)}
            others={(id && presence.get(id)) || NOBODY}
          />
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
