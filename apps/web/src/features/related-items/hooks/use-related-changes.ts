import { useCallback, useState } from 'react';

import type { Definition } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { toast } from '@/components/ui/toast.tsx';
import { useListChanges } from '@/lib/use-optimistic.ts';
import { recordKeys } from '@/queries/records.ts';

import type { RelatedList, RelatedRow } from '../lib/related.ts';
import { addRelated, removeRelated } from '../api/related-items.ts';
import { relatedRowFor, withoutRelated, withRelated } from '../lib/related.ts';

/** A relation change not confirmed yet. */
export interface RelatedChange {
  kind: 'add' | 'remove';
  id: string;
}

/**
 * Relating and unrelating records, optimistic (ADR 0028): the list shows the change at once
 * (`pending` lists what is not confirmed yet); a refusal puts it back and says why (`addError`
 * in the picker, a toast for a removal). A removal, once stored, offers Undo. The list is read
 * again after each change either way.
 *
 * @example
 * const { add, remove, pending } = useRelatedChanges(record);
 * add(tasksDefinition, 'TSK-3', 'Replace toner');
 */
export function useRelatedChanges(record: RecordRef) {
  const { change: changeList, pending } = useListChanges<RelatedList, RelatedChange>(
    recordKeys.related(record),
  );
  const [addError, setAddError] = useState<unknown>(null);

  const change = useCallback(
    (kind: RelatedChange['kind'], row: RelatedRow) =>
      changeList(
        (list) => (kind === 'add' ? withRelated(list, row) : withoutRelated(list, row.id)),
        () =>
          kind === 'add'
            ? addRelated(record, { id: row.id, alias: row.alias ?? '' })
            : removeRelated(record, row.id),
        { kind, id: row.id },
      ),
    [changeList, record],
  );
  const add = useCallback(
    async (definition: Definition, handle: string, title: string | undefined) => {
      setAddError(null);
      const outcome = await change('add', relatedRowFor(definition, handle, title));
      if (outcome.status === 'confirmed') toast({ message: `Related ${handle}.` });
      if (outcome.status === 'refused') setAddError(outcome.error);
    },
    [change],
  );

  const remove = useCallback(
    async (row: RelatedRow) => {
      const outcome = await change('remove', row);
      if (outcome.status === 'refused') {
        toast({ message: `Could not remove ${row.id}: ${describeError(outcome.error).title}` });
        return;
      }
      if (outcome.status !== 'confirmed') return;
      toast({
        message: `Removed the relation to ${row.id}.`,
        // The relation carries no data of its own, so relating again restores it exactly.
        action: {
          label: 'Undo',
          onClick: () =>
            void change('add', row).then((undone) => {
              if (undone.status === 'refused')
                toast({ message: describeError(undone.error).title });
            }),
        },
      });
    },
    [change],
  );

  return { add, remove, pending, addError };
}
