import { useCallback, useState } from 'react';

import type { WatcherPagedList } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { toast } from '@/components/ui/toast.tsx';
import { useListChanges } from '@/lib/use-optimistic.ts';

import type { NewWatcher } from '../api/watchers.ts';
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
 * add({ email: 'ada@helpdesk.example', firstName: 'Ada', lastName: 'Lovelace' });
 */
export function useWatcherChanges(record: RecordRef) {
  const { change, pending } = useListChanges<WatcherPagedList, WatcherChange>(
    watchersQueryOptions(record).queryKey,
  );
  const [addError, setAddError] = useState<unknown>(null);

  const add = useCallback(
    async (person: NewWatcher) => {
      const { email } = person;
      setAddError(null);
      const outcome = await change(
        (list) => withWatcher(list, person),
        () => addWatchers(record, [email]),
        { kind: 'add', email },
      );
      if (outcome.status === 'confirmed') toast({ message: `${email} is now watching.` });
      if (outcome.status === 'refused') setAddError(outcome.error);
    },
    [change, record],
  );
  const remove = useCallback(
    async (email: string) => {
      const outcome = await change(
        (list) => withoutWatcher(list, email),
        () => removeWatchers(record, [email]),
        { kind: 'remove', email },
      );
      if (outcome.status === 'confirmed') {
        toast({ message: `${email} no longer watches ${record.id}.` });
      }
      if (outcome.status === 'refused') {
        toast({ message: `Could not remove ${email}: ${describeError(outcome.error).title}` });
      }
    },
    [change, record],
  );
  return {
    add: (person: NewWatcher) => void add(person),
    remove: (email: string) => void remove(email),
    pending,
    addError,
  };
}
