// Records, their related items, element definitions and the definitions extension.
import type { RecordType } from '../schemas/common.ts';
import type { RecordData, RecordInput } from '../schemas/records.ts';
import type {
  CallOptions,
  PageOptions,
  RequestSpec,
  Transport,
  WriteOptions,
} from './transport.ts';
import { BASE_VALUES_HEADER, encodeBaseValues } from '../base-values.ts';
import { filterForProfile } from '../filter.ts';
import { parseOptionalResponse } from '../parse-response.ts';
import {
  AspectSchema,
  DefinitionListSchema,
  RecordPagedListSchema,
  RecordSchema,
  RelatedPagedListSchema,
} from '../schemas/records.ts';
import { notInContract, pageQuery, path } from './transport.ts';

/** Record search: paging, RSQL `filter` and `sort` (`-Created At,Title`; extended profile only). */
export type SearchOptions = PageOptions & { filter?: string; sort?: string };

/** A record write's answer: the record as the server sent it (possibly without `id`) and its ETag. */
export interface RecordReply {
  record: RecordData;
  etag: string | undefined;
}

/**
 * The path of one record, every segment encoded.
 *
 * @example
 * recordPath('apps', 'support', 'SUP-42'); // '/apps/support/SUP-42'
 */
export const recordPath = (rt: RecordType, alias: string, id: string) =>
  path`/${rt}/${alias}/${id}`;

/** The conditional headers of a record PUT: `If-Match`, or the base values to check. */
function writeHeaders(opts?: {
  ifMatch?: string;
  baseValues?: RecordData;
}): Record<string, string> | undefined {
  if (opts?.ifMatch) return { 'If-Match': opts.ifMatch };
  if (opts?.baseValues) return { [BASE_VALUES_HEADER]: encodeBaseValues(opts.baseValues) };
  return undefined;
}

/**
 * The record methods of the API client.
 *
 * @example
 * const api = { ...recordMethods(createTransport({ baseUrl })) };
 */
export function recordMethods(t: Transport) {
  const { json, empty, hosted, profile } = t;
  const rec = recordPath;

  /** A record and its ETag (our API; the hosted one sends none). Any 2xx body, even none, is fine. */
  async function recordReply(spec: RequestSpec): Promise<RecordReply> {
    const response = await t.send(spec);
    const etag = response.headers.get('etag') ?? undefined;
    const record = await parseOptionalResponse(response, RecordSchema, t.label(spec));
    return { record: record ?? {}, etag };
  }

  return {
    /**
     * `GET /{recordType}/{alias}`: RSQL-filtered, cursor-paged records (`sort` in the extended
     * profile only). Hosted: the filter is rewritten into the published dialect, and element types
     * cannot be listed (that path is getElement there).
     */
    searchRecords: async (rt: RecordType, alias: string, opts?: SearchOptions) => {
      if (hosted && opts?.sort) throw notInContract('Sorting records (`sort`)');
      if (hosted && rt === 'elements') throw notInContract('Listing element records');
      return json(
        {
          method: 'GET',
          path: path`/${rt}/${alias}`,
          query: {
            filter: filterForProfile(opts?.filter, profile),
            sort: opts?.sort,
            ...pageQuery(opts),
          },
          signal: opts?.signal,
        },
        RecordPagedListSchema,
      );
    },
    /** `GET /{recordType}/{alias}/{id}`: the record and its `ETag` where the server sends one. */
    getRecord: (rt: RecordType, alias: string, id: string, opts?: CallOptions) =>
      recordReply({ method: 'GET', path: rec(rt, alias, id), signal: opts?.signal }),
    /** `POST /{recordType}/{alias}`: creates a record -> 201 and the record (maybe without `id`). */
    createRecord: async (
      rt: RecordType,
      alias: string,
      fields: RecordInput,
      opts?: WriteOptions,
    ): Promise<RecordData> =>
      (
        await recordReply({
          method: 'POST',
          path: path`/${rt}/${alias}`,
          json: fields,
          signal: opts?.signal,
          source: opts?.source,
        })
      ).record,
    /**
     * `PUT /{recordType}/{alias}/{id}`: merges fields; a stale `ifMatch` -> ApiError 412.
     * `baseValues` (the console to its BFF, without an ETag): the values the user saw of the
     * fields sent, in `X-Base-Values`; the BFF checks them and answers 412 with `latest`.
     */
    updateRecord: (
      rt: RecordType,
      alias: string,
      id: string,
      fields: RecordInput,
      opts?: WriteOptions & { ifMatch?: string; baseValues?: RecordData },
    ) =>
      recordReply({
        method: 'PUT',
        path: rec(rt, alias, id),
        json: fields,
        headers: writeHeaders(opts),
        signal: opts?.signal,
        source: opts?.source,
      }),
    /** `GET /elements/{alias}` (published getElement): an element definition's name and handle. */
    getElement: (alias: string, opts?: CallOptions) =>
      json({ method: 'GET', path: path`/elements/${alias}`, signal: opts?.signal }, AspectSchema),

    // ---- related items -----------------------------------------------------------------------
    /**
     * `GET .../related-items`: related records (symmetric relation). Paging parameters are sent to
     * extended servers only: the published operation declares none.
     */
    listRelated: (rt: RecordType, alias: string, id: string, page?: PageOptions) =>
      json(
        {
          method: 'GET',
          path: `${rec(rt, alias, id)}/related-items`,
          query: hosted ? undefined : pageQuery(page),
          signal: page?.signal,
        },
        RelatedPagedListSchema,
      ),
    /** `POST .../related-items {id, alias?}` -> 201 (relating twice is a no-op). */
    addRelated: (
      rt: RecordType,
      alias: string,
      id: string,
      item: { id: string; alias?: string },
      opts?: WriteOptions,
    ) =>
      empty({
        method: 'POST',
        path: `${rec(rt, alias, id)}/related-items`,
        json: item,
        signal: opts?.signal,
        source: opts?.source,
      }),
    /** `DELETE .../related-items/{relatedId}` (the related record's id) -> 200. */
    removeRelated: (
      rt: RecordType,
      alias: string,
      id: string,
      relatedId: string,
      opts?: WriteOptions,
    ) =>
      empty({
        method: 'DELETE',
        path: `${rec(rt, alias, id)}${path`/related-items/${relatedId}`}`,
        signal: opts?.signal,
        source: opts?.source,
      }),

    // ---- extensions (extended profile only) ---------------------------------------------------
    /** `GET /definitions` (extension): the record definitions the caller may see. */
    listDefinitions: async (opts?: CallOptions) => {
      if (hosted) throw notInContract('GET /definitions');
      return json(
        { method: 'GET', path: '/definitions', signal: opts?.signal },
        DefinitionListSchema,
      );
    },
  };
}
