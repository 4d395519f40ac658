// Text PostgreSQL cannot store. A NUL (U+0000) is refused in any text value (SQLSTATE 22021) and
// in jsonb (22P05); an unpaired UTF-16 surrogate, which JSON can carry as `"\ud800"`, is refused
// by jsonb (22P02) and silently becomes U+FFFD in a text parameter. Both are caught here, at the
// edge, and answered 400 (URL) or 422 (body) naming the field and the position, so that such a
// value never reaches the database and never becomes a 500.
import { createMiddleware } from 'hono/factory';

import type { FieldProblem } from '@wsc/api-client';

import type { AppEnv } from './types.ts';
import { badRequest } from './errors.ts';

// eslint-disable-next-line no-control-regex -- a NUL is exactly what this looks for
const BAD_TEXT_RE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The UTF-16 index of the first NUL or unpaired surrogate in `value`, or -1 when there is none.
 *
 * @example
 * badTextIndex('a\u0000b'); // 1
 * badTextIndex('emoji 😀'); // -1 (a surrogate pair is fine)
 */
export function badTextIndex(value: string): number {
  const match = BAD_TEXT_RE.exec(value);
  return match ? match.index : -1;
}

/** What the character at a bad index is, for messages (`NUL (U+0000)`, `unpaired surrogate (U+D800)`). */
function describeBadChar(value: string, index: number): string {
  const code = value.charCodeAt(index);
  if (code === 0) return 'a NUL character (U+0000)';
  return `an unpaired surrogate (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}

/**
 * Shows text that may hold bad characters as plain ASCII escapes, for a field name in an error
 * (the reply stays valid JSON and readable).
 *
 * @example
 * printable('a\u0000b'); // 'a\\u0000b'
 */
export function printable(value: string): string {
  return value.replace(
    new RegExp(BAD_TEXT_RE.source, 'g'),
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A field problem when `value` holds a NUL or an unpaired surrogate, naming its position.
 *
 * @example
 * badTextProblem('contents', text); // { field: 'contents', message: 'Contains a NUL character (U+0000) at position 3' }
 */
export function badTextProblem(field: string, value: string): FieldProblem | undefined {
  const index = badTextIndex(value);
  if (index < 0) return undefined;
  return {
    field: printable(field),
    message: `Contains ${describeBadChar(value, index)} at position ${index}, which cannot be stored`,
  };
}

/** Most problems listed for one body: a body full of NULs needs no million-line answer. */
const MAX_PROBLEMS = 20;

/**
 * Every string in a parsed JSON value (object keys included) that holds a NUL or an unpaired
 * surrogate, as field problems: top-level keys by name (record field names), deeper ones as
 * `users[0]` or `a.b`. Iterative, so a deeply nested body cannot overflow the stack.
 *
 * @example
 * findBadText({ Title: 'a\u0000' }); // [{ field: 'Title', message: 'Contains a NUL ...' }]
 */
export function findBadText(value: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // `key`: the object key this item was found under, checked when the item is reached, so that
  // problems come in document order.
  const stack: Array<{ path: string; value: unknown; key?: string }> = [{ path: '', value }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const item = stack.pop();
    if (!item) break;
    const { path, value: current, key } = item;
    const keyIndex = key === undefined ? -1 : badTextIndex(key);
    if (key !== undefined && keyIndex >= 0) {
      problems.push({
        field: printable(path),
        message: `The name contains ${describeBadChar(key, keyIndex)} at position ${keyIndex}`,
      });
    } else if (typeof current === 'string') {
      const problem = badTextProblem(path || '(body)', current);
      if (problem) problems.push(problem);
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1)
        stack.push({ path: `${path}[${index}]`, value: current[index] });
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [name, child] = entries[index] ?? ['', undefined];
        stack.push({ path: path === '' ? name : `${path}.${name}`, value: child, key: name });
      }
    }
  }
  return problems;
}

/**
 * Middleware: a NUL in the path (`%00`) or in a query parameter is a 400 naming the parameter and
 * the position in its value (for `filter`, the RSQL position). A URL cannot carry an unpaired
 * surrogate: percent-decoding turns invalid UTF-8 into U+FFFD.
 *
 * @example
 * app.use(refuseBadTextInUrl);
 */
export const refuseBadTextInUrl = createMiddleware<AppEnv>(async (c, next) => {
  const raw = c.req.url;
  // The fast path: without an encoded NUL there is nothing to decode into one.
  if (raw.includes('%00')) {
    const url = new URL(raw);
    if (url.pathname.includes('%00')) {
      throw badRequest('The path contains a NUL character (%00)', [
        { field: 'path', message: 'Contains a NUL character (U+0000)' },
      ]);
    }
    for (const [name, value] of url.searchParams) {
      const nameIndex = badTextIndex(name);
      if (nameIndex >= 0) {
        throw badRequest('A query parameter name contains a NUL character', [
          { field: printable(name), message: 'The name contains a NUL character (U+0000)' },
        ]);
      }
      const problem = badTextProblem(name, value);
      if (problem) {
        const position = badTextIndex(value);
        throw badRequest(`${problem.message} (at position ${position} of ${name})`, [problem], {
          position,
          parameter: name,
        });
      }
    }
  }
  await next();
});
