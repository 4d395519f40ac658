// Watchers: users and groups following a record. Changes name users by email, all-or-nothing;
// groups are listed (the published contract allows Group targets) but not added or removed here.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';

import type { FieldProblem } from '@wsc/api-client';
import type { Watcher, WatcherPagedList } from '@wsc/api-client/strict';

import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './watchers.routes.ts';
import { unprocessable } from '../../lib/errors.ts';
import { pageBySeq, parsePageQuery } from '../../lib/paging.ts';
import { replyPaging } from '../../lib/profile.ts';
import { recordAt } from '../record-path.ts';

/**
 * Resolves `users[]` emails (case-insensitive) to user ids, or throws one 422 naming every email
 * that is unknown (or, when `activeOnly`, not of an active user).
 */
async function resolveEmails(
  c: Context<AppEnv>,
  emails: string[],
  activeOnly: boolean,
): Promise<string[]> {
  const lowered = emails.map((email) => email.trim().toLowerCase());
  const rows = await c.var.deps.db
    .selectFrom('users')
    .select(['id', 'email_lower', 'status'])
    .where('email_lower', 'in', [...new Set(lowered)])
    .execute();
  const byEmail = new Map(rows.map((row) => [row.email_lower, row]));
  const problems: FieldProblem[] = [];
  lowered.forEach((email, index) => {
    const user = byEmail.get(email);
    if (!user)
      problems.push({
        field: `users[${index}]`,
        message: `No user with email ${emails[index] ?? ''}`,
      });
    else if (activeOnly && user.status !== 'ACTIVE') {
      problems.push({
        field: `users[${index}]`,
        message: `${emails[index] ?? ''} is not an active user`,
      });
    }
  });
  if (problems.length > 0)
    throw unprocessable(problems, 'Some users cannot be used; nothing was changed');
  return [...new Set(lowered.map((email) => byEmail.get(email)?.id ?? ''))];
}

/** `GET .../watchers`: paged, oldest first; each a User or a Group target. */
export async function listWatchers(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.listWatchers>,
) {
  const { record } = await recordAt(c, request.params());
  const { db, cursorKey, config } = c.var.deps;
  const scope = `watchers:${record.id}`;
  const page = parsePageQuery(request.query(), cursorKey, scope);
  const [{ rows, paging }, count] = await Promise.all([
    pageBySeq(page, cursorKey, scope, (bound, order, limit) =>
      db
        .selectFrom('watchers as w')
        .leftJoin('users as u', 'u.id', 'w.user_id')
        .leftJoin('groups as g', 'g.id', 'w.group_id')
        .select([
          'w.id',
          'w.seq',
          'u.id as user_id',
          'u.first_name',
          'u.last_name',
          'u.email',
          'g.id as group_id',
          'g.name as group_name',
        ])
        .where('w.record_id', '=', record.id)
        .$if(bound !== null, (q) => q.where('w.seq', bound?.op ?? '>', bound?.seq ?? 0))
        .orderBy('w.seq', order)
        .limit(limit)
        .execute(),
    ),
    db
      .selectFrom('watchers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('record_id', '=', record.id)
      .executeTakeFirst(),
  ]);
  const items = rows.map((row): Watcher => {
    // A row names exactly one target (a check constraint, migration 0003).
    if (row.group_id !== null) {
      return {
        id: row.id,
        target: { id: row.group_id, type: 'Group', name: row.group_name ?? '' },
      };
    }
    return {
      id: row.id,
      target: {
        id: row.user_id ?? '',
        type: 'User',
        firstName: row.first_name ?? '',
        lastName: row.last_name ?? '',
        email: row.email ?? '',
      },
    };
  });
  const total = Number(count?.n ?? 0);
  if (config.profile === 'hosted') {
    return c.json({ paging: replyPaging(config.profile, paging), total, items });
  }
  const body: WatcherPagedList = { paging, total, items };
  return c.json(body);
}

/** `POST .../watchers {users:[email]}` -> 201; unknown or inactive emails -> 422, nothing added. */
export async function addWatchers(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.addWatchers>,
) {
  const { record } = await recordAt(c, request.params());
  const input = await request.body();
  const userIds = await resolveEmails(c, input.users, true);
  const at = new Date();
  // One statement: all or nothing; users already watching are left as they are.
  await c.var.deps.db
    .insertInto('watchers')
    .values(
      userIds.map((userId) => ({
        id: randomUUID(),
        record_id: record.id,
        user_id: userId,
        created_at: at,
      })),
    )
    .onConflict((oc) => oc.columns(['record_id', 'user_id']).doNothing())
    .execute();
  return c.body(null, 201);
}

/**
 * `DELETE .../watchers {users:[email]}` -> 200; unknown emails -> 422, nothing removed. Inactive
 * users may be removed (a deactivated user's stale watch must stay removable).
 */
export async function removeWatchers(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.removeWatchers>,
) {
  const { record } = await recordAt(c, request.params());
  const input = await request.body();
  const userIds = await resolveEmails(c, input.users, false);
  await c.var.deps.db
    .deleteFrom('watchers')
    .where('record_id', '=', record.id)
    .where('user_id', 'in', userIds)
    .execute();
  return c.body(null, 200);
}
