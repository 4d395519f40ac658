import type { Context } from 'hono';

import type { RecordPagedList, StoredRecord } from '@wsc/api-client/strict';

import type { RecordRow } from '../../db/schema.ts';
import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './records.routes.ts';
import { resolveDefinition, resolveRecord } from '../../identity/permissions.ts';
import { preconditionFailed } from '../../lib/errors.ts';
import { replyPaging } from '../../lib/profile.ts';
import { readJson } from '../../lib/validation.ts';
import {
  insertRecords,
  recordBody,
  recordEtag,
  toRecord,
  updateRecord,
  validateRecordInput,
} from '../../records/records.ts';
import { searchRecordPage } from '../../search/search-records.ts';

/**
 * `GET /v1/{recordType}/{alias}`: RSQL filter, sort (extended profile), keyset paging and total.
 * The hosted profile takes no `sort` (publishedQuery refuses it) and reads the published dialect.
 */
export async function searchRecords(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.searchRecords>,
) {
  const { recordType, alias } = request.params();
  const definition = await resolveDefinition(c, recordType, alias);
  const profile = c.var.deps.config.profile;
  const query = request.query();
  const { paging, total, items } = await searchRecordPage(
    c.var.deps,
    c.var.principal.clientId,
    definition,
    { filter: query.filter, sort: query.sort, page: query },
  );
  if (profile === 'hosted') return c.json({ paging: replyPaging(profile, paging), total, items });
  const body: RecordPagedList = { paging, total, items };
  return c.json(body);
}

/**
 * `POST /v1/{recordType}/{alias}`: 201 with the stored record; ETag and Location in the extended
 * profile only.
 */
export async function createRecord(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.createRecord>,
) {
  const { recordType, alias } = request.params();
  const definition = await resolveDefinition(c, recordType, alias);
  const body = await readJson(c);
  const { db, config } = c.var.deps;
  const changes = await validateRecordInput(db, definition, body, 'create', config.profile);
  const [row] = await insertRecords(db, definition, [changes.set], c.var.principal.email);
  if (!row) throw new Error('Insert returned no row');
  if (config.profile === 'hosted') return c.json(recordBody(row, definition, 'hosted'), 201);
  return c.json<StoredRecord>(toRecord(row, definition), 201, {
    ETag: recordEtag(row),
    Location: `/v1/${definition.recordType}/${definition.alias}/${row.id}`,
  });
}

/** `GET /v1/{recordType}/{alias}/{id}`: with ETag and If-None-Match in the extended profile. */
export async function getRecord(c: Context<AppEnv>, request: RouteInput<typeof routes.getRecord>) {
  const { recordType, alias, id } = request.params();
  const { definition, record } = await resolveRecord(c, recordType, alias, id);
  if (c.var.deps.config.profile === 'hosted') {
    return c.json(recordBody(record, definition, 'hosted'), 200, {
      'Cache-Control': 'private, no-cache',
    });
  }
  const etag = recordEtag(record);
  const ifNoneMatch = c.req.header('If-None-Match');
  if (ifNoneMatch && etagListMatches(ifNoneMatch, etag, true)) {
    return c.body(null, 304, { ETag: etag });
  }
  return c.json<StoredRecord>(toRecord(record, definition), 200, {
    ETag: etag,
    'Cache-Control': 'private, no-cache',
  });
}

/** Whether an If-Match / If-None-Match list names this ETag (`*` matches any). */
function etagListMatches(header: string, etag: string, weak: boolean): boolean {
  return header.split(',').some((raw) => {
    const candidate = raw.trim();
    if (candidate === '*') return true;
    const opaque = weak ? candidate.replace(/^W\//, '') : candidate;
    return opaque === etag;
  });
}

/**
 * `PUT /v1/{recordType}/{alias}/{id}`: merge update; a stale If-Match -> 412. The hosted profile
 * has no ETags: it ignores If-Match and answers without one (last write wins).
 */
export async function putRecord(c: Context<AppEnv>, request: RouteInput<typeof routes.putRecord>) {
  const { recordType, alias, id } = request.params();
  const { definition, record } = await resolveRecord(c, recordType, alias, id);
  const { db, config } = c.var.deps;
  const hosted = config.profile === 'hosted';
  const ifMatch = hosted ? undefined : c.req.header('If-Match');
  if (ifMatch !== undefined && !etagListMatches(ifMatch, recordEtag(record), false)) {
    throw preconditionFailed('The record changed since it was read', { ETag: recordEtag(record) });
  }
  const body = await readJson(c);
  const changes = await validateRecordInput(db, definition, body, 'update', config.profile);
  const reply = (row: RecordRow) =>
    hosted
      ? c.json(recordBody(row, definition, 'hosted'), 200)
      : c.json<StoredRecord>(toRecord(row, definition), 200, { ETag: recordEtag(row) });
  if (Object.keys(changes.set).length === 0 && changes.clear.length === 0) return reply(record);
  // With If-Match the write only applies to the version that was checked (no lost update in between).
  const updated = await updateRecord(
    db,
    definition,
    record.id,
    changes,
    c.var.principal.email,
    ifMatch === undefined ? undefined : record.version,
  );
  if (!updated) throw preconditionFailed('The record changed since it was read');
  return reply(updated);
}
