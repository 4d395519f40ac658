import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ExternalLink, Loader2, MessageSquare, UserRound } from 'lucide-react';
import { useId, useImperativeHandle, useMemo, useRef, useState } from 'react';

import type { Definition, Field, RecordData, RecordType } from '@wsc/api-client';
import type { PresenceEntry } from '@wsc/api-client/bff-events';
import { COMMENT_MAX_LENGTH } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { FieldEditor } from '@/components/field-editor.tsx';
import { EditingGuard } from '@/components/live/editing-guard.tsx';
import { PresenceNotice } from '@/components/live/presence-notice.tsx';
import { PendingMarker } from '@/components/pending-marker.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Textarea } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { lastUpdateFields } from '@/lib/audit-fields.ts';
import { formatDateTime } from '@/lib/format.ts';
import { usePendingWrites } from '@/lib/use-optimistic.ts';
import { cn } from '@/lib/utils.ts';

import type { TriageFields } from '../lib/triage-fields.ts';
import { postTriageComment } from '../api/triage-queries.ts';

/** What the triage view asks of the editor: its unsaved changes, and focus. */
export interface TriageEditorHandle {
  changes: () => RecordData;
  focus: () => void;
  clear: () => void;
}

export interface TriageRecordProps {
  definition: Definition;
  id: string;
  record: RecordData;
  /** False while only the queue's copy (no ETag yet) is shown. */
  loaded: boolean;
  fields: TriageFields;
  /** Saves the changes; resolves false when nothing was saved (412, 422, network). */
  onChange: (changes: RecordData) => Promise<boolean>;
  onAssign: () => void;
  onSaveNext: () => void;
  editorRef: React.Ref<TriageEditorHandle>;
  commentRef: React.Ref<HTMLTextAreaElement>;
  /** Escape in the editor or comment box hands the keyboard back to triage. */
  onLeaveField: () => void;
  onCommented: () => void;
  /** Who else has this record open: said under its title; editing it asks first. */
  others: readonly PresenceEntry[];
}

/**
 * The current record: its title, one-key field buttons (status, severity, assignee), the editor
 * of every field and a comment box.
 */
export function TriageRecord({
  definition,
  id,
  record,
  loaded,
  fields,
  onChange,
  onAssign,
  onSaveNext,
  editorRef,
  commentRef,
  onLeaveField,
  onCommented,
  others,
}: TriageRecordProps) {
  const title = definition.titleField ? record[definition.titleField] : undefined;
  const lastUpdate = lastUpdateFields(definition);
  const updatedAt = lastUpdate.at ? record[lastUpdate.at] : undefined;
  const updatedBy = lastUpdate.by ? record[lastUpdate.by] : undefined;
  const writes = usePendingWrites({
    recordType: definition.recordType as RecordType,
    alias: definition.alias,
    id,
  });
  const pendingFields = useMemo(() => new Set(writes.flatMap((w) => w.fields)), [writes]);
  // The editor marks the fields the one-key buttons do not (one "Saving…" per field).
  const quick = [fields.status, fields.severity, fields.assignee].map((f) => f?.name);
  const editorPending = new Set([...pendingFields].filter((name) => !quick.includes(name)));
  return (
    <article className="grid content-start gap-5 px-6 py-5" aria-labelledby="triage-record-title">
      <header className="grid gap-1">
        <div className="flex items-center gap-2">
          <span
            className="bg-secondary text-secondary-foreground rounded px-1.5 py-0.5 font-mono text-xs"
            data-testid="triage-record-id"
          >
            {id}
          </span>
          {!loaded && (
            <Loader2 className="text-muted-foreground size-3.5 animate-spin" aria-label="Loading" />
          )}
          <Link
            to="/records/$recordType/$alias/$id"
            params={{ recordType: definition.recordType, alias: definition.alias, id }}
            className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 ml-auto inline-flex items-center gap-1 rounded-sm text-xs outline-none focus-visible:ring-[3px]"
          >
            Open full record <ExternalLink aria-hidden="true" className="size-3.5" />
          </Link>
        </div>
        <h2 id="triage-record-title" className="text-lg font-semibold tracking-tight">
          {title || id}
        </h2>
        {updatedAt && (
          <p className="text-muted-foreground text-xs">
            Updated {formatDateTime(updatedAt)}
            {lastUpdate.by && <> by {updatedBy || 'unknown'}</>}
          </p>
        )}
        <PresenceNotice entries={others} />
      </header>

      <QuickFields
        record={record}
        fields={fields}
        pending={pendingFields}
        onChange={onChange}
        onAssign={onAssign}
      />

      {/* The editor is the part of triage that counts as editing (the one-key fields save at
          once); stepping into it on a record someone else edits asks first, as in the panel. */}
      <EditingGuard others={others}>
        <TriageEditor
          ref={editorRef}
          definition={definition}
          record={record}
          pending={editorPending}
          onSave={onChange}
          onSaveNext={onSaveNext}
          onLeave={onLeaveField}
        />
      </EditingGuard>

      <TriageComment
        ref={commentRef}
        recordType={definition.recordType as RecordType}
        alias={definition.alias}
        id={id}
        onLeave={onLeaveField}
        onPosted={onCommented}
      />
    </article>
  );
}

function QuickFields({
  record,
  fields,
  pending,
  onChange,
  onAssign,
}: {
  record: RecordData;
  fields: TriageFields;
  /** Fields with a write not confirmed yet. */
  pending: ReadonlySet<string>;
  onChange: (changes: RecordData) => Promise<boolean>;
  onAssign: () => void;
}) {
  const groups: { field: Field; prefix: string }[] = [];
  if (fields.status) groups.push({ field: fields.status, prefix: '' });
  if (fields.severity) groups.push({ field: fields.severity, prefix: '⇧' });
  return (
    <div className="grid gap-3 rounded-lg border p-3">
      {groups.map(({ field, prefix }) => (
        <div key={field.name} role="group" aria-label={field.name} className="grid gap-1.5">
          <div className="flex items-center gap-2">
            <span className="text-muted-foreground text-xs font-medium">{field.name}</span>
            <PendingMarker pending={pending.has(field.name)} live />
          </div>
          <div className="flex flex-wrap gap-1.5">
            {(field.values ?? []).slice(0, 9).map((value, i) => {
              const active = (record[field.name] ?? '') === value;
              return (
                <button
                  key={value}
                  type="button"
                  aria-pressed={active}
                  aria-keyshortcuts={prefix ? `Shift+${i + 1}` : String(i + 1)}
                  onClick={() => void onChange({ [field.name]: value })}
                  className={cn(
                    'focus-visible:ring-ring/50 inline-flex h-7 items-center gap-1.5 rounded-md border px-2 text-xs outline-none focus-visible:ring-[3px]',
                    active
                      ? 'bg-primary text-primary-foreground border-primary'
                      : 'hover:bg-accent hover:text-accent-foreground',
                  )}
                >
                  <kbd
                    className={cn(
                      'font-mono text-[10px]',
                      active ? 'text-primary-foreground' : 'text-muted-foreground',
                    )}
                  >
                    {prefix}
                    {i + 1}
                  </kbd>
                  {value}
                </button>
              );
            })}
          </div>
        </div>
      ))}
      {fields.assignee && (
        <div className="flex items-center gap-2">
          <span className="text-muted-foreground text-xs font-medium">{fields.assignee.name}</span>
          <span className="truncate text-sm" data-testid="triage-assignee">
            {record[fields.assignee.name] || 'Unassigned'}
          </span>
          <PendingMarker pending={pending.has(fields.assignee.name)} live />
          <Button
            variant="outline"
            size="xs"
            className="ml-auto"
            onClick={onAssign}
            aria-keyshortcuts="a"
          >
            <UserRound aria-hidden="true" /> Assign <kbd className="font-mono">a</kbd>
          </Button>
        </div>
      )}
    </div>
  );
}

/** Escape leaves the field (and the keyboard goes back to triage); Shift/Ctrl/⌘+Enter save and move on. */
function leaveOrSave(
  event: React.KeyboardEvent,
  onLeave: () => void,
  onSaveNext: () => void,
): void {
  if (event.key === 'Escape') {
    // Let an open picker list close first (it stops propagation itself).
    if (event.defaultPrevented) return;
    event.preventDefault();
    onLeave();
  } else if (event.key === 'Enter' && (event.shiftKey || event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    onSaveNext();
  }
}

/** The edits left once `sent` was stored: those typed since (a different value) stay. */
function withoutSent(edits: RecordData, sent: RecordData): RecordData {
  const left: RecordData = {};
  for (const [name, value] of Object.entries(edits)) if (sent[name] !== value) left[name] = value;
  return left;
}

function TriageEditor({
  ref,
  definition,
  record,
  pending,
  onSave,
  onSaveNext,
  onLeave,
}: {
  ref: React.Ref<TriageEditorHandle>;
  definition: Definition;
  record: RecordData;
  /** Fields with a write not confirmed yet. */
  pending: ReadonlySet<string>;
  onSave: (changes: RecordData) => Promise<boolean>;
  onSaveNext: () => void;
  onLeave: () => void;
}) {
  const editable = useMemo(() => definition.fields.filter((f) => !f.readOnly), [definition]);
  // Only what the user touched: a one-key change of another field shows through untouched ones.
  const [edits, setEdits] = useState<RecordData>({});
  const formRef = useRef<HTMLFormElement>(null);
  const prefix = useId();
  const changes = useMemo(() => {
    const out: RecordData = {};
    for (const [name, value] of Object.entries(edits)) {
      if ((record[name] ?? '') !== value) out[name] = value;
    }
    return out;
  }, [edits, record]);
  const dirty = Object.keys(changes).length > 0;

  useImperativeHandle(
    ref,
    () => ({
      changes: () => changes,
      focus: () => formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus(),
      clear: () => setEdits({}),
    }),
    [changes],
  );

  return (
    <form
      ref={formRef}
      aria-label="Edit fields"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // The record shows the edits at once (optimistic); once stored, the edits that were sent
        // leave the form (what was typed since stays). A refusal keeps them all, unsaved.
        if (dirty) {
          const sent = changes;
          void onSave(sent).then((ok) => ok && setEdits((current) => withoutSent(current, sent)));
        }
      }}
      onKeyDown={(event) => leaveOrSave(event, onLeave, onSaveNext)}
      className="grid gap-3"
    >
      <div className="flex items-center gap-2">
        <h3 className="text-sm font-semibold">Fields</h3>
        <span className="text-muted-foreground text-xs">
          <kbd className="font-mono">e</kbd> to edit · <kbd className="font-mono">Esc</kbd> to leave
        </span>
        <PendingMarker
          pending={editable.some((f) => pending.has(f.name))}
          live
          className="ml-auto"
        />
        {dirty && <span className="text-muted-foreground text-xs">Unsaved changes</span>}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {editable.map((field, index) => {
          const id = `${prefix}-${index}`;
          const labelId = `${id}-label`;
          return (
            <div
              key={field.name}
              className={cn(
                'grid gap-1.5',
                field.name === definition.titleField && 'sm:col-span-2',
              )}
            >
              <Label htmlFor={id} id={labelId}>
                {field.name}
              </Label>
              <FieldEditor
                field={field}
                id={id}
                labelledBy={labelId}
                value={edits[field.name] ?? record[field.name] ?? ''}
                onChange={(value) => setEdits((current) => ({ ...current, [field.name]: value }))}
              />
            </div>
          );
        })}
      </div>
      <div className="flex items-center justify-end gap-2">
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={!dirty}
          onClick={() => setEdits({})}
        >
          Discard
        </Button>
        <Button type="submit" variant="outline" size="sm" disabled={!dirty}>
          Save
        </Button>
        <Button type="button" size="sm" onClick={onSaveNext}>
          Save and next <kbd className="font-mono text-xs opacity-80">n</kbd>
        </Button>
      </div>
    </form>
  );
}

function TriageComment({
  ref,
  recordType,
  alias,
  id,
  onLeave,
  onPosted,
}: {
  ref: React.Ref<HTMLTextAreaElement>;
  recordType: RecordType;
  alias: string;
  id: string;
  onLeave: () => void;
  onPosted: () => void;
}) {
  const [text, setText] = useState('');
  const textareaId = useId();
  const errorId = useId();
  const post = useMutation({
    mutationFn: (contents: string) => postTriageComment(recordType, alias, id, contents),
    onSuccess: () => {
      setText('');
      onPosted();
    },
  });
  const trimmed = text.trim();
  const tooLong = text.length > COMMENT_MAX_LENGTH;
  const submit = () => {
    if (trimmed && !tooLong && !post.isPending) post.mutate(text);
  };
  return (
    <section className="grid gap-2" aria-label="Comment on this record">
      <div className="flex items-center gap-2">
        <MessageSquare aria-hidden="true" className="size-4" />
        <Label htmlFor={textareaId}>Comment</Label>
        <span id={`${textareaId}-hint`} className="text-muted-foreground text-xs">
          <kbd className="font-mono">c</kbd> to write · Ctrl/⌘ + Enter to post
        </span>
      </div>
      <Textarea
        ref={ref}
        id={textareaId}
        value={text}
        rows={3}
        placeholder="Write a comment…"
        aria-invalid={tooLong || post.isError || undefined}
        aria-describedby={
          post.isError || tooLong ? `${textareaId}-hint ${errorId}` : `${textareaId}-hint`
        }
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            submit();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            onLeave();
          }
        }}
      />
      {(post.isError || tooLong) && (
        <p id={errorId} className="text-destructive text-sm">
          {tooLong
            ? `At most ${COMMENT_MAX_LENGTH.toLocaleString('en')} characters.`
            : describeError(post.error).title}
        </p>
      )}
      <div className="flex justify-end">
        <Button
          size="sm"
          variant="outline"
          disabled={!trimmed || tooLong || post.isPending}
          onClick={submit}
        >
          {post.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
          Post comment
        </Button>
      </div>
    </section>
  );
}
