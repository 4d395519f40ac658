import type { Context } from 'hono';
import { sql } from 'kysely';

import type { User, UserPagedList } from '@wsc/api-client/strict';

import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type { FilterField } from '../../search/fields.ts';
import type * as routes from './users.routes.ts';
import { deactivateUser, insertUser } from '../../identity/credentials.ts';
import { requireAdmin } from '../../identity/permissions.ts';
import { toUser } from '../../identity/users.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import { pageTable, parsePageQuery } from '../../lib/paging.ts';
import { isHosted, replyPaging, replyUser } from '../../lib/profile.ts';
import { compileFilter } from '../../search/filter.ts';
import { withSearchLimits } from '../../search/limits.ts';

const USER_FIELDS: FilterField[] = [
  { name: 'id', kind: 'handle', expr: sql`users.id::text` },
  { name: 'email', kind: 'text', expr: sql.ref('users.email') },
  { name: 'firstName', kind: 'text', expr: sql.ref('users.first_name') },
  { name: 'lastName', kind: 'text', expr: sql.ref('users.last_name') },
  { name: 'jobTitle', kind: 'text', expr: sql.ref('users.job_title') },
  {
    name: 'status',
    kind: 'picklist',
    expr: sql.ref('users.status'),
    values: ['ACTIVE', 'INACTIVE'],
  },
];
const resolveUserField = (selector: string) => USER_FIELDS.find((field) => field.name === selector);

/** `GET /v1/users`: RSQL filter (the published dialect in the hosted profile), paged. */
export async function listUsers(c: Context<AppEnv>, request: RouteInput<typeof routes.listUsers>) {
  const { cursorKey, config } = c.var.deps;
  const profile = config.profile;
  const query = request.query();
  const filterText = query.filter;
  const where = filterText
    ? compileFilter(filterText, resolveUserField, { dialect: profile })
    : sql<boolean>`true`;
  const page = parsePageQuery(query, cursorKey, 'users');
  // A filter on users can scan the table as a record search can: the same time limits.
  const { rows, paging, total } = await withSearchLimits(
    c.var.deps,
    c.var.principal.clientId,
    (conn) => pageTable(conn, 'users', where, page, cursorKey),
  );
  const items = rows.map(toUser);
  if (profile === 'hosted') {
    return c.json({
      paging: replyPaging(profile, paging),
      total,
      items: items.map((user) => replyUser(profile, user)),
    });
  }
  const body: UserPagedList = { paging, total, items };
  return c.json(body);
}

/** `POST /v1/users` (ADMIN). */
export async function createUser(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.createUser>,
) {
  requireAdmin(c, 'Only administrators may create users');
  const input = await request.body();
  const { db } = c.var.deps;
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('email_lower', '=', input.email.toLowerCase())
    .executeTakeFirst();
  if (existing)
    throw unprocessable([{ field: 'email', message: 'A user with this email already exists' }]);
  try {
    const row = await insertUser(db, {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      jobTitle: input.jobTitle ?? null,
    });
    const user = toUser(row);
    if (isHosted(c)) return c.json(replyUser('hosted', user), 201);
    return c.json<User>(user, 201, { Location: `/v1/users/${row.id}` });
  } catch (error) {
    // A concurrent create of the same email loses on the unique index.
    if ((error as { code?: string }).code === '23505') {
      throw unprocessable([{ field: 'email', message: 'A user with this email already exists' }]);
    }
    throw error;
  }
}

/** `GET /v1/users/{userId}`. */
export async function getUser(c: Context<AppEnv>, request: RouteInput<typeof routes.getUser>) {
  const id = request.params().userId;
  const row = await c.var.deps.db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No user ${id}`);
  return c.json(replyUser(c.var.deps.config.profile, toUser(row)));
}

/** `POST /v1/users/{userId}/deactivate` (ADMIN, idempotent). */
export async function deactivate(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.deactivate>,
) {
  requireAdmin(c, 'Only administrators may deactivate users');
  const id = request.params().userId;
  const row = await deactivateUser(c.var.deps.db, id);
  // At once, not when the database's notification arrives: the caller's next request may be first.
  c.var.deps.tokenCache.invalidate();
  if (!row) throw notFound(`No user ${id}`);
  return c.json(replyUser(c.var.deps.config.profile, toUser(row)));
}
