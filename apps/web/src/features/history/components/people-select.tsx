// The administrators' log filter by person: people are picked, never typed, and matched by their
// stable id (a name can be imitated by anyone who types an email at sign-in, ADR 0026). Each is
// shown with how verified their name is.
import { useQuery } from '@tanstack/react-query';

import type { HistoryActor } from '@wsc/api-client/bff-history';

import { bareName, identityKindLabel } from '@/components/person-name.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

import { historyActorsQueryOptions } from '../api/history.ts';

/**
 * A person as the filter offers them: "Alex Morgan (named by the operator)".
 *
 * @example
 * actorOption({ id: 'u1', name: 'a@x.example (unverified)', identity: 'self' });
 * // 'a@x.example (unverified: an email typed at sign-in)'
 */
export function actorOption(actor: HistoryActor): string {
  return `${bareName(actor.name)} (${identityKindLabel(actor.identity)})`;
}

/** People sorted by name, then id (two people may share a name; their ids never do). */
function sorted(actors: readonly HistoryActor[]): HistoryActor[] {
  return [...actors].sort(
    (a, b) => bareName(a.name).localeCompare(bareName(b.name)) || a.id.localeCompare(b.id),
  );
}

/**
 * The select (`name="user"`, value: the person's id; empty: everyone).
 *
 * @example
 * <PeopleSelect id={id} defaultValue={filters.user} />
 */
export function PeopleSelect({
  id,
  name = 'user',
  defaultValue,
  required = false,
  className,
}: {
  id: string;
  name?: string;
  defaultValue: string | undefined;
  /** Picking someone is required (the erase): no "Everyone" choice. */
  required?: boolean;
  className?: string;
}) {
  const actors = useQuery(historyActorsQueryOptions());
  const people = sorted(actors.data?.items ?? []);
  const known = !defaultValue || people.some((p) => p.id === defaultValue);
  return (
    <NativeSelect
      // Mounted again once the people arrive, so the chosen one is selected among them.
      key={actors.isSuccess ? 'people' : 'waiting'}
      id={id}
      name={name}
      defaultValue={defaultValue ?? ''}
      required={required}
      className={className}
    >
      <option value="">{required ? 'Choose a person' : 'Everyone'}</option>
      {people.map((person) => (
        <option key={person.id} value={person.id}>
          {actorOption(person)}
        </option>
      ))}
      {/* A person chosen before the list arrived (or no longer in it) stays chosen, by id. */}
      {!known && <option value={defaultValue}>{defaultValue}</option>}
    </NativeSelect>
  );
}
