// The hosted save's conflict check, done by the BFF (ADR 0029): the console PUTs only the fields
// it changed with `X-Base-Values` (the values it saw); the BFF compares them with the record as
// stored now, refuses with 412 and the stored record when someone else changed one of them, and
// otherwise PUTs the whole record (the published contract does not say whether PUT merges).

import { ProblemException, problemResponse } from '../../lib/errors.ts';

/** The request header carrying the values the user saw; never forwarded upstream. */
export const BASE_VALUES_HEADER = 'x-base-values';

/** Longest `X-Base-Values` accepted (its encoded text). */
export const MAX_BASE_VALUES_CHARS = 8 * 1024;

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function badBaseValues(message: string): ProblemException {
  return new ProblemException({
    status: 400,
    code: 'bad_base_values',
    title: 'Bad Request',
    detail: `X-Base-Values: ${message}`,
    errors: [{ field: 'X-Base-Values', message }],
  });
}

function decodeJson(header: string): unknown {
  try {
    const bytes = Buffer.from(header, 'base64url');
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The values a hosted save was based on, from `X-Base-Values` (base64url without padding of the
 * UTF-8 JSON object `{field: value}`); undefined without the header. Anything else is a 400
 * problem naming the header.
 *
 * @example
 * parseBaseValues(Buffer.from('{"Status":"New"}').toString('base64url')); // { Status: 'New' }
 */
export function parseBaseValues(header: string | null): Record<string, string> | undefined {
  if (header === null) return undefined;
  if (header.length > MAX_BASE_VALUES_CHARS) {
    throw badBaseValues(`at most ${MAX_BASE_VALUES_CHARS} characters`);
  }
  if (!BASE64URL.test(header) || header.length % 4 === 1) {
    throw badBaseValues('not base64url without padding');
  }
  const value = decodeJson(header);
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw badBaseValues('not the base64url of a UTF-8 JSON object');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.some(([, v]) => typeof v !== 'string')) {
    throw badBaseValues('every value must be a string');
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/**
 * The changes of a save with base values: its body, a JSON object naming exactly the fields of
 * the base values (a 400 problem otherwise).
 *
 * @example
 * checkedChanges('{"Status":"Open"}', { Status: 'New' }); // { Status: 'Open' }
 */
export function checkedChanges(
  body: string | undefined,
  base: Record<string, string>,
): Record<string, unknown> {
  let changes: unknown;
  try {
    changes = JSON.parse(body ?? '') as unknown;
  } catch {
    changes = undefined;
  }
  if (!changes || typeof changes !== 'object' || Array.isArray(changes)) {
    throw new ProblemException({
      status: 400,
      code: 'bad_request',
      title: 'Bad Request',
      detail: 'A save with X-Base-Values has a JSON object body: the changed fields',
      errors: [{ field: '(body)', message: 'Expected a JSON object' }],
    });
  }
  const fields = Object.keys(changes);
  const named = Object.keys(base);
  if (fields.length !== named.length || fields.some((field) => !(field in base))) {
    throw badBaseValues('must name exactly the fields of the body');
  }
  return changes as Record<string, unknown>;
}

/** A stored value as text (records are flat objects of strings; absent is empty). */
const text = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/**
 * The changed fields someone else changed meanwhile: stored now neither as the user saw them nor
 * as the user wants them (someone setting the very value wanted is no conflict).
 *
 * @example
 * conflictingFields({ Status: 'Closed' }, { Status: 'New' }, { Status: 'Open' }); // ['Status']
 */
export function conflictingFields(
  stored: Record<string, unknown>,
  base: Record<string, string>,
  changes: Record<string, unknown>,
): string[] {
  return Object.keys(changes).filter((field) => {
    const now = text(stored[field]);
    return now !== (base[field] ?? '') && now !== text(changes[field]);
  });
}

/**
 * The 412 a conflicting save gets, with the record as stored now (`latest`), so the console
 * shows the conflict without reading the record again.
 *
 * @example
 * return staleRecordResponse(['Status'], stored);
 */
export function staleRecordResponse(fields: string[], latest: Record<string, unknown>): Response {
  return problemResponse({
    status: 412,
    code: 'stale_record',
    title: 'Changed by someone else',
    detail: `${fields.join(', ')} changed since you opened the record`,
    extra: { code: 'stale_record', latest },
  });
}

/** The body of the whole-record PUT: the console's own function, so both send the same body. */
export { wholeRecordBody } from '@wsc/api-client';
