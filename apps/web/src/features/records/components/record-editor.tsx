import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { formatDateTime } from '@/lib/format.ts';

import { createRecord, recordQueryOptions, updateRecord } from '../api/records.ts';
import { changedFields, RecordForm } from './record-form.tsx';

/**
 * Edits one record: loads it with its ETag, saves the changed fields with `If-Match`, shows 422
 * problems next to fields, and on 412 explains the conflict and offers to reload the latest
 * version while keeping the user's edits on top of it.
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
  const options = recordQueryOptions(recordType, definition.alias, id);
  const { data } = useSuspenseQuery(options);
  // The form's baseline: replaced only by a save or an explicit reload, never behind the user's back.
  const [base, setBase] = useState(() => ({ record: data.record as RecordData, etag: data.etag }));
  const [keptDraft, setKeptDraft] = useState<RecordData | undefined>(undefined);
  const [formKey, setFormKey] = useState(0);
  const [conflictDraft, setConflictDraft] = useState<RecordData | null>(null);
  const [reloading, setReloading] = useState(false);

  const mutation = useMutation({
    mutationFn: (vars: { fields: RecordData; draft: RecordData }) =>
      updateRecord({
        recordType,
        alias: definition.alias,
        id,
        fields: vars.fields,
        etag: base.etag,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(options.queryKey, saved);
      setBase({ record: saved.record as RecordData, etag: saved.etag });
      setKeptDraft(undefined);
      setFormKey((k) => k + 1);
      void queryClient.invalidateQueries({ queryKey: ['records', recordType, definition.alias] });
    },
    onError: (error, vars) => {
      if (isApiError(error) && error.status === 412) setConflictDraft(vars.draft);
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
  return (
    <>
      <dl className="text-muted-foreground grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 border-b px-6 py-2.5 text-xs">
        <dt>Created</dt>
        <dd>
          {formatDateTime(record['Created At'] ?? '')} by {record['Created By'] || 'unknown'}
        </dd>
        <dt>Updated</dt>
        <dd>
          {formatDateTime(record['Updated At'] ?? '')} by {record['Updated By'] || 'unknown'}
        </dd>
      </dl>
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
 * Creates a record of a definition, then hands its new id to `onCreated`.
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
      void queryClient.invalidateQueries({ queryKey: ['records', recordType, definition.alias] });
      void queryClient.invalidateQueries({
        queryKey: ['record-count', recordType, definition.alias],
      });
      onCreated(record.id);
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
