import { Loader2, UserPlus, X } from 'lucide-react';
import { useId, useState } from 'react';

import type { User } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import { UserPicker } from '@/components/user-picker.tsx';

/**
 * Picks several people (the shared people search, one at a time, gathered as removable chips) and
 * adds them in one request.
 */
export function AddMembers({
  onAdd,
  pending,
}: {
  /** Resolves once the change is done; the chosen people are then cleared. */
  onAdd: (users: User[]) => Promise<unknown>;
  pending: boolean;
}) {
  const [chosen, setChosen] = useState<User[]>([]);
  const inputId = useId();
  const count = chosen.length;

  return (
    <form
      aria-labelledby={`${inputId}-label`}
      className="bg-card grid gap-2 rounded-lg border p-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (count === 0) return;
        // On failure the people stay chosen, to try again; the page shows the error.
        void onAdd(chosen).then(
          () => setChosen([]),
          () => undefined,
        );
      }}
    >
      <label id={`${inputId}-label`} htmlFor={inputId} className="text-sm font-medium">
        Add members
      </label>
      {count > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="People to add">
          {chosen.map((user) => (
            <li
              key={user.id}
              className="bg-secondary inline-flex items-center gap-1 rounded-md border py-0.5 pr-0.5 pl-2 text-xs"
            >
              {user.firstName} {user.lastName}
              <button
                type="button"
                aria-label={`Don't add ${user.firstName} ${user.lastName}`}
                className="hover:bg-accent focus-visible:ring-ring/50 rounded-sm p-0.5 focus-visible:ring-[3px] focus-visible:outline-none"
                onClick={() => setChosen((list) => list.filter((u) => u.id !== user.id))}
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-start gap-2">
        <div className="min-w-56 flex-1">
          <UserPicker
            id={inputId}
            value=""
            // The picker reports the email; the whole user (and its id) arrives in onPickUser.
            onChange={() => undefined}
            onPickUser={(user) =>
              setChosen((list) => (list.some((u) => u.id === user.id) ? list : [...list, user]))
            }
            placeholder="Search people to add…"
            disabled={pending}
          />
        </div>
        <Button type="submit" disabled={count === 0 || pending}>
          {pending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <UserPlus aria-hidden="true" />
          )}
          {count > 1 ? `Add ${count} members` : 'Add member'}
        </Button>
      </div>
    </form>
  );
}
