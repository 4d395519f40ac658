import { describe, expect, it } from 'vitest';

import { PageQuerySchema } from '@wsc/api-client';

import { ProblemException } from './errors.ts';
import { decodeCursor, encodeCursor, parsePageQuery } from './paging.ts';
import { validateQuery } from './route.ts';

const key = Buffer.alloc(32, 7);

/** A raw query as a paged route reads it: validated by its spec, then parsed. */
const pageOf = (query: Record<string, string>, scope: string) =>
  parsePageQuery(validateQuery(PageQuerySchema, query), key, scope);

describe('cursors', () => {
  it('round-trips a payload within its scope', () => {
    const cursor = encodeCursor(key, 'users', { s: 42 });
    expect(decodeCursor(key, 'users', cursor, 'after')).toEqual({ s: 42 });
  });

  it('rejects tampering, other scopes and other keys with a 400 naming the parameter', () => {
    const cursor = encodeCursor(key, 'users', { s: 42 });
    const [body = '', signature = ''] = cursor.split('.');
    const tampered = `${Buffer.from('{"s":43}').toString('base64url')}.${signature}`;
    for (const [bad, scope, k] of [
      [tampered, 'users', key],
      [cursor, 'groups', key],
      [cursor, 'users', Buffer.alloc(32, 8)],
      [`${body}`, 'users', key],
      [`${body}.${signature}.x`, 'users', key],
    ] as const) {
      try {
        decodeCursor(k, scope, bad, 'before');
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ProblemException);
        expect((error as ProblemException).status).toBe(400);
        expect((error as ProblemException).problem.errors?.[0]?.field).toBe('before');
      }
    }
  });
});

describe('parsePageQuery', () => {
  it('defaults to the first 100', () => {
    expect(pageOf({}, 's')).toEqual({
      direction: 'forward',
      limit: 100,
      cursor: undefined,
      hasCursor: false,
    });
  });

  it('reads backwards paging', () => {
    const before = encodeCursor(key, 's', { s: 5 });
    expect(pageOf({ last: '10', before }, 's')).toEqual({
      direction: 'backward',
      limit: 10,
      cursor: { s: 5 },
      hasCursor: true,
    });
  });

  it.each<Record<string, string>>([
    { first: '0' },
    { first: '1001' },
    { first: '1.5' },
    { last: '-1' },
    { first: '1', last: '1' },
    { after: 'x' },
  ])('rejects %o', (query) => {
    expect(() => pageOf(query, 's')).toThrow(ProblemException);
  });
});
