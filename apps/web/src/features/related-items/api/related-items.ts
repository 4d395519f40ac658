import { queryOptions } from '@tanstack/react-query';

import type { Definition, RecordType } from '@wsc/api-client';

import { api } from '@/lib/api.ts';

import type { RelatedRow } from '../lib/related.ts';
import {
  findRelatedDefinition,
  pickerFilter,
  recordTypePath,
  titleLookups,
} from '../lib/related.ts';

/** Related items listed at once; the demo and typical triage records have far fewer. */
const RELATED_PAGE = 200;

/**
 * A record's related items with each related record's title, read in one `id=in=(...)` search per
 * definition (not one request per item). A failed title lookup leaves titles empty rather than
 * failing the list.
 *
 * @example
 * const { data } = useQuery(relatedItemsQueryOptions('apps', 'support-tickets', 'SUP-1', definitions));
 */
export function relatedItemsQueryOptions(
  recordType: RecordType,
  alias: string,
  id: string,
  definitions: Definition[],
) {
  return queryOptions({
    queryKey: ['related-items', recordType, alias, id],
    queryFn: async ({ signal }) => {
      const page = await api.listRelated(recordType, alias, id, { first: RELATED_PAGE, signal });
      const titles = new Map<string, string>();
      await Promise.all(
        titleLookups(page.items, definitions).map(async ({ definition, filter, ids }) => {
          const found = await api
            .searchRecords(definition.recordType, definition.alias, {
              filter,
              first: ids.length,
              signal,
            })
            .catch(() => undefined);
          for (const { data } of found?.items ?? []) {
            const title = definition.titleField ? data[definition.titleField] : undefined;
            if (data.id && title !== undefined) titles.set(data.id, title);
          }
        }),
      );
      const rows: RelatedRow[] = page.items.map((item) => ({
        ...item,
        recordType: recordTypePath(item.type),
        definition: findRelatedDefinition(item, definitions),
        title: titles.get(item.id),
      }));
      return { rows, total: page.total };
    },
    staleTime: 0,
  });
}

/**
 * Records of one definition matching a picker term (title contains it, or the exact id).
 *
 * @example
 * useQuery(relatedCandidatesQueryOptions(tasksDefinition, 'printer'));
 */
export function relatedCandidatesQueryOptions(definition: Definition, term: string) {
  const filter = pickerFilter(definition, term);
  return queryOptions({
    queryKey: ['records', definition.recordType, definition.alias, 'picker', filter ?? ''],
    queryFn: ({ signal }) =>
      api.searchRecords(definition.recordType, definition.alias, {
        filter,
        sort: '-Created At',
        first: 20,
        signal,
      }),
    staleTime: 30_000,
  });
}

/**
 * Relates two records (symmetric; relating twice is a no-op).
 *
 * @example
 * await addRelated({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }, { id: 'TSK-3', alias: 'tasks' });
 */
export function addRelated(
  record: { recordType: RecordType; alias: string; id: string },
  target: { id: string; alias: string },
) {
  return api.addRelated(record.recordType, record.alias, record.id, target);
}

/**
 * Removes a relation (both directions).
 *
 * @example
 * await removeRelated({ recordType: 'apps', alias: 'support-tickets', id: 'SUP-1' }, 'TSK-3');
 */
export function removeRelated(
  record: { recordType: RecordType; alias: string; id: string },
  relatedId: string,
) {
  return api.removeRelated(record.recordType, record.alias, record.id, relatedId);
}
