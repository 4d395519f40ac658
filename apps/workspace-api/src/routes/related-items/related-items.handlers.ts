// Related items: a symmetric relation between two records, stored in both directions so that each
// side lists its relations with one index range scan.
import type { Context } from 'hono';
import { sql } from 'kysely';

import type { RecordTypeUpper, RelatedItem, RelatedPagedList } from '@wsc/api-client/strict';

import type { RecordsTable } from '../../db/schema.ts';
import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './related-items.routes.ts';
import { allowedAliases, resolveRecordById } from '../../identity/permissions.ts';
import { forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { pageBySeq, parsePageQuery } from '../../lib/paging.ts';
import { replyPaging } from '../../lib/profile.ts';
import { recordAt } from '../record-path.ts';

const TYPE_UPPER: Record<RecordsTable['record_type'], RecordTypeUpper> = {
  apps: 'APP',
  elements: 'ELEMENT',
  tasks: 'TASK',
  transactions: 'TRANSACTION',
};

/**
 * Throws 403 when a record id's definition is closed to the caller. Decided from the id's handle
 * alone (before any lookup), so a MEMBER cannot probe which ids exist in a definition they cannot see.
 */
async function assertTargetOpen(c: Context<AppEnv>, targetId: string): Promise<void> {
  const definition = c.var.deps.workspace.findByRecordId(targetId);
  if (definition && !(await allowedAliases(c)).has(definition.alias)) {
    throw forbidden(`You have no access to ${definition.recordType}/${definition.alias}`);
  }
}

/**
 * `GET .../related-items`: paged, oldest relation first; only records of definitions the caller may
 * see. The published operation takes no paging parameters, so hosted clients get the first page.
 */
export async function listRelated(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.listRelated>,
) {
  const { record } = await recordAt(c, request.params());
  const { db, cursorKey } = c.var.deps;
  const aliases = [...(await allowedAliases(c))];
  const scope = `related:${record.id}`;
  const page = parsePageQuery(request.query(), cursorKey, scope);
  const base = db
    .selectFrom('record_relations as rr')
    .innerJoin('records as r', 'r.id', 'rr.related_id')
    .where('rr.record_id', '=', record.id)
    // An empty `in ()` is invalid SQL; `false` keeps the query valid for a caller who sees nothing.
    .where((eb) => (aliases.length > 0 ? eb('r.alias', 'in', aliases) : sql<boolean>`false`));
  const [{ rows, cursors, paging }, count] = await Promise.all([
    pageBySeq(page, cursorKey, scope, (bound, order, limit) =>
      base
        .select(['rr.related_id as id', 'r.record_type', 'r.alias', 'rr.seq'])
        .$if(bound !== null, (q) => q.where('rr.seq', bound?.op ?? '>', bound?.seq ?? 0))
        .orderBy('rr.seq', order)
        .limit(limit)
        .execute(),
    ),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
  ]);
  const items: RelatedItem[] = rows.map((row, index) => ({
    id: row.id,
    type: TYPE_UPPER[row.record_type],
    alias: row.alias,
    cursor: cursors[index] ?? '',
  }));
  const profile = c.var.deps.config.profile;
  const total = Number(count?.n ?? 0);
  if (profile === 'hosted') return c.json({ paging: replyPaging(profile, paging), total, items });
  const body: RelatedPagedList = { paging, total, items };
  return c.json(body);
}

/** `POST .../related-items {id, alias?}` -> 201; relating twice is a no-op. */
export async function addRelated(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.addRelated>,
) {
  const { record } = await recordAt(c, request.params());
  const input = await request.body();
  if (input.id === record.id)
    throw unprocessable([{ field: 'id', message: 'A record cannot be related to itself' }]);
  await assertTargetOpen(c, input.id);
  const target = await resolveRecordById(c, input.id);
  if (!target) throw unprocessable([{ field: 'id', message: `No record ${input.id}` }]);
  if (input.alias !== undefined && input.alias !== target.definition.alias) {
    throw unprocessable([
      {
        field: 'alias',
        message: `${input.id} belongs to ${target.definition.alias}, not ${input.alias}`,
      },
    ]);
  }
  const { db } = c.var.deps;
  const at = new Date();
  const by = c.var.principal.email;
  // Both directions in one statement (one transaction); an existing pair is left as it is.
  await db
    .insertInto('record_relations')
    .values([
      { record_id: record.id, related_id: target.record.id, created_at: at, created_by: by },
      { record_id: target.record.id, related_id: record.id, created_at: at, created_by: by },
    ])
    .onConflict((oc) => oc.columns(['record_id', 'related_id']).doNothing())
    .execute();
  return c.body(null, 201);
}

/** `DELETE .../related-items/{relatedId}` (the related record's id) -> 200; unknown relation -> 404. */
export async function removeRelated(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.removeRelated>,
) {
  const { relatedId, ...path } = request.params();
  const { record } = await recordAt(c, path);
  await assertTargetOpen(c, relatedId);
  const deleted = await c.var.deps.db
    .deleteFrom('record_relations')
    .where((eb) =>
      eb.or([
        eb.and([eb('record_id', '=', record.id), eb('related_id', '=', relatedId)]),
        eb.and([eb('record_id', '=', relatedId), eb('related_id', '=', record.id)]),
      ]),
    )
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0)
    throw notFound(`${record.id} is not related to ${relatedId}`);
  return c.body(null, 200);
}
