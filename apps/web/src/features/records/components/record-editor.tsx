import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';
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
import { saveRecord, StaleRecordError } from '@/lib/record-writes.ts';
import { recordKeys, recordQueryOptions } from '@/queries/records.ts';

import { createRecord } from '../api/records.ts';
import { changedFields, RecordForm } from './record-form.tsx';

/** A read-only value as the header shows it: dates in the viewer's zone. */
function readOnlyValue(type: string, value: string): string {
  if (type === 'DATETIME') return formatDateTime(value);
  if (type === 'DATE') return formatDate(value);
  return value;
}

/**
 * Edits one record: loads it with its ETag, saves the changed fields with `If-Match`, shows 422
 * problems next to fields, and on 412 explains the conflict field by field (the record is read
 * again to find what moved) and offers to reload the latest version while keeping the user's
 * edits on top of it. Where the server has no ETag (the hosted API), the save re-reads the record
 * first and a change to a field being saved opens the same dialog (lib/record-writes.ts, ADR 0025).
 */
export function RecordEditor({
  definition,
  id,
  onClose,
}: {
  definition: Definition;
  id: string;
  onClose: () => void;
}) {
  const recordType = definition.recordType as RecordType;
  const queryClient = useQueryClient();
  const { etag: serverChecks } = useCapabilities();
  const options = recordQueryOptions(recordType, definition.alias, id);
  const { data } = useSuspenseQuery(options);
  // The form's baseline: replaced only by a save or an explicit reload, never behind the user's back.
  const [base, setBase] = useState(() => ({ record: data.record as RecordData, etag: data.etag }));
  const [keptDraft, setKeptDraft] = useState<RecordData | undefined>(undefined);
  const [formKey, setFormKey] = useState(0);
  const [conflictDraft, setConflictDraft] = useState<RecordData | null>(null);
  const [conflictFields, setConflictFields] = useState<FieldDifference[]>([]);
  const [reloading, setReloading] = useState(false);

  const mutation = useMutation({
    mutationFn: (vars: { fields: RecordData; draft: RecordData }) =>
      saveRecord({
        recordType,
        alias: definition.alias,
        id,
        definition,
        base: base.record,
        changes: vars.fields,
        etag: base.etag,
        source: 'editor',
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(options.queryKey, saved);
      setBase({ record: saved.record as RecordData, etag: saved.etag });
      setKeptDraft(undefined);
      setFormKey((k) => k + 1);
      void queryClient.invalidateQueries({
        queryKey: recordKeys.lists(recordType, definition.alias),
      });
    },
    onError: (error, vars) => {
      if (isApiError(error) && error.status === 412) {
        setConflictFields(
          error instanceof StaleRecordError ? [...error.differences, ...error.alsoChanged] : [],
        );
        setConflictDraft(vars.draft);
      }
    },
  });

  async function reloadKeepingEdits() {
    if (!conflictDraft) return;
    setReloading(true);
    try {
      const latest = await queryClient.fetchQuery({ ...options, staleTime: 0 });
      const mine = changedFields(base.record, conflictDraft);
      setBase({ record: latest.record as RecordData, etag: latest.etag });
      setKeptDraft(mine);
      setFormKey((k) => k + 1);
      setConflictDraft(null);
      mutation.reset();
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
          This service has no version check: saving re-reads the record first and warns you if a
          field you changed was changed by someone else meanwhile.
        </p>
      )}
      <RecordForm
        key={formKey}
        definition={definition}
        base={record}
        initialDraft={keptDraft}
        mode="edit"
        submitting={mutation.isPending}
        error={mutation.error}
        onSubmit={(fields, draft) => mutation.mutate({ fields, draft })}
        onCancel={onClose}
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
