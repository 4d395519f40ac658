// Cursor paging shared by every list. Cursors are opaque: base64url JSON plus an HMAC, bound to the
// list they came from (its "scope"), so a tampered or foreign cursor is a 400, never a wrong page.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Expression, Selectable, SqlBool } from 'kysely';
import type { z } from 'zod';

import type { PageQuery } from '@wsc/api-client';
import type { Paging } from '@wsc/api-client/strict';

import type { Db } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { badRequest } from './errors.ts';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** A parsed page request. `cursor` is the verified payload of `after` or `before`. */
export type PageRequest = {
  direction: 'forward' | 'backward';
  limit: number;
  cursor: unknown;
  /** Whether a cursor was given (so there are rows on the other side). */
  hasCursor: boolean;
};

function sign(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest().subarray(0, 16).toString('base64url');
}

/**
 * Encodes an opaque, signed cursor.
 *
 * @example
 * const cursor = encodeCursor(key, 'users', { s: 42 });
 */
export function encodeCursor(key: Buffer, scope: string, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(key, `${scope}\u0000${body}`)}`;
}

/**
 * Verifies and decodes a cursor; throws a 400 problem naming `field` when it is not ours.
 *
 * @example
 * const payload = decodeCursor(key, 'users', query.after ?? '', 'after');
 */
export function decodeCursor(key: Buffer, scope: string, cursor: string, field: string): unknown {
  const invalid = () =>
    badRequest('Invalid cursor', [{ field, message: 'Malformed, tampered or from another list' }]);
  const [body, signature, extra] = cursor.split('.');
  if (!body || !signature || extra !== undefined || cursor.length > 4096) throw invalid();
  const expected = Buffer.from(sign(key, `${scope}\u0000${body}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    throw invalid();
  }
}

/**
 * The 400 for paging parameters that fail their schema (`first`/`last` out of 1..1000, an empty
 * cursor): the only query parameters with a shape to check (lib/route.ts validates a route's query
 * with its spec and answers with this).
 *
 * @example
 * throw pageQueryProblem(PageQuerySchema.safeParse({ first: '0' }).error);
 */
export function pageQueryProblem(error: z.ZodError) {
  return badRequest(
    'Invalid paging parameters',
    error.issues.map((issue) => ({
      field: issue.path.map(String).join('.'),
      message:
        issue.path[0] === 'first' || issue.path[0] === 'last'
          ? 'Expected an integer from 1 to 1000'
          : issue.message,
    })),
  );
}

/**
 * The page a validated paging query asks for (see route.ts): 400 when `first`/`after` and
 * `last`/`before` are mixed, or for a cursor that is not ours.
 *
 * @example
 * const page = parsePageQuery(input.query(), key, 'users');
 */
export function parsePageQuery(query: PageQuery, key: Buffer, scope: string): PageRequest {
  const { first, after, last, before } = query;
  if (
    (first !== undefined || after !== undefined) &&
    (last !== undefined || before !== undefined)
  ) {
    throw badRequest('Use first/after or last/before, not both', [
      {
        field: last !== undefined ? 'last' : 'before',
        message: 'Cannot be combined with first/after',
      },
    ]);
  }
  if (last !== undefined || before !== undefined) {
    return {
      direction: 'backward',
      limit: last ?? DEFAULT_PAGE_SIZE,
      cursor: before === undefined ? undefined : decodeCursor(key, scope, before, 'before'),
      hasCursor: before !== undefined,
    };
  }
  return {
    direction: 'forward',
    limit: first ?? DEFAULT_PAGE_SIZE,
    cursor: after === undefined ? undefined : decodeCursor(key, scope, after, 'after'),
    hasCursor: after !== undefined,
  };
}

/** A sequence position: lists ordered by a unique, increasing `seq` column. */
export type SeqBound = { op: '>' | '<'; seq: number };

/**
 * Pages a list ordered by a unique increasing `seq`. The callback runs the query with the bound,
 * order and limit it is given (limit is page size + 1, to learn whether more rows exist).
 *
 * @example
 * const page = parsePageQuery(input.query(), deps.cursorKey, 'users');
 * const result = await pageBySeq(page, deps.cursorKey, 'users', (bound, order, limit) =>
 *   db.selectFrom('users').selectAll()
 *     .$if(bound !== null, (q) => q.where('seq', bound!.op, bound!.seq))
 *     .orderBy('seq', order).limit(limit).execute(),
 * );
 */
export async function pageBySeq<Row extends { seq: number }>(
  page: PageRequest,
  key: Buffer,
  scope: string,
  fetch: (bound: SeqBound | null, order: 'asc' | 'desc', limit: number) => Promise<Row[]>,
): Promise<{ rows: Row[]; cursors: string[]; paging: Paging }> {
  const seq = readSeqCursor(page.cursor, page.direction === 'forward' ? 'after' : 'before');
  const forward = page.direction === 'forward';
  const bound: SeqBound | null = seq === undefined ? null : { op: forward ? '>' : '<', seq };
  const fetched = await fetch(bound, forward ? 'asc' : 'desc', page.limit + 1);
  const more = fetched.length > page.limit;
  const rows = fetched.slice(0, page.limit);
  if (!forward) rows.reverse();
  const cursors = rows.map((row) => encodeCursor(key, scope, { s: row.seq }));
  return { rows, cursors, paging: buildPaging(page, cursors, more) };
}

function readSeqCursor(cursor: unknown, field: string): number | undefined {
  if (cursor === undefined) return undefined;
  const seq = (cursor as { s?: unknown } | null)?.s;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq)) {
    throw badRequest('Invalid cursor', [
      { field, message: 'Malformed, tampered or from another list' },
    ]);
  }
  return seq;
}

/**
 * The paging block from the page request, the page's cursors and whether more rows exist beyond it.
 *
 * @example
 * buildPaging(page, cursors, fetched.length > page.limit);
 */
export function buildPaging(page: PageRequest, cursors: string[], more: boolean): Paging {
  const forward = page.direction === 'forward';
  return {
    has_previous_page: forward ? page.hasCursor : more,
    start_cursor: cursors[0] ?? null,
    end_cursor: cursors.at(-1) ?? null,
    has_next_page: forward ? more : page.hasCursor,
  };
}

/**
 * A page of a whole table ordered by its `seq` (scope: the table's name) with the count of every
 * row `where` selects, both run on `conn`: the users and groups lists.
 *
 * @example
 * const { rows, paging, total } = await pageTable(db, 'groups', sql<boolean>`true`, page, key);
 */
export async function pageTable<T extends 'users' | 'groups'>(
  conn: Db,
  table: T,
  where: Expression<SqlBool>,
  page: PageRequest,
  key: Buffer,
): Promise<{ rows: Selectable<Database[T]>[]; paging: Paging; total: number }> {
  // One table of the two at a time: kysely types the query by a single table name.
  const from = table as 'users';
  const [{ rows, paging }, count] = await Promise.all([
    pageBySeq(page, key, table, (bound, order, limit) =>
      conn
        .selectFrom(from)
        .selectAll()
        .where(where)
        .$if(bound !== null, (q) => q.where('seq', bound?.op ?? '>', bound?.seq ?? 0))
        .orderBy('seq', order)
        .limit(limit)
        .execute(),
    ),
    conn
      .selectFrom(from)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as Selectable<Database[T]>[], paging, total: Number(count.n) };
}
