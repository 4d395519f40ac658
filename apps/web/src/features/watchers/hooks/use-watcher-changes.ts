import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

import type { RecordRef } from '@/queries/records.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { toast } from '@/components/ui/toast.tsx';
import { useOptimisticStore, usePendingListChanges } from '@/lib/use-optimistic.ts';

import {
  addWatchers,
  removeWatchers,
  watchersQueryOptions,
  withoutWatcher,
  withWatcher,
} from '../api/watchers.ts';

/** A watcher change not confirmed yet. */
export interface WatcherChange {
  kind: 'add' | 'remove';
  email: string;
}

/**
 * Adding and removing watchers, optimistic (ADR 0028): the list shows the change at once, the
 * pending ones are listed (`pending`), and a refusal puts the list back and says why (`addError`
 * under the picker for a person who cannot watch, a toast for a removal). The list is read again
 * after each change either way.
 *
 * @example
 * const { add, remove, pending } = useWatcherChanges(record);
 * add('ada@helpdesk.example');
 */
export function useWatcherChanges(record: RecordRef) {
  const queryClient = useQueryClient();
  const store = useOptimisticStore();
  const { queryKey } = watchersQueryOptions(record);
  const pending = usePendingListChanges<WatcherChange>(queryKey);
  const [addError, setAddError] = useState<unknown>(null);
  const { recordType, alias, id } = record;

  const change = useCallback(
    async (kind: WatcherChange['kind'], email: string) => {
      const ref = { recordType, alias, id };
      const key = watchersQueryOptions(ref).queryKey;
      const outcome = await store.changeList({
        queryKey: key,
        apply: (list: Parameters<typeof withWatcher>[0]) =>
          kind === 'add' ? withWatcher(list, email) : withoutWatcher(list, email),
        send: () => (kind === 'add' ? addWatchers(ref, [email]) : removeWatchers(ref, [email])),
        meta: { kind, email } satisfies WatcherChange,
      });
      void queryClient.invalidateQueries({ queryKey: key });
      if (outcome.status === 'confirmed') {
        toast({
          message:
            kind === 'add' ? `${email} is now watching.` : `${email} no longer watches ${id}.`,
        });
      } else if (outcome.status === 'refused') {
        if (kind === 'add') setAddError(outcome.error);
        else toast({ message: `Could not remove ${email}: ${describeError(outcome.error).title}` });
      }
    },
    [store, queryClient, recordType, alias, id],
  );

  const add = useCallback(
    (email: string) => {
      setAddError(null);
      void change('add', email);
    },
    [change],
  );
  const remove = useCallback((email: string) => void change('remove', email), [change]);
  return { add, remove, pending, addError };
}
