// The administrators' erase (ADR 0026): one record's history, or everything the console's server
// keeps about one person (a right-to-erasure request), after a confirmation that says what goes
// and what stays. The server checks the administrator again; its refusal is shown here.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';

import type { Definition, RecordType } from '@wsc/api-client';
import type { PersonErased } from '@wsc/api-client/bff-history';
import { isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { toast } from '@/components/ui/toast.tsx';

import { erasePerson, eraseRecordHistory, historyKeys } from '../api/history.ts';
import { PeopleSelect } from './people-select.tsx';

type What = 'person' | 'record';

const CHOICES: [What, string][] = [
  ['record', 'One record’s history'],
  ['person', 'Everything kept about a person'],
];

/**
 * What a person's erase removed, in words.
 *
 * @example
 * personErasedText({ history: 3, presence: 0, savedViews: 1, bulkRuns: 0, preferences: 0, sessions: 1, budget: 1 });
 * // 'Erased 3 history entries, 1 saved view and 1 session.'
 */
export function personErasedText(erased: PersonErased): string {
  const parts = [
    [erased.history, 'history entry', 'history entries'],
    [erased.savedViews, 'saved view', 'saved views'],
    [erased.bulkRuns, 'bulk run', 'bulk runs'],
    [erased.preferences, 'preference', 'preferences'],
    [erased.presence, 'open-record marker', 'open-record markers'],
    [erased.sessions, 'session', 'sessions'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  if (said.length === 0) return 'Nothing was kept about this person.';
  const last = said.pop();
  return `Erased ${said.length > 0 ? `${said.join(', ')} and ${last}` : last}.`;
}

function EraseFields({
  what,
  definitions,
  person,
}: {
  what: What;
  definitions: readonly Definition[];
  person: string | undefined;
}) {
  const id = useId();
  if (what === 'person') {
    return (
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-person`}>Person</Label>
        <PeopleSelect id={`${id}-person`} name="person" defaultValue={person} required />
        <p className="text-muted-foreground text-xs">
          Erased in this region: their history entries, open-record markers, saved views and their
          shares, bulk runs, preferences, and their sessions (they are signed out). Not erased:
          their name or email inside other people&apos;s entries (a value they were assigned, a
          watcher list), and anything the workspace itself keeps.
        </p>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-definition`}>Record type</Label>
        <NativeSelect id={`${id}-definition`} name="definition" required className="w-48">
          {definitions.map((d) => (
            <option key={`${d.recordType}/${d.alias}`} value={`${d.recordType}/${d.alias}`}>
              {d.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-record`}>Record</Label>
        <Input id={`${id}-record`} name="record" required placeholder="SUP-42" className="w-40" />
      </div>
    </div>
  );
}

/** Runs the erase the form names; the message of the toast. */
async function erase(what: What, form: FormData): Promise<string> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value.trim() : '';
  };
  if (what === 'person') {
    const person = text('person');
    if (!person) throw new Error('Choose a person.');
    return personErasedText(await erasePerson(person));
  }
  const [recordType, alias] = text('definition').split('/');
  const id = text('record');
  if (!recordType || !alias || !id) throw new Error('Choose a record type and name a record.');
  const erased = await eraseRecordHistory({ recordType: recordType as RecordType, alias, id });
  return `Erased ${erased.history} history ${erased.history === 1 ? 'entry' : 'entries'} of ${id}.`;
}

/**
 * The dialog; `person` preselects the person the log is filtered by.
 *
 * @example
 * {erasing && <EraseDialog definitions={items} person={filters.user} onClose={() => setErasing(false)} />}
 */
export function EraseDialog({
  definitions,
  person,
  onClose,
}: {
  definitions: readonly Definition[];
  person: string | undefined;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [what, setWhat] = useState<What>(person ? 'person' : 'record');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    setBusy(true);
    setError(undefined);
    try {
      const message = await erase(what, form);
      await queryClient.invalidateQueries({ queryKey: historyKeys.all });
      toast({ message });
      onClose();
    } catch (caught) {
      setError(
        !isApiError(caught) && caught instanceof Error
          ? caught.message
          : describeError(caught).title,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit(new FormData(event.currentTarget));
          }}
        >
          <DialogHeader>
            <DialogTitle>Erase from the history</DialogTitle>
            <DialogDescription>
              Erasing cannot be undone. The records themselves are not changed.
            </DialogDescription>
          </DialogHeader>
          <fieldset className="grid gap-1">
            <legend className="mb-1 text-sm font-medium">What to erase</legend>
            {CHOICES.map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="what"
                  checked={what === value}
                  onChange={() => setWhat(value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <EraseFields what={what} definitions={definitions} person={person} />
          {error && (
            <p role="alert" className="text-destructive text-sm">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={busy}>
              Erase
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
