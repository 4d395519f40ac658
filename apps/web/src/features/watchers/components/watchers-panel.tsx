import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye, UserMinus, UsersRound } from 'lucide-react';
import { useId, useState } from 'react';

import type { WatcherTarget } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast.tsx';
import { UserPicker } from '@/components/user-picker.tsx';
import { personName } from '@/lib/people.ts';

import { addWatchers, removeWatchers, watchersQueryOptions } from '../api/watchers.ts';

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
  const queryClient = useQueryClient();
  const options = watchersQueryOptions(record);
  const query = useQuery(options);
  const pickerId = useId();
  const headingId = useId();
  // The picker is a one-shot chooser: it resets after each pick.
  const [pickerKey, setPickerKey] = useState(0);
  const refresh = () => queryClient.invalidateQueries({ queryKey: options.queryKey });

  const add = useMutation({
    mutationFn: (email: string) => addWatchers(record, [email]),
    onSuccess: (_void, email) => toast({ message: `${email} is now watching.` }),
    onSettled: () => {
      setPickerKey((k) => k + 1);
      return refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (email: string) => removeWatchers(record, [email]),
    onMutate: (email) => {
      queryClient.setQueryData(options.queryKey, (data) =>
        data
          ? {
              ...data,
              total: data.total === undefined ? undefined : data.total - 1,
              items: data.items.filter((w) => w.target.email !== email),
            }
          : data,
      );
    },
    onSuccess: (_void, email) => toast({ message: `${email} no longer watches ${record.id}.` }),
    onError: (error) => toast({ message: `Could not remove: ${describeError(error).title}` }),
    onSettled: () => refresh(),
  });
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
          disabled={add.isPending}
          onChange={(email) => {
            if (!email) return;
            if (watching.has(email.toLowerCase())) {
              toast({ message: `${email} is already watching.` });
              setPickerKey((k) => k + 1);
              return;
            }
            add.mutate(email);
          }}
        />
        {add.isError && (
          <p role="alert" className="text-destructive text-sm">
            {add.error.errors[0]?.message ?? describeError(add.error).description}
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
                    <span className="truncate text-sm font-medium">{name}</span>
                    <span className="text-muted-foreground truncate text-xs">
                      {target.type === 'Group'
                        ? 'Group · its members are notified'
                        : target.email || 'No email given'}
                    </span>
                  </div>
                  {isUser ? (
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-label={`Remove ${name} from watchers`}
                      title="Remove watcher"
                      onClick={() => remove.mutate(target.email)}
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
