// The BFF's record history (`/bff/history`, ADR 0024): its schemas and typed client, exported as
// their own subpath (`@wsc/api-client/bff-history`) rather than from the entry. The console's first
// load holds the entry's modules (zod schemas are built when their module loads), and only the
// history's own chunks need these.
import type { BffClientOptions } from './bff-client.ts';
import type { CallOptions } from './client/transport.ts';
import type { HistoryQuery, RecordHistoryQuery } from './schemas/bff-history.ts';
import type { RecordType } from './schemas/common.ts';
import { createTransport, path } from './client/transport.ts';
import {
  HistoryActorListSchema,
  HistoryPageSchema,
  PersonErasedSchema,
  RecordHistoryErasedSchema,
} from './schemas/bff-history.ts';

export * from './schemas/bff-history.ts';

/**
 * Creates the record history's client (same options and transport rules as createBffClient).
 *
 * @example
 * const history = createBffHistoryClient();
 * const page = await history.record('apps', 'support-tickets', 'SUP-1');
 */
export function createBffHistoryClient(options: BffClientOptions = {}) {
  const { json } = createTransport({
    baseUrl: options.baseUrl ?? '',
    fetch: options.fetch,
    retry: false,
    headers: { 'X-CSRF': '1' },
  });
  return {
    /** `GET /bff/history/{recordType}/{alias}/{id}`: one record's console changes, newest first; 404 when unreadable. */
    record: (
      recordType: RecordType,
      alias: string,
      id: string,
      query?: RecordHistoryQuery,
      opts?: CallOptions,
    ) =>
      json(
        {
          method: 'GET',
          path: path`/bff/history/${recordType}/${alias}/${id}`,
          query,
          signal: opts?.signal,
        },
        HistoryPageSchema,
      ),
    /** `GET /bff/history` (administrators; 403 otherwise): the region's whole log, filtered, newest first. */
    list: (query?: HistoryQuery, opts?: CallOptions) =>
      json({ method: 'GET', path: '/bff/history', query, signal: opts?.signal }, HistoryPageSchema),
    /** `GET /bff/history/actors` (administrators): the people the log names, by id. */
    actors: (opts?: CallOptions) =>
      json(
        { method: 'GET', path: '/bff/history/actors', signal: opts?.signal },
        HistoryActorListSchema,
      ),
    /** `DELETE /bff/history/{recordType}/{alias}/{id}` (administrators): one record's history. */
    eraseRecord: (recordType: RecordType, alias: string, id: string, opts?: CallOptions) =>
      json(
        {
          method: 'DELETE',
          path: path`/bff/history/${recordType}/${alias}/${id}`,
          signal: opts?.signal,
        },
        RecordHistoryErasedSchema,
      ),
    /** `DELETE /bff/history/people/{ownerId}` (administrators): everything kept about a person. */
    erasePerson: (ownerId: string, opts?: CallOptions) =>
      json(
        { method: 'DELETE', path: path`/bff/history/people/${ownerId}`, signal: opts?.signal },
        PersonErasedSchema,
      ),
  };
}
