import type { Context } from 'hono';
import { sql } from 'kysely';

import type { Group, GroupPagedList, UserPagedList } from '@wsc/api-client/strict';

import type { GroupRow } from '../../db/schema.ts';
import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type { FilterField } from '../../search/fields.ts';
import type * as routes from './groups.routes.ts';
import { requireAdmin } from '../../identity/permissions.ts';
import { toUser } from '../../identity/users.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { pageBySeq, pageTable, parsePageQuery } from '../../lib/paging.ts';
import { replyGroup, replyPaging, replyUser } from '../../lib/profile.ts';
import { compileFilter } from '../../search/filter.ts';
import { domainRuleId } from '../../workspace/sync.ts';

const GROUP_FIELDS: FilterField[] = [
  { name: 'id', kind: 'handle', expr: sql`groups.id::text` },
  { name: 'name', kind: 'text', expr: sql.ref('groups.name') },
];
const resolveGroupField = (selector: string) =>
  GROUP_FIELDS.find((field) => field.name === selector);

function toGroup(row: GroupRow): Group {
  return {
    id: row.id,
    name: row.name,
    assignable: row.assignable,
    watchable: row.watchable,
    mentionable: row.mentionable,
    managed: row.managed,
    dynamic: row.dynamic,
    // Rows synced before domain rules had ids get the id the next sync will store.
    domains: row.domains.map((rule) => ({
      id: rule.id ?? domainRuleId(row.name, rule.domain ?? ''),
      domain: rule.domain ?? '',
    })),
  };
}

/** The group a path names (a UUID: the route's schema answers 404 for anything else). */
async function findGroup(c: Context<AppEnv>, id: string): Promise<GroupRow> {
  const row = await c.var.deps.db
    .selectFrom('groups')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No group ${id}`);
  return row;
}

/** `GET /v1/groups`: paged; `filter` (on `id`, `name`) in the extended profile only. */
export async function listGroups(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.listGroups>,
) {
  const { db, cursorKey } = c.var.deps;
  const query = request.query();
  const where = query.filter ? compileFilter(query.filter, resolveGroupField) : sql<boolean>`true`;
  const page = parsePageQuery(query, cursorKey, 'groups');
  const { rows, paging, total } = await pageTable(db, 'groups', where, page, cursorKey);
  const profile = c.var.deps.config.profile;
  if (profile === 'hosted') {
    return c.json({
      paging: replyPaging(profile, paging),
      total,
      items: rows.map((row) => replyGroup(profile, toGroup(row))),
    });
  }
  const body: GroupPagedList = { paging, total, items: rows.map(toGroup) };
  return c.json(body);
}

/** `GET /v1/groups/{groupId}`. */
export async function getGroup(c: Context<AppEnv>, request: RouteInput<typeof routes.getGroup>) {
  return c.json(
    replyGroup(c.var.deps.config.profile, toGroup(await findGroup(c, request.params().groupId))),
  );
}

/** `GET /v1/groups/{groupId}/users`: members in the order they were added. */
export async function listMembers(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.listMembers>,
) {
  const group = await findGroup(c, request.params().groupId);
  const { db, cursorKey } = c.var.deps;
  const scope = `group-members:${group.id}`;
  const page = parsePageQuery(request.query(), cursorKey, scope);
  const [{ rows, paging }, count] = await Promise.all([
    pageBySeq(page, cursorKey, scope, (bound, order, limit) =>
      db
        .selectFrom('group_members')
        .innerJoin('users', 'users.id', 'group_members.user_id')
        .select([
          'users.id',
          'users.email',
          'users.first_name',
          'users.last_name',
          'users.job_title',
          'users.status',
          'group_members.seq',
        ])
        .where('group_members.group_id', '=', group.id)
        .$if(bound !== null, (q) => q.where('group_members.seq', bound?.op ?? '>', bound?.seq ?? 0))
        .orderBy('group_members.seq', order)
        .limit(limit)
        .execute(),
    ),
    db
      .selectFrom('group_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', group.id)
      .executeTakeFirstOrThrow(),
  ]);
  const profile = c.var.deps.config.profile;
  if (profile === 'hosted') {
    return c.json({
      paging: replyPaging(profile, paging),
      total: Number(count.n),
      items: rows.map((row) => replyUser(profile, toUser(row))),
    });
  }
  const body: UserPagedList = { paging, total: Number(count.n), items: rows.map(toUser) };
  return c.json(body);
}

async function checkUserIds(c: Context<AppEnv>, userIds: string[]): Promise<string[]> {
  const unique = [...new Set(userIds.map((id) => id.toLowerCase()))];
  const found = await c.var.deps.db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', unique)
    .execute();
  const known = new Set(found.map((row) => row.id));
  const problems = userIds
    .map((id, index) => ({ id, index }))
    .filter(({ id }) => !known.has(id.toLowerCase()))
    .map(({ id, index }) => ({ field: `userIds.${index}`, message: `No user ${id}` }));
  if (problems.length > 0) throw unprocessable(problems, 'Unknown user ids; nothing was changed');
  return unique;
}

/** `POST /v1/groups/{groupId}/users` (ADMIN). */
export async function addMembers(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.addMembers>,
) {
  requireAdmin(c, 'Only administrators may change group membership');
  const group = await findGroup(c, request.params().groupId);
  const { userIds } = await request.body();
  const ids = await checkUserIds(c, userIds);
  const now = new Date();
  await c.var.deps.db
    .insertInto('group_members')
    .values(ids.map((userId) => ({ group_id: group.id, user_id: userId, added_at: now })))
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute();
  return c.body(null, 201);
}

/** `DELETE /v1/groups/{groupId}/users` (ADMIN). */
export async function removeMembers(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.removeMembers>,
) {
  requireAdmin(c, 'Only administrators may change group membership');
  const group = await findGroup(c, request.params().groupId);
  const { userIds } = await request.body();
  const ids = await checkUserIds(c, userIds);
  await c.var.deps.db
    .deleteFrom('group_members')
    .where('group_id', '=', group.id)
    .where('user_id', 'in', ids)
    .execute();
  return c.body(null, 200);
}
