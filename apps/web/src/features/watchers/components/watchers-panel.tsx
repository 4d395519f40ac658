import { useQuery } from '@tanstack/react-query';
import { Eye, UserMinus, UsersRound } from 'lucide-react';
import { useId, useState } from 'react';

import type { WatcherTarget } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { PendingMarker } from '@/components/pending-marker.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast.tsx';
import { UserPicker } from '@/components/user-picker.tsx';
import { personName } from '@/lib/people.ts';

import type { WatcherChange } from '../hooks/use-watcher-changes.ts';
import { watchersQueryOptions } from '../api/watchers.ts';
import { useWatcherChanges } from '../hooks/use-watcher-changes.ts';

/** What the panel's live marker says while changes are pending. */
function describePending(pending: readonly WatcherChange[]): string {
  const last = pending.at(-1);
  if (!last) return 'Saving…';
  return last.kind === 'add' ? `Adding ${last.email}…` : `Removing ${last.email}…`;
}

function initialsOf(target: WatcherTarget): string {
  const letters = `${target.firstName.charAt(0)}${target.lastName.charAt(0)}`;
  return (letters || target.name.charAt(0) || target.email.charAt(0) || '?').toUpperCase();
}

/**
 * Who watches a record: the list with name and email, add by searching active people, remove.
 * Groups can watch records too (the published contract shows them); the API adds and removes
 * watchers by email only, so group rows are shown read-only, saying why.
 */
export function WatchersPanel({ record }: { record: RecordRef }) {
  const query = useQuery(watchersQueryOptions(record));
  const pickerId = useId();
  const headingId = useId();
  // The picker is a one-shot chooser: it resets after each pick.
  const [pickerKey, setPickerKey] = useState(0);
  const { add, remove, pending, addError } = useWatcherChanges(record);
  const adding = new Set(pending.filter((c) => c.kind === 'add').map((c) => c.email));
  const watching = new Set(
    query.data?.items.filter((w) => w.target.email).map((w) => w.target.email.toLowerCase()),
  );
  const count = query.data ? (query.data.total ?? query.data.items.length) : undefined;

  return (
    <section aria-labelledby={headingId} className="grid content-start gap-4 px-6 py-4">
      <div className="grid gap-1.5">
        <Label htmlFor={pickerId}>Add a watcher</Label>
        <UserPicker
          key={pickerKey}
          id={pickerId}
          value=""
          placeholder="Search people by name or email…"
          onChange={() => undefined}
          // The whole person: the list shows their name at once, before it is read again.
          onPickUser={(person) => {
            if (watching.has(person.email.toLowerCase())) {
              toast({ message: `${person.email} is already watching.` });
            } else {
              add(person);
            }
            setPickerKey((k) => k + 1);
          }}
        />
        {addError !== null && (
          <p role="alert" className="text-destructive text-sm">
            Not added:{' '}
            {(isApiError(addError) && addError.errors[0]?.message) ||
              describeError(addError).description}
          </p>
        )}
      </div>
      <div className="grid gap-1">
        <h3
          id={headingId}
          className="text-muted-foreground text-xs font-medium tracking-wide uppercase"
        >
          Watchers{count !== undefined ? ` · ${count}` : ''}
        </h3>
        <PendingMarker pending={pending.length > 0} live label={describePending(pending)} />
        {query.isPending ? (
          <div className="grid gap-2" role="status" aria-busy="true" aria-label="Loading watchers">
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-11 w-full" />
            ))}
          </div>
        ) : query.isError ? (
          <ErrorPanel compact error={query.error} onRetry={() => void query.refetch()} />
        ) : query.data.items.length === 0 ? (
          <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center text-sm">
            <Eye className="size-5" aria-hidden="true" />
            Nobody is watching this record yet.
          </div>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Watchers">
            {query.data.items.map(({ id, target }, index) => {
              const isUser = target.type === 'User' && target.email !== '';
              const name =
                target.type === 'Group'
                  ? target.name || 'Unnamed group'
                  : personName(target, target.name || 'Unknown watcher');
              return (
                <li
                  key={id ?? `${target.type}-${target.id ?? index}`}
                  className="flex items-center gap-3 px-3 py-2"
                  data-testid="watcher-row"
                >
                  <span
                    aria-hidden="true"
                    className="bg-secondary text-secondary-foreground flex size-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold"
                  >
                    {target.type === 'Group' ? (
                      <UsersRound className="size-3.5" />
                    ) : (
                      initialsOf(target)
                    )}
                  </span>
                  <div className="grid min-w-0 flex-1 leading-tight">
                    <span className="flex min-w-0 items-center gap-2">
                      <span className="truncate text-sm font-medium">{name}</span>
                      <PendingMarker pending={adding.has(target.email)} />
                    </span>
                    <span className="text-muted-foreground truncate text-xs">
                      {target.type === 'Group'
                        ? 'Group · its members are notified'
                        : target.email || 'No email given'}
                    </span>
                  </div>
                  {isUser && adding.has(target.email) ? null : isUser ? (
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-label={`Remove ${name} from watchers`}
                      title="Remove watcher"
                      onClick={() => remove(target.email)}
                    >
                      <UserMinus aria-hidden="true" />
                    </Button>
                  ) : (
                    <span
                      className="text-muted-foreground text-xs"
                      title="The API adds and removes watchers by email only; change this one in Elementum"
                    >
                      Read-only
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
