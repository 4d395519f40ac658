import { AlertCircle, Loader2 } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';

import type { Definition, FieldProblem, RecordData } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { FieldEditor } from '@/components/field-editor.tsx';
import { PendingMarker } from '@/components/pending-marker.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Label } from '@/components/ui/label.tsx';

import { editableFields } from '../lib/columns.ts';

export type FieldErrors = Record<string, string>;

/**
 * Splits a 422's problems into per-field messages (shown next to the fields) and the rest.
 *
 * @example
 * splitProblems([{ field: 'Status', message: 'not in picklist' }], ['Status']);
 * // { byField: { Status: 'not in picklist' }, other: [] }
 */
export function splitProblems(problems: FieldProblem[], fieldNames: string[]) {
  const names = new Set(fieldNames);
  const byField: FieldErrors = {};
  const other: FieldProblem[] = [];
  for (const problem of problems) {
    if (names.has(problem.field)) byField[problem.field] ??= problem.message;
    else other.push(problem);
  }
  return { byField, other };
}

/**
 * A form's starting draft: every editable field's stored value ('' when unset), edits on top.
 *
 * @example
 * startDraft([statusField], { Status: 'New' }); // { Status: 'New' }
 */
export function startDraft(
  fields: readonly { name: string }[],
  base: RecordData,
  edits?: RecordData,
): RecordData {
  const start: RecordData = {};
  for (const field of fields) start[field.name] = base[field.name] ?? '';
  return { ...start, ...edits };
}

/**
 * The draft once the record it was based on moved from `before` to `after` (a save confirmed,
 * the full record arrived after its list row): a field the user left as it was follows the
 * record; a field the user changed keeps what they typed.
 *
 * @example
 * followBase({ Status: 'New', Title: 'A' }, { Status: 'New', Title: 'B' }, { Status: 'Open', Title: 'A' });
 * // { Status: 'Open', Title: 'B' }
 */
export function followBase(before: RecordData, after: RecordData, draft: RecordData): RecordData {
  const next: RecordData = {};
  for (const [name, value] of Object.entries(draft)) {
    next[name] = value === (before[name] ?? '') ? (after[name] ?? '') : value;
  }
  return next;
}

/**
 * The fields a save should send: only what the user changed, so that a concurrent edit of another
 * field is not overwritten with the value this form loaded.
 *
 * @example
 * changedFields({ Status: 'Open', Title: 'A' }, { Status: 'Closed', Title: 'A' }); // { Status: 'Closed' }
 */
export function changedFields(base: RecordData, draft: RecordData): RecordData {
  const out: RecordData = {};
  for (const [name, value] of Object.entries(draft)) {
    if ((base[name] ?? '') !== value) out[name] = value;
  }
  return out;
}

export interface RecordFormProps {
  definition: Definition;
  /** The stored record (edit) or `{}` (create). */
  base: RecordData;
  /** Edits kept across a conflict reload, applied over `base`. */
  initialDraft?: RecordData;
  mode: 'create' | 'edit';
  submitting: boolean;
  /**
   * The draft, when the parent keeps it (the editor: it follows a confirmed save and survives a
   * refusal); else the form keeps its own, started from `base` and `initialDraft`.
   */
  draft?: RecordData;
  onDraftChange?: React.Dispatch<React.SetStateAction<RecordData>>;
  /** Fields whose saved value is not confirmed yet (optimistic saves): marked "Saving…". */
  pendingFields?: ReadonlySet<string>;
  /** The last save's failure: a 422 shows next to the fields, anything else above them. */
  error: unknown;
  onSubmit: (fields: RecordData, draft: RecordData) => void;
  onCancel: () => void;
  /** Told when the form comes to hold unsaved changes, and when it no longer does (or goes). */
  onDirtyChange?: (dirty: boolean) => void;
  formId?: string;
}

/**
 * Create and edit form with one typed editor per field. Required fields carry `*` and
 * `aria-required`; server 422 problems appear next to their fields via `aria-describedby`.
 */
export function RecordForm({
  definition,
  base,
  initialDraft,
  mode,
  submitting,
  draft: keptDraft,
  onDraftChange,
  pendingFields,
  error,
  onSubmit,
  onCancel,
  onDirtyChange,
  formId,
}: RecordFormProps) {
  const fields = useMemo(() => editableFields(definition), [definition]);
  const [ownDraft, setOwnDraft] = useState<RecordData>(() =>
    startDraft(fields, base, initialDraft),
  );
  const draft = keptDraft ?? ownDraft;
  const setDraft = onDraftChange ?? setOwnDraft;
  const saving = pendingFields !== undefined && pendingFields.size > 0;
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  const prefix = useId();

  const serverProblems = isApiError(error) && error.status === 422 ? error.errors : [];
  const { byField, other } = splitProblems(
    serverProblems,
    fields.map((f) => f.name),
  );
  const errors: FieldErrors = { ...byField, ...localErrors };
  const changes = mode === 'edit' ? changedFields(base, draft) : draft;
  const dirty = Object.keys(changes).length > 0;
  useEffect(() => {
    if (!dirty) return;
    onDirtyChange?.(true);
    return () => onDirtyChange?.(false);
  }, [dirty, onDirtyChange]);
  // A 422 without per-field problems (the hosted service sends none) is shown whole, above the
  // fields: otherwise the user would see nothing at all.
  const generalError =
    error &&
    !(
      isApiError(error) &&
      ((error.status === 422 && serverProblems.length > 0) || error.status === 412)
    )
      ? error
      : null;

  function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing: FieldErrors = {};
    for (const field of fields) {
      if (field.required && (draft[field.name] ?? '').trim() === '')
        missing[field.name] = `${field.name} is required.`;
    }
    setLocalErrors(missing);
    if (Object.keys(missing).length > 0) {
      // Move focus to the first problem, as a screen reader user would otherwise not find it.
      const first = fields.find((f) => missing[f.name]);
      if (first) document.getElementById(`${prefix}-${fields.indexOf(first)}`)?.focus();
      return;
    }
    const body: RecordData = {};
    for (const [name, value] of Object.entries(changes)) {
      // On create, empty optional fields are left out rather than sent as ''.
      if (mode === 'create' && value === '') continue;
      body[name] = value;
    }
    onSubmit(body, draft);
  }

  return (
    <form id={formId} noValidate onSubmit={handleSubmit} className="flex min-h-0 flex-1 flex-col">
      <div className="grid flex-1 content-start gap-4 overflow-y-auto px-6 py-5">
        {generalError !== null && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>{describeError(generalError).title}</AlertTitle>
            <AlertDescription>{describeError(generalError).description}</AlertDescription>
          </Alert>
        )}
        {(other.length > 0 || Object.keys(errors).length > 0) && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>
              {Object.keys(errors).length + other.length === 1
                ? 'One field needs attention'
                : `${Object.keys(errors).length + other.length} fields need attention`}
            </AlertTitle>
            {other.length > 0 && (
              <AlertDescription>
                <ul className="list-disc pl-4">
                  {other.map((problem) => (
                    <li key={`${problem.field}:${problem.message}`}>
                      {problem.field}: {problem.message}
                    </li>
                  ))}
                </ul>
              </AlertDescription>
            )}
          </Alert>
        )}
        {mode === 'create' && fields.some((f) => f.required) && (
          <p className="text-muted-foreground text-xs">
            Fields marked{' '}
            <span aria-hidden="true" className="text-destructive">
              *
            </span>
            <span className="sr-only">with an asterisk</span> are required.
          </p>
        )}
        {fields.map((field, index) => {
          const id = `${prefix}-${index}`;
          const labelId = `${id}-label`;
          const message = errors[field.name];
          const errorId = message ? `${id}-error` : undefined;
          return (
            <div key={field.name} className="grid gap-1.5" data-field={field.name}>
              <div className="flex items-center gap-2">
                <Label htmlFor={id} id={labelId}>
                  {field.name}
                  {field.required && (
                    <span aria-hidden="true" className="text-destructive">
                      *
                    </span>
                  )}
                </Label>
                {pendingFields && (
                  <PendingMarker pending={pendingFields.has(field.name)} live className="ml-auto" />
                )}
              </div>
              <FieldEditor
                field={field}
                id={id}
                labelledBy={labelId}
                value={draft[field.name] ?? ''}
                onChange={(value) => {
                  setDraft((current) => ({ ...current, [field.name]: value }));
                  if (localErrors[field.name]) {
                    setLocalErrors(({ [field.name]: _removed, ...rest }) => rest);
                  }
                }}
                invalid={message !== undefined}
                describedBy={errorId}
                disabled={submitting}
              />
              {message && (
                <p id={errorId} className="text-destructive text-sm">
                  {message}
                </p>
              )}
            </div>
          );
        })}
      </div>
      <div className="bg-background flex items-center justify-end gap-2 border-t px-6 py-3">
        {mode === 'edit' && (dirty || saving) && (
          <span className="text-muted-foreground mr-auto text-xs">
            {dirty ? 'Unsaved changes' : 'Saving…'}
          </span>
        )}
        <Button variant="ghost" onClick={onCancel} disabled={submitting}>
          {mode === 'edit' && dirty ? 'Discard' : 'Cancel'}
        </Button>
        <Button type="submit" disabled={submitting || (mode === 'edit' && !dirty)}>
          {submitting && <Loader2 className="animate-spin" aria-hidden="true" />}
          {mode === 'create' ? 'Create record' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
