import { useMutation } from '@tanstack/react-query';
import { AlertCircle, Loader2, RotateCcw, Save } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';

import type { Definition, WorkspaceEntry } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { formatCount } from '@/lib/format.ts';

import type { DefinitionDraft, DraftErrors, FieldDraft, TopPart } from '../lib/draft.ts';
import { saveDefinition } from '../api/save-definition.ts';
import {
  fromDraft,
  hasErrors,
  problemsToErrors,
  RECORD_TYPE_LABELS,
  toDraft,
  validateDraft,
} from '../lib/draft.ts';
import { entryKey } from '../lib/entries.ts';
import { FieldsEditor } from './fields-editor.tsx';

/** What the editor was opened with. */
export interface EditorSession {
  /** `add`: a first sample; `edit`: a saved definition; `resample`: a saved one merged with a new sample. */
  mode: 'add' | 'edit' | 'resample';
  draft: DefinitionDraft;
  /** The BFF's proposal and its notes, when the editor follows a sample. */
  sample?: { proposal: Definition; notes: string[]; sampled: number; total?: number };
  /** What merging a re-sample into the saved definition did (mode `resample`). */
  changes?: string[];
}

const noErrors: DraftErrors = { top: {}, fields: {}, general: [] };

function InputError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-destructive text-sm">
      {message}
    </p>
  );
}

function sampleSummary(sample: NonNullable<EditorSession['sample']>): string {
  const read = `${formatCount(sample.sampled)} ${sample.sampled === 1 ? 'record' : 'records'}`;
  return sample.total === undefined
    ? `Proposed from ${read}.`
    : `Proposed from ${read} of ${formatCount(sample.total)}.`;
}

/**
 * The definition editor: name, handle, title and handle fields, the notes from sampling and the
 * fields table. Save checks the draft, then PUTs it; the BFF's per-field 422 messages are shown
 * beside the inputs they name and focus moves to the first of them. Focus starts on the heading,
 * so a screen reader announces what is being edited.
 */
export function DefinitionEditor({
  session,
  onSaved,
  onCancel,
}: {
  session: EditorSession;
  onSaved: (entry: WorkspaceEntry) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(session.draft);
  const [changes, setChanges] = useState(session.changes);
  const [errors, setErrors] = useState<DraftErrors>(noErrors);
  // Bumped whenever new errors are shown: focus then moves to the first of them.
  const [errorTick, setErrorTick] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const summary = useRef<HTMLDivElement>(null);
  // The draft that was sent: the server's `fields.<i>` paths index into it, not into later edits.
  const submitted = useRef(draft);

  useEffect(() => {
    heading.current?.focus();
  }, []);
  useEffect(() => {
    if (errorTick === 0) return;
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? summary.current)?.focus();
  }, [errorTick]);

  const save = useMutation({
    mutationFn: saveDefinition,
    onSuccess: onSaved,
    onError: (error) => {
      if (isApiError(error) && error.errors.length > 0) {
        setErrors(problemsToErrors(error.errors, submitted.current));
      }
      setErrorTick((tick) => tick + 1);
    },
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = validateDraft(draft);
    setErrors(found);
    if (hasErrors(found)) {
      setErrorTick((tick) => tick + 1);
      return;
    }
    save.reset();
    submitted.current = draft;
    save.mutate(fromDraft(draft));
  };

  const setTop = (part: 'name' | 'handle', value: string) => {
    setDraft((d) => ({ ...d, [part]: value }));
    setErrors((e) => ({ ...e, top: { ...e.top, [part]: undefined } }));
  };
  const setFields = (fields: FieldDraft[]) => {
    // A row's messages are about what it said when sent: once it changes they no longer apply.
    const before = new Map(draft.fields.map((field) => [field.key, field]));
    setErrors((e) => ({
      ...e,
      top: { ...e.top, fields: undefined },
      fields: Object.fromEntries(
        Object.entries(e.fields).filter(([key]) =>
          fields.some((field) => field.key === key && field === before.get(key)),
        ),
      ),
    }));
    setDraft((d) => ({
      ...d,
      fields,
      // A removed row cannot stay the title or handle field.
      titleKey: fields.some((field) => field.key === d.titleKey) ? d.titleKey : '',
      handleKey: fields.some((field) => field.key === d.handleKey) ? d.handleKey : '',
    }));
  };
  const adoptProposal = () => {
    if (!session.sample) return;
    setDraft(toDraft(session.sample.proposal));
    setChanges(undefined);
    setErrors(noErrors);
  };

  const inputId = (part: TopPart) => `${id}-${part}`;
  const errorId = (part: TopPart) => (errors.top[part] ? `${id}-${part}-error` : undefined);
  const fieldLabel = (field: FieldDraft, index: number) =>
    field.name.trim() || `(unnamed field ${index + 1})`;
  const titleOptions = draft.fields.filter(
    (field) => field.type === 'TEXT' || field.key === draft.titleKey,
  );
  const { name: definitionName, recordType, alias } = draft;
  const shownName = definitionName.trim() || alias;
  const title =
    session.mode === 'add'
      ? `Add ${shownName}`
      : session.mode === 'edit'
        ? `Edit ${shownName}`
        : `Review the new sample of ${shownName}`;

  // A 422 whose messages all found their inputs needs no second copy up here.
  const pinned = isApiError(save.error) && save.error.errors.length > 0;
  const failure = save.error && !pinned ? describeError(save.error) : null;
  const showSummary =
    failure !== null || errors.general.length > 0 || (pinned && hasErrors(errors));

  return (
    <section aria-labelledby={`${id}-heading`} className="grid gap-6">
      <header className="grid gap-1">
        <h2
          id={`${id}-heading`}
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold tracking-tight outline-none"
        >
          {title}
        </h2>
        <p className="text-muted-foreground text-sm">
          <span className="font-mono">{entryKey({ recordType, alias })}</span> ·{' '}
          {RECORD_TYPE_LABELS[recordType]}
          {session.sample && <> · {sampleSummary(session.sample)}</>}
        </p>
      </header>

      {changes && session.sample && (
        <section
          aria-labelledby={`${id}-changes`}
          className="bg-muted/40 grid gap-2 rounded-lg border p-4"
        >
          <h3 id={`${id}-changes`} className="text-sm font-semibold">
            What the new sample changed
          </h3>
          <p className="text-muted-foreground text-sm">
            Your saved names, types, flags and values are kept; the sample only adds to them.
          </p>
          <ul className="grid list-disc gap-1 pl-5 text-sm" data-testid="resample-changes">
            {changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
          <div>
            <Button variant="outline" size="sm" onClick={adoptProposal}>
              <RotateCcw aria-hidden="true" />
              Use the new sample as proposed instead
            </Button>
          </div>
        </section>
      )}

      {session.sample && session.sample.notes.length > 0 && (
        <section aria-labelledby={`${id}-notes`} className="grid gap-2">
          <h3 id={`${id}-notes`} className="text-sm font-semibold">
            Notes from sampling
          </h3>
          <ul className="text-muted-foreground grid list-disc gap-1 pl-5 text-sm">
            {session.sample.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </section>
      )}

      <form ref={form} noValidate onSubmit={submit} className="grid gap-6">
        {showSummary && (
          <div ref={summary} tabIndex={-1} className="outline-none">
            <Alert variant="destructive">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>{failure ? failure.title : 'Some entries need attention'}</AlertTitle>
              <AlertDescription>
                {failure && <p>{failure.description}</p>}
                {!failure && errors.general.length === 0 && (
                  <p>The messages are shown beside the entries they are about.</p>
                )}
                {errors.general.length > 0 && (
                  <ul className="list-disc pl-5">
                    {errors.general.map((message) => (
                      <li key={message}>{message}</li>
                    ))}
                  </ul>
                )}
              </AlertDescription>
            </Alert>
          </div>
        )}

        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid content-start gap-1.5">
            <Label htmlFor={inputId('name')}>Record type name</Label>
            <Input
              id={inputId('name')}
              value={draft.name}
              autoComplete="off"
              aria-required
              aria-invalid={errors.top.name ? true : undefined}
              aria-describedby={errorId('name')}
              onChange={(event) => setTop('name', event.target.value)}
            />
            <InputError id={`${id}-name-error`} message={errors.top.name} />
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={inputId('handle')}>Handle</Label>
            <Input
              id={inputId('handle')}
              value={draft.handle}
              autoComplete="off"
              aria-invalid={errors.top.handle ? true : undefined}
              aria-describedby={[`${id}-handle-hint`, errorId('handle')].filter(Boolean).join(' ')}
              onChange={(event) => setTop('handle', event.target.value)}
            />
            <p id={`${id}-handle-hint`} className="text-muted-foreground text-xs">
              The record type&apos;s handle in the service, as in SUP for SUP-42.
            </p>
            <InputError id={`${id}-handle-error`} message={errors.top.handle} />
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={inputId('titleField')}>Title field</Label>
            <NativeSelect
              id={inputId('titleField')}
              value={draft.titleKey}
              aria-invalid={errors.top.titleField ? true : undefined}
              aria-describedby={[`${id}-title-hint`, errorId('titleField')]
                .filter(Boolean)
                .join(' ')}
              onChange={(event) => {
                const titleKey = event.target.value;
                setDraft((d) => ({ ...d, titleKey }));
              }}
            >
              <option value="">None</option>
              {titleOptions.map((field) => (
                <option key={field.key} value={field.key}>
                  {fieldLabel(field, draft.fields.indexOf(field))}
                </option>
              ))}
            </NativeSelect>
            <p id={`${id}-title-hint`} className="text-muted-foreground text-xs">
              The text field shown as a record&apos;s title in lists and pickers.
            </p>
            <InputError id={`${id}-titleField-error`} message={errors.top.titleField} />
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor={inputId('handleField')}>Handle field</Label>
            <NativeSelect
              id={inputId('handleField')}
              value={draft.handleKey}
              aria-invalid={errors.top.handleField ? true : undefined}
              aria-describedby={[`${id}-handlefield-hint`, errorId('handleField')]
                .filter(Boolean)
                .join(' ')}
              onChange={(event) => {
                const handleKey = event.target.value;
                setDraft((d) => ({ ...d, handleKey }));
              }}
            >
              <option value="">None: records can be listed but not opened</option>
              {draft.fields.map((field, index) => (
                <option key={field.key} value={field.key}>
                  {fieldLabel(field, index)}
                </option>
              ))}
            </NativeSelect>
            <p id={`${id}-handlefield-hint`} className="text-muted-foreground text-xs">
              The field that holds a record&apos;s handle, which the console opens records by.
            </p>
            <InputError id={`${id}-handleField-error`} message={errors.top.handleField} />
          </div>
        </div>

        <section aria-labelledby={`${id}-fields`} className="grid gap-3">
          <h3 id={`${id}-fields`} className="text-sm font-semibold">
            Fields
          </h3>
          <InputError id={`${id}-fields-error`} message={errors.top.fields} />
          <FieldsEditor
            idPrefix={id}
            fields={draft.fields}
            errors={errors.fields}
            onChange={setFields}
          />
        </section>

        <div className="flex flex-wrap justify-end gap-2 border-t pt-4">
          <Button variant="outline" onClick={onCancel} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <Save aria-hidden="true" />
            )}
            Save {shownName}
          </Button>
        </div>
      </form>
    </section>
  );
}
