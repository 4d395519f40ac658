import { describe, expect, it } from 'vitest';

import type { Timed } from './http.ts';
import { checkError } from './error-shape.ts';

const answer = (status: number, body: unknown, type = 'application/problem+json'): Timed => ({
  status,
  ms: 1,
  headers: { 'content-type': type },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});

describe('checkError', () => {
  it('accepts a problem naming a field or a position (extended)', () => {
    expect(
      checkError(
        'extended',
        answer(422, { status: 422, errors: [{ field: 'Title', message: 'Required' }] }),
      ),
    ).toBeUndefined();
    expect(
      checkError('extended', answer(400, { status: 400, position: 7, parameter: 'filter' })),
    ).toBeUndefined();
  });

  it('accepts a 431 that says why (the parser refused the request line before any field)', () => {
    expect(
      checkError('extended', answer(431, { status: 431, detail: 'larger than 16 KiB' })),
    ).toBeUndefined();
    expect(checkError('extended', answer(431, { status: 431 }))).toBe('no detail');
    expect(checkError('extended', answer(431, ''))).toMatch(/not JSON/);
  });

  it('names what is missing (extended)', () => {
    expect(checkError('extended', answer(400, { status: 400 }))).toMatch(/neither/);
    expect(checkError('extended', answer(400, { status: 400, errors: [] }))).toMatch(/neither/);
    expect(checkError('extended', answer(400, { status: 422, position: 1 }))).toMatch(/status/);
    expect(
      checkError('extended', answer(400, { status: 400, position: 1 }, 'application/json')),
    ).toMatch(/content-type/);
    expect(checkError('extended', answer(400, '<html>'))).toMatch(/not JSON/);
  });

  it('wants {message} in the hosted profile', () => {
    expect(
      checkError('hosted', answer(400, { message: 'Bad filter' }, 'application/json')),
    ).toBeUndefined();
    expect(checkError('hosted', answer(400, { status: 400, position: 1 }))).toBe('no message');
  });
});
