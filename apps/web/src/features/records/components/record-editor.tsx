import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, RefreshCw } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';

import type { Definition, RecordData, RecordReply, RecordType } from '@wsc/api-client';
import { isApiError, recordHandle } from '@wsc/api-client';

import type { FieldDifference } from '@/lib/record-writes.ts';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { toast } from '@/components/ui/toast.tsx';
import { useCapabilities } from '@/lib/capabilities.ts';
import { formatDate, formatDateTime } from '@/lib/format.ts';
import { StaleRecordError } from '@/lib/record-writes.ts';
import { useOptimisticStore, usePendingWrites } from '@/lib/use-optimistic.ts';
import { recordFromLists } from '@/queries/record-seed.ts';
import { recordKeys, recordQueryOptions } from '@/queries/records.ts';

import { createRecord } from '../api/records.ts';
import { editableFields } from '../lib/columns.ts';
import { changedFields, followBase, RecordForm, startDraft } from './record-form.tsx';

/**
 * `record` with the `fields` of a refused save put back as they were in `seen` (the baseline
 * goes back; the user's values stay in the form).
 *
 * @example
 * restoreFields({ Status: 'Open', Title: 'A' }, { Status: 'New' }, { Status: 'Open' });
 * // { Status: 'New', Title: 'A' }
 */
export function restoreFields(
  record: RecordData,
  seen: RecordData,
  fields: RecordData,
): RecordData {
  const restored = { ...record };
  for (const name of Object.keys(fields)) {
    const value = seen[name];
    if (value === undefined) delete restored[name];
    else restored[name] = value;
  }
  return restored;
}

/** A read-only value as the header shows it: dates in the viewer's zone. */
function readOnlyValue(type: string, value: string): string {
  if (type === 'DATETIME') return formatDateTime(value);
  if (type === 'DATE') return formatDate(value);
  return value;
}

/**
 * Edits one record. It opens at once from the list's row when the list holds it (marked as
 * possibly stale, the record itself read behind it; fields the user has not touched follow it
 * when it arrives). A save is optimistic (ADR 0028): the record shows the new values at once,
 * marked "Saving…", and the form stays usable; once stored, the saved fields follow what the
 * server stored. A refusal rolls the record back and keeps the user's values in the form:
 * a 422 next to its fields, a 412 explained field by field with the offer to reload the latest
 * version keeping the user's edits on top of it (lib/record-writes.ts, ADR 0025).
 */
export function RecordEditor({
  definition,
  id,
  onClose,
  onDirtyChange,
}: {
  definition: Definition;
  id: string;
  onClose: () => void;
  /** Told whether the form holds changes not yet saved (the panel asks before leaving them). */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const options = recordQueryOptions(definition.recordType as RecordType, definition.alias, id);
  const query = useQuery({
    ...options,
    placeholderData: () => recordFromLists(queryClient, definition, id),
  });
  if (!query.data) return query.isError ? null : <EditorLoading />;
  return (
    <LoadedEditor
      definition={definition}
      id={id}
      onClose={onClose}
      onDirtyChange={onDirtyChange}
      data={query.data}
      seeded={query.isPlaceholderData}
    />
  );
}

function EditorLoading() {
  return (
    <p className="text-muted-foreground flex items-center gap-2 px-6 py-5 text-sm" role="status">
      <Loader2 aria-hidden="true" className="size-4 animate-spin" /> Loading the record…
    </p>
  );
}

/** The baseline of the form: the record as the user saw it, and whether it is a list's row. */
interface EditorBase {
  record: RecordData;
  etag: string | undefined;
  /** Only the list's copy so far: the record itself replaces it when it arrives. */
  seeded: boolean;
}

function LoadedEditor({
  definition,
  id,
  onClose,
  onDirtyChange,
  data,
  seeded,
}: {
  definition: Definition;
  id: string;
  onClose: () => void;
  onDirtyChange: ((dirty: boolean) => void) | undefined;
  data: RecordReply;
  seeded: boolean;
}) {
  const recordType = definition.recordType as RecordType;
  const ref = useMemo(
    () => ({ recordType, alias: definition.alias, id }),
    [recordType, definition.alias, id],
  );
  const queryClient = useQueryClient();
  const store = useOptimisticStore();
  const { etag: serverChecks } = useCapabilities();
  const options = recordQueryOptions(recordType, definition.alias, id);
  const fields = useMemo(() => editableFields(definition), [definition]);
  // The form's baseline: replaced by a save, an explicit reload, or the record arriving after its
  // row, never by someone else's change behind the user's back.
  const [base, setBase] = useState<EditorBase>(() => ({ ...data, seeded }));
  const [draft, setDraft] = useState<RecordData>(() => startDraft(fields, data.record));
  const [saveError, setSaveError] = useState<unknown>(null);
  const [conflictDraft, setConflictDraft] = useState<RecordData | null>(null);
  const [conflictFields, setConflictFields] = useState<FieldDifference[]>([]);
  const [reloading, setReloading] = useState(false);
  const writes = usePendingWrites(ref);
  const pendingFields = useMemo(() => new Set(writes.flatMap((w) => w.fields)), [writes]);

  if (base.seeded && !seeded) {
    // The record itself arrived after its row: it is the baseline now.
    setBase({ ...data, seeded: false });
    setDraft((current) => followBase(base.record, data.record, current));
  }

  function save(changes: RecordData) {
    const seen = { record: base.record, etag: base.etag };
    setSaveError(null);
    setBase((current) => ({ ...current, record: { ...current.record, ...changes } }));
    const { settled } = store.changeRecord({
      record: ref,
      definition,
      changes,
      source: 'editor',
      seen,
    });
    void settled.then((outcome) => {
      if (outcome.status === 'confirmed') return stored();
      if (outcome.status === 'refused') refused(changes, seen.record, outcome.error);
    });
  }

  /** Stored: the baseline is what the server keeps now; the saved fields follow it. */
  function stored() {
    const shown = store.shownRecord(ref, definition);
    if (!shown) return;
    const before = latest.current.base.record;
    setBase({ record: shown.record, etag: shown.etag, seeded: false });
    setDraft((now) => followBase(before, shown.record, now));
    void queryClient.invalidateQueries({
      queryKey: recordKeys.lists(recordType, definition.alias),
    });
  }

  /** Refused: the baseline goes back, the user's values stay in the form, unsaved. */
  function refused(changes: RecordData, seen: RecordData, error: unknown) {
    setBase((current) => ({ ...current, record: restoreFields(current.record, seen, changes) }));
    setSaveError(error);
    if (isApiError(error) && error.status === 412) {
      setConflictFields(
        error instanceof StaleRecordError ? [...error.differences, ...error.alsoChanged] : [],
      );
      setConflictDraft(latest.current.draft);
    }
  }
  // What a save's outcome, arriving later, works from: the form as it is then.
  const latest = useRef({ base, draft });
  latest.current = { base, draft };

  async function reloadKeepingEdits() {
    if (!conflictDraft) return;
    setReloading(true);
    try {
      const stored = await queryClient.fetchQuery({ ...options, staleTime: 0 });
      const mine = changedFields(base.record, conflictDraft);
      setBase({ record: stored.record, etag: stored.etag, seeded: false });
      setDraft(startDraft(fields, stored.record, mine));
      setConflictDraft(null);
      setSaveError(null);
    } finally {
      setReloading(false);
    }
  }

  const record = base.record;
  // Read-only values (audit fields of either profile), except the handle shown in the title.
  const readOnly = definition.fields.filter(
    (f) => f.readOnly && f.name !== definition.handleField && record[f.name],
  );
  return (
    <>
      {readOnly.length > 0 && (
        <dl className="text-muted-foreground grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 border-b px-6 py-2.5 text-xs">
          {readOnly.map((field) => (
            <div key={field.name} className="contents">
              <dt>{field.name}</dt>
              <dd>{readOnlyValue(field.type, record[field.name] ?? '')}</dd>
            </div>
          ))}
        </dl>
      )}
      {!serverChecks && (
        <p
          className="text-muted-foreground border-b px-6 py-1.5 text-xs"
          data-testid="no-etag-note"
        >
          This service has no version check: saving sends the values you opened with your changes,
          and you are warned if a field you changed was changed by someone else meanwhile.
        </p>
      )}
      {base.seeded && (
        <p
          className="text-muted-foreground flex items-center gap-1.5 border-b px-6 py-1.5 text-xs"
          role="status"
          data-testid="record-seeded"
        >
          <Loader2 aria-hidden="true" className="size-3 animate-spin" />
          Shown from the list; reading the latest version…
        </p>
      )}
      <RecordForm
        definition={definition}
        base={record}
        mode="edit"
        submitting={false}
        draft={draft}
        onDraftChange={setDraft}
        pendingFields={pendingFields}
        error={saveError}
        onSubmit={(changes) => save(changes)}
        onCancel={onClose}
        onDirtyChange={onDirtyChange}
      />
      <Dialog
        open={conflictDraft !== null}
        onOpenChange={(open) => !open && setConflictDraft(null)}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Someone else changed this record</DialogTitle>
            <DialogDescription>
              {id} was updated after you opened it, so your changes were not saved. Reload the
              latest version: your edits stay in the form, on top of it, for you to review and save
              again.
            </DialogDescription>
          </DialogHeader>
          {conflictFields.length > 0 && (
            <table className="w-full text-sm" data-testid="conflict-fields">
              <caption className="sr-only">Fields changed by someone else</caption>
              <thead className="text-muted-foreground text-left text-xs">
                <tr>
                  <th scope="col" className="py-1 font-medium">
                    Field
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    You opened
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Now stored
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Yours
                  </th>
                </tr>
              </thead>
              <tbody>
                {conflictFields.map((difference) => (
                  <tr key={difference.field} className="border-t">
                    <th scope="row" className="py-1 pr-2 text-left font-medium">
                      {difference.field}
                    </th>
                    <td className="py-1 pr-2">{difference.seen || '—'}</td>
                    <td className="py-1 pr-2">{difference.now || '—'}</td>
                    <td className="py-1">
                      {difference.mine === null ? (
                        <span className="text-muted-foreground">not changed by you</span>
                      ) : (
                        difference.mine || '—'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <DialogFooter>
            <Button variant="ghost" onClick={() => setConflictDraft(null)}>
              Keep editing
            </Button>
            <Button onClick={() => void reloadKeepingEdits()} disabled={reloading}>
              <RefreshCw aria-hidden="true" className={reloading ? 'animate-spin' : undefined} />
              Reload latest version
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

/**
 * Creates a record of a definition, then hands its new handle to `onCreated`. A server whose reply
 * names no handle (the hosted API may answer 201 with a record without one, or with no body)
 * still created it: the panel closes, the list refreshes and a toast says so, instead of calling
 * a success a failure (and inviting a duplicate).
 */
export function RecordCreator({
  definition,
  onCreated,
  onClose,
}: {
  definition: Definition;
  onCreated: (id: string) => void;
  onClose: () => void;
}) {
  const recordType = definition.recordType as RecordType;
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (fields: RecordData) =>
      createRecord({ recordType, alias: definition.alias, fields }),
    onSuccess: (record) => {
      void queryClient.invalidateQueries({
        queryKey: recordKeys.lists(recordType, definition.alias),
      });
      void queryClient.invalidateQueries({
        queryKey: recordKeys.count(recordType, definition.alias),
      });
      const handle = recordHandle(record, definition);
      if (handle) return onCreated(handle);
      const title = definition.titleField ? record[definition.titleField] : undefined;
      toast({
        message: `Created${title ? ` “${title}”` : ` a ${definition.name} record`}. The service did not return its handle; find it in the list.`,
      });
      onClose();
    },
  });
  return (
    <RecordForm
      definition={definition}
      base={{}}
      mode="create"
      submitting={mutation.isPending}
      error={mutation.error}
      onSubmit={(fields) => mutation.mutate(fields)}
      onCancel={onClose}
    />
  );
}
