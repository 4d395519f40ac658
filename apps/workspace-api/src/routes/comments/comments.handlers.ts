// Comments on a record: oldest first; written as text/plain (the hosted API's form) or JSON.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';

import type { Comment, CommentPagedList } from '@wsc/api-client/strict';
import { COMMENT_MAX_LENGTH } from '@wsc/api-client';

import type { CommentRow, UserRow } from '../../db/schema.ts';
import type { RouteInput } from '../../lib/route.ts';
import type { AppEnv } from '../../lib/types.ts';
import type * as routes from './comments.routes.ts';
import { toUser } from '../../identity/users.ts';
import { JSON_BODY_MAX_BYTES, readBodyText } from '../../lib/body.ts';
import { badRequest, ProblemException, unprocessable } from '../../lib/errors.ts';
import { pageBySeq, parsePageQuery } from '../../lib/paging.ts';
import { isHosted, replyPaging, replyUser } from '../../lib/profile.ts';
import { badTextProblem } from '../../lib/text.ts';
import { readJson } from '../../lib/validation.ts';
import { recordAt } from '../record-path.ts';

type Author = Pick<UserRow, 'id' | 'email' | 'first_name' | 'last_name' | 'job_title' | 'status'>;

function toComment(
  row: Pick<CommentRow, 'id' | 'contents' | 'source' | 'created_at'>,
  author: Author,
): Comment {
  return {
    id: row.id,
    contents: row.contents,
    source: row.source,
    createdAt: row.created_at.toISOString(),
    createdBy: toUser(author),
  };
}

/** `GET .../comment`: paged, oldest first, each with its author as a User. */
export async function listComments(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.listComments>,
) {
  const { record } = await recordAt(c, request.params());
  const { db, cursorKey } = c.var.deps;
  const scope = `comments:${record.id}`;
  const page = parsePageQuery(request.query(), cursorKey, scope);
  const [{ rows, paging }, count] = await Promise.all([
    pageBySeq(page, cursorKey, scope, (bound, order, limit) =>
      db
        .selectFrom('comments as m')
        .innerJoin('users as u', 'u.id', 'm.created_by')
        .select([
          'm.id',
          'm.contents',
          'm.source',
          'm.created_at',
          'm.seq',
          'u.id as user_id',
          'u.email',
          'u.first_name',
          'u.last_name',
          'u.job_title',
          'u.status',
        ])
        .where('m.record_id', '=', record.id)
        .$if(bound !== null, (q) => q.where('m.seq', bound?.op ?? '>', bound?.seq ?? 0))
        .orderBy('m.seq', order)
        .limit(limit)
        .execute(),
    ),
    db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('record_id', '=', record.id)
      .executeTakeFirst(),
  ]);
  const items = rows.map((row) => toComment(row, { ...row, id: row.user_id }));
  const total = Number(count?.n ?? 0);
  const profile = c.var.deps.config.profile;
  if (profile === 'hosted') {
    return c.json({
      paging: replyPaging(profile, paging),
      total,
      items: items.map((comment) => publishedComment(comment)),
    });
  }
  const body: CommentPagedList = { paging, total, items };
  return c.json(body);
}

/**
 * A comment as the published contract shows it: the author without `status` (and without a null
 * `jobTitle`, which the published User cannot hold).
 */
function publishedComment(comment: Comment) {
  const { status: _status, ...author } = replyUser('hosted', comment.createdBy);
  return { ...comment, createdBy: author };
}

/**
 * The comment text from a `text/plain` or JSON `{contents}` body; 415 for other types. The hosted
 * profile takes text/plain only, as published: anything else is a 400 that says so.
 */
async function readContents(c: Context<AppEnv>): Promise<string> {
  const type =
    (c.req.header('Content-Type') ?? 'text/plain').split(';')[0]?.trim().toLowerCase() ?? '';
  if (isHosted(c) && type !== 'text/plain' && type !== '') {
    throw badRequest('Send the comment as a text/plain body', [
      { field: '(body)', message: `Content-Type ${type} is not text/plain` },
    ]);
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    const body = await readJson(c);
    const contents =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>).contents
        : undefined;
    if (typeof contents !== 'string')
      throw unprocessable([
        { field: 'contents', message: 'Required: the comment text as a string' },
      ]);
    return contents;
  }
  if (type === 'text/plain' || type === '') {
    const text = await readBodyText(c, JSON_BODY_MAX_BYTES);
    const problem = badTextProblem('contents', text);
    if (problem) throw unprocessable([problem], 'The comment holds text that cannot be stored');
    return text;
  }
  throw new ProblemException(415, {
    detail: 'Send the comment as text/plain, or as application/json {"contents": "..."}',
  });
}

/**
 * `POST .../comment` -> 201. Body `text/plain` (hosted form) or JSON `{contents}` (extension); the
 * reply is the full Comment as JSON when Accept includes application/json (extended profile), else
 * the new id as text/plain. Source `API`; the author is the credential owner.
 */
export async function addComment(
  c: Context<AppEnv>,
  request: RouteInput<typeof routes.addComment>,
) {
  const { record } = await recordAt(c, request.params());
  const contents = await readContents(c);
  if (contents.trim() === '')
    throw unprocessable([{ field: 'contents', message: 'A comment cannot be empty' }]);
  if (contents.length > COMMENT_MAX_LENGTH) {
    throw unprocessable([
      {
        field: 'contents',
        message: `At most ${COMMENT_MAX_LENGTH} characters (got ${contents.length})`,
      },
    ]);
  }
  const principal = c.var.principal;
  const row = await c.var.deps.db
    .insertInto('comments')
    .values({
      id: randomUUID(),
      record_id: record.id,
      contents,
      source: 'API',
      created_at: new Date(),
      created_by: principal.userId,
    })
    .returning(['id', 'contents', 'source', 'created_at'])
    .executeTakeFirstOrThrow();
  const wantsJson = (c.req.header('Accept') ?? '').toLowerCase().includes('application/json');
  if (wantsJson && !isHosted(c)) {
    const author: Author = {
      id: principal.userId,
      email: principal.email,
      first_name: principal.firstName,
      last_name: principal.lastName,
      job_title: principal.jobTitle,
      status: principal.status,
    };
    return c.json(toComment(row, author), 201);
  }
  return c.text(row.id, 201);
}
