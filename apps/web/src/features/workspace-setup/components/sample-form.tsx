import { useMutation } from '@tanstack/react-query';
import { AlertCircle, Loader2, ScanSearch } from 'lucide-react';
import { useId, useState } from 'react';

import type { RecordType, SampleInput, SampleResult, WorkspaceEntry } from '@wsc/api-client';
import { RecordTypeSchema, SampleInputSchema } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

import { sampleDefinition } from '../api/sample-definition.ts';
import { RECORD_TYPE_LABELS } from '../lib/draft.ts';
import { entryKey } from '../lib/entries.ts';

/** Marks the Sample button, where focus returns when the editor it opened is cancelled. */
export const SAMPLE_FOCUS_KEY = 'add:sample';

/**
 * "Add a record type": a record type and an alias; "Sample records" asks the BFF to read some of
 * them and hands its proposal on to the editor. A failure (403: the credential may not read the
 * alias; 404: no such alias) is said plainly under the form. A key the description already has is
 * refused here, pointing at its Edit and Re-sample instead, so a first sample never overwrites a
 * corrected definition.
 */
export function SampleForm({
  existing,
  onProposal,
}: {
  existing: WorkspaceEntry[];
  onProposal: (input: SampleInput, result: SampleResult) => void;
}) {
  const id = useId();
  const [recordType, setRecordType] = useState<RecordType>('apps');
  const [alias, setAlias] = useState('');
  const [aliasError, setAliasError] = useState<string>();
  const sample = useMutation({
    mutationFn: (input: SampleInput) => sampleDefinition(input),
    onSuccess: (result, input) => onProposal(input, result),
  });
  const failure = sample.error ? describeError(sample.error) : null;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    // aria-disabled keeps focus on the button while sampling, so a second submit is ignored here.
    if (sample.isPending) return;
    sample.reset();
    const parsed = SampleInputSchema.safeParse({ recordType, alias });
    if (!parsed.success) {
      setAliasError(parsed.error.issues[0]?.message ?? 'Enter the alias');
      document.getElementById(`${id}-alias`)?.focus();
      return;
    }
    const known = existing.find((entry) => entryKey(entry.definition) === entryKey(parsed.data));
    if (known) {
      setAliasError(
        known.source === 'file'
          ? `${known.definition.name} is already described by the operator's file.`
          : `${known.definition.name} is already described: use its Edit or Re-sample below.`,
      );
      document.getElementById(`${id}-alias`)?.focus();
      return;
    }
    setAliasError(undefined);
    sample.mutate(parsed.data);
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="grid gap-3 rounded-lg border p-4">
      <div className="grid gap-1">
        <h2 id={`${id}-heading`} className="text-base font-semibold">
          Add a record type
        </h2>
        <p className="text-muted-foreground text-sm">
          The console reads some of its records and proposes the fields; you check and correct the
          proposal before saving.
        </p>
      </div>
      <form
        noValidate
        onSubmit={submit}
        aria-busy={sample.isPending || undefined}
        className="grid items-start gap-3 sm:grid-cols-[12rem_minmax(0,1fr)_auto]"
      >
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-type`}>Record type</Label>
          <NativeSelect
            id={`${id}-type`}
            value={recordType}
            onChange={(event) => {
              setRecordType(event.target.value as RecordType);
              setAliasError(undefined);
            }}
          >
            {RecordTypeSchema.options.map((type) => (
              <option key={type} value={type}>
                {RECORD_TYPE_LABELS[type]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-alias`}>Alias</Label>
          <Input
            id={`${id}-alias`}
            value={alias}
            autoComplete="off"
            spellCheck={false}
            placeholder="support-tickets"
            aria-required
            aria-invalid={aliasError ? true : undefined}
            aria-describedby={[`${id}-alias-hint`, aliasError && `${id}-alias-error`]
              .filter(Boolean)
              .join(' ')}
            onChange={(event) => {
              setAlias(event.target.value);
              setAliasError(undefined);
            }}
          />
          <p id={`${id}-alias-hint`} className="text-muted-foreground text-xs">
            As in the service&apos;s URLs: /{recordType}/<em>alias</em>.
          </p>
          {aliasError && (
            <p id={`${id}-alias-error`} className="text-destructive text-sm">
              {aliasError}
            </p>
          )}
        </div>
        <Button
          type="submit"
          className="aria-disabled:cursor-wait sm:mt-5"
          data-focus-key={SAMPLE_FOCUS_KEY}
          aria-disabled={sample.isPending || undefined}
        >
          {sample.isPending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <ScanSearch aria-hidden="true" />
          )}
          {sample.isPending ? 'Sampling records…' : 'Sample records'}
        </Button>
      </form>
      {failure && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>{failure.title}</AlertTitle>
          <AlertDescription>{failure.description}</AlertDescription>
        </Alert>
      )}
    </section>
  );
}
