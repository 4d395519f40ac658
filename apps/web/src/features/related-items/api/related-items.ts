import { queryOptions } from '@tanstack/react-query';

import type { Definition, RecordType } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import { api } from '@/lib/api.ts';
import { mapLimit } from '@/lib/map-limit.ts';
import { recordKeys } from '@/queries/records.ts';

import type { RelatedRow } from '../lib/related.ts';
import {
  findRelatedDefinition,
  pickerFilter,
  recordTypePath,
  titleLookups,
} from '../lib/related.ts';

/**
 * Related items listed at once from our API; the demo and typical triage records have far fewer.
 * (The published operation takes no paging parameters, and the client sends none to it.)
 */
const RELATED_PAGE = 200;

/** Related records read one by one for their titles, where their type cannot be searched. */
const SINGLE_READS = 20;
/** ...this many at a time: the BFF admits 16 requests in flight per session, for the whole page. */
const SINGLE_READ_CONCURRENCY = 4;

/**
 * A record's related items with each related record's title, read in one `handle=in=(...)` search
 * per definition (not one request per item), or record by record (at most {@link SINGLE_READS})
 * for definitions the service cannot search. A failed title lookup leaves titles empty rather
 * than failing the list.
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
    queryKey: recordKeys.related({ recordType, alias, id }),
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
            const handle = recordHandle(data, definition);
            if (handle && title !== undefined) titles.set(handle, title);
          }
        }),
      );
      // What cannot be searched (hosted elements) is read one record at a time, for the first
      // few; the rest show their handle without a title rather than a made-up "Untitled".
      const singles = page.items
        .map((item) => ({ item, definition: findRelatedDefinition(item, definitions) }))
        .filter(({ definition }) => definition?.listable === false && definition.titleField)
        .slice(0, SINGLE_READS);
      await mapLimit(singles, SINGLE_READ_CONCURRENCY, async ({ item, definition }) => {
        if (!definition?.titleField) return;
        const found = await api
          .getRecord(definition.recordType as RecordType, definition.alias, item.id, { signal })
          .catch(() => undefined);
        const title = found?.record[definition.titleField];
        if (title !== undefined) titles.set(item.id, title);
      });
      const rows: RelatedRow[] = page.items.map((item) => {
        const definition = findRelatedDefinition(item, definitions);
        return {
          ...item,
          alias: item.alias ?? definition?.alias,
          recordType:
            recordTypePath(item.type) ?? (definition?.recordType as RecordType | undefined),
          definition,
          title: titles.get(item.id),
        };
      });
      return { rows, total: page.total ?? rows.length };
    },
    staleTime: 0,
  });
}

/**
 * Records of one definition matching a picker term (title contains it, or the exact handle):
 * newest first where the server sorts, else in its own order.
 *
 * @example
 * useQuery(relatedCandidatesQueryOptions(tasksDefinition, 'printer', true));
 */
export function relatedCandidatesQueryOptions(
  definition: Definition,
  term: string,
  serverSort: boolean,
) {
  const filter = pickerFilter(definition, term);
  const created = definition.fields.find((f) => f.readOnly && /^created (at|on)$/i.test(f.name));
  const sort = serverSort && created ? `-${created.name}` : undefined;
  return queryOptions({
    queryKey: recordKeys.picker(definition.recordType, definition.alias, filter ?? '', sort),
    queryFn: ({ signal }) =>
      api.searchRecords(definition.recordType, definition.alias, {
        filter,
        sort,
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
  return api.addRelated(record.recordType, record.alias, record.id, target, {
    source: 'related-items',
  });
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
  return api.removeRelated(record.recordType, record.alias, record.id, relatedId, {
    source: 'related-items',
  });
}
