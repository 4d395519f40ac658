import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Loader2, UserRound, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';

import type { User } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { cn } from '@/lib/utils.ts';
import { userSearchQueryOptions } from '@/queries/users.ts';

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export interface UserPickerProps {
  id?: string;
  /** The selected user's email ('' for none): USER_ID fields store emails. */
  value: string;
  onChange: (email: string) => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  required?: boolean;
  disabled?: boolean;
  placeholder?: string;
  /** Accessible name when no `<label htmlFor>` points at the input. */
  ariaLabel?: string;
  /**
   * Also receives the whole picked user, for callers that need more than the email (group
   * membership works with user ids). Pickers that collect several people pass `value=""` and
   * keep their own list.
   */
  onPickUser?: (user: User) => void;
}

/**
 * A combobox (WAI-ARIA 1.2 pattern) that searches active users on `/users` as the user types.
 * Arrow keys move, Enter picks, Escape closes; the stored value is the user's email.
 */
export function UserPicker({
  id,
  value,
  onChange,
  invalid,
  describedBy,
  required,
  disabled,
  placeholder = 'Search people…',
  ariaLabel,
  onPickUser,
}: UserPickerProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  const debounced = useDebounced(term, 200);
  // The last results stay listed while the next search runs (the popup says it is busy), so the
  // list does not empty and refill under the pointer on every keystroke.
  const query = useQuery({
    ...userSearchQueryOptions(debounced),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const users: User[] = query.data?.items ?? [];
  const activeUser = users[Math.min(active, users.length - 1)];
  const settling = open && (term !== debounced || query.isFetching);
  const expanded = open && users.length > 0;

  function pick(user: User) {
    onChange(user.email);
    onPickUser?.(user);
    setOpen(false);
    setTerm('');
  }

  function handleKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) setOpen(true);
      else setActive((i) => Math.min(i + 1, users.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter' && open) {
      // Enter picks the highlighted person instead of submitting the surrounding form; never
      // while the results settle: the list still shows the previous term's people.
      event.preventDefault();
      if (activeUser && !settling) pick(activeUser);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      setTerm('');
    }
  }

  return (
    <div className="relative" data-slot="user-picker">
      <UserRound
        aria-hidden="true"
        className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
      />
      <Input
        id={id}
        role="combobox"
        aria-label={ariaLabel}
        aria-expanded={expanded}
        aria-controls={expanded ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={open && activeUser ? `${listId}-${activeUser.id}` : undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-required={required || undefined}
        autoComplete="off"
        disabled={disabled}
        placeholder={value ? undefined : placeholder}
        value={open ? term : value}
        onChange={(event) => {
          setTerm(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={handleKeyDown}
        onBlur={() => {
          setOpen(false);
          setTerm('');
        }}
        className={cn('pl-8', value && !required && 'pr-9')}
      />
      {value && !required && !disabled && (
        <Button
          variant="ghost"
          size="icon-sm"
          className="absolute top-1/2 right-0.5 size-7 -translate-y-1/2"
          aria-label="Clear person"
          onClick={() => onChange('')}
        >
          <X aria-hidden="true" />
        </Button>
      )}
      {open && (
        // Results settle 200 ms after the last keystroke: until then (and while fetching) the
        // popup is aria-busy. Messages go in a live status beside the listbox, never inside it:
        // a listbox must hold only options.
        <div
          data-slot="user-picker-popup"
          aria-busy={settling}
          className="bg-popover text-popover-foreground absolute z-50 mt-1 max-h-64 w-full overflow-auto rounded-md border p-1 shadow-md"
        >
          {users.length > 0 && (
            <ul id={listId} role="listbox" aria-label="People">
              {users.map((user) => (
                <li
                  key={user.id}
                  id={`${listId}-${user.id}`}
                  role="option"
                  aria-selected={user.id === activeUser?.id}
                  // mousedown, not click: the input's blur would close the list before a click lands.
                  onMouseDown={(event) => {
                    event.preventDefault();
                    pick(user);
                  }}
                  className="aria-selected:bg-accent aria-selected:text-accent-foreground flex cursor-default flex-col rounded-sm px-2 py-1.5 text-sm"
                >
                  <span className="font-medium">
                    {user.firstName} {user.lastName}
                  </span>
                  <span className="text-muted-foreground text-xs">{user.email}</span>
                </li>
              ))}
            </ul>
          )}
          {users.length === 0 && (
            <p
              role="status"
              className={cn(
                'flex items-center gap-2 px-2 py-1.5 text-sm',
                query.isError ? 'text-destructive' : 'text-muted-foreground',
              )}
            >
              {query.isPending ? (
                <>
                  <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Searching…
                </>
              ) : query.isError ? (
                'Could not search people.'
              ) : (
                <>No one matches “{term}”.</>
              )}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
