import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { isRsqlError, parse } from '@wsc/rsql';

import {
  asPlainComment,
  BODY_ROUTES,
  bodyCases,
  filterCase,
  mutatedFilter,
  percentEncode,
  TICKET_FIELDS,
  USER_FIELDS,
  wellFormedFilter,
} from './fuzz-gen.ts';

const world = {
  emails: ['admin@helpdesk.example', 'agent@helpdesk.example'],
  userIds: ['0f8fad5b-d9cb-469f-a165-70867728950e'],
  recordIds: ['SUP-2', 'CUS-1'],
  selfId: 'SUP-1',
};

/** Parses like the API (UTF-8 length limit, depth limit); true when it is valid RSQL. */
function parses(filter: string): boolean {
  try {
    parse(filter);
    return true;
  } catch (error) {
    if (isRsqlError(error)) return false;
    throw error;
  }
}

describe('wellFormedFilter', () => {
  it('is valid RSQL almost always (values may still be wrong for their field)', () => {
    for (const fields of [TICKET_FIELDS, USER_FIELDS]) {
      const filters = fc.sample(wellFormedFilter(fields), { numRuns: 2_000, seed: 1 });
      const valid = filters.filter(parses).length;
      // Only a NUL or an unpaired surrogate inside a quoted value makes a well-formed filter invalid.
      expect(valid / filters.length).toBeGreaterThan(0.9);
    }
  });

  it('nests groups and uses every operator', () => {
    const filters = fc.sample(wellFormedFilter(TICKET_FIELDS), { numRuns: 5_000, seed: 2 });
    for (const op of ['==', '=bt=', '=in=', '=lki=', '!bt=', '=out='])
      expect(filters.some((f) => f.includes(op))).toBe(true);
    expect(filters.some((f) => f.includes('(') && /[;,]| and | or /.test(f))).toBe(true);
  });
});

describe('mutatedFilter', () => {
  it('is mostly invalid, and never throws anything but RsqlError from the parser', () => {
    const filters = fc.sample(mutatedFilter(TICKET_FIELDS), { numRuns: 2_000, seed: 3 });
    const invalid = filters.filter((f) => !parses(f)).length;
    expect(invalid / filters.length).toBeGreaterThan(0.3);
  });
});

describe('filterCase', () => {
  it('is the same for the same seed (a run can be repeated)', () => {
    const a = fc.sample(filterCase(TICKET_FIELDS), { numRuns: 50, seed: 9 });
    const b = fc.sample(filterCase(TICKET_FIELDS), { numRuns: 50, seed: 9 });
    expect(a).toEqual(b);
    expect(new Set(a.map((c) => c.kind))).toEqual(new Set(['well-formed', 'mutated', 'random']));
  });
});

describe('percentEncode', () => {
  it('keeps unreserved characters and encodes UTF-8 bytes', () => {
    expect(percentEncode('Status==Open')).toBe('Status%3D%3DOpen');
    expect(percentEncode('a b;é')).toBe('a%20b%3B%C3%A9');
    expect(percentEncode('😀')).toBe('%F0%9F%98%80');
    expect(decodeURIComponent(percentEncode('Due Date=le=2024-01-01'))).toBe(
      'Due Date=le=2024-01-01',
    );
  });

  it('sends unpaired surrogates as WTF-8 bytes, NUL as %00, and keeps %zz broken', () => {
    expect(percentEncode('\ud800')).toBe('%ED%A0%80');
    expect(percentEncode('\udfff')).toBe('%ED%BF%BF');
    expect(percentEncode('\u0000')).toBe('%00');
    expect(percentEncode('a%zzb')).toBe('a%zzb');
  });
});

describe('asPlainComment', () => {
  it('sends the contents string as text/plain, and anything else as it is', () => {
    const json = 'application/json';
    expect(
      asPlainComment({ kind: 'plausible', text: '{"contents":"a\\u0000b"}', contentType: json }),
    ).toEqual({
      kind: 'plausible',
      text: 'a\u0000b',
      contentType: 'text/plain; charset=utf-8',
    });
    expect(asPlainComment({ kind: 'broken', text: '{"contents":', contentType: json }).text).toBe(
      '{"contents":',
    );
    expect(asPlainComment({ kind: 'hostile', text: '[1,2]', contentType: json }).text).toBe(
      '[1,2]',
    );
  });
});

describe('bodyCases', () => {
  it('gives every write route plausible, hostile and broken bodies', () => {
    for (const route of BODY_ROUTES) {
      const cases = fc.sample(bodyCases(route, world), { numRuns: 500, seed: 4 });
      expect(new Set(cases.map((c) => c.kind)), route).toEqual(
        new Set(['plausible', 'hostile', 'broken']),
      );
      const parsed = cases
        .filter((c) => c.kind === 'plausible')
        .map((c) => JSON.parse(c.text) as unknown);
      expect(
        parsed.some(
          (body) => typeof body === 'object' && body !== null && Object.keys(body).length > 0,
        ),
        route,
      ).toBe(true);
      expect(
        cases.every((c) => Buffer.byteLength(c.text) < 1024 * 1024),
        route,
      ).toBe(true);
    }
  });

  it('puts NUL and unpaired surrogates into bodies now and then', () => {
    const texts = fc
      .sample(bodyCases('records create', world), { numRuns: 3_000, seed: 5 })
      .map((c) => c.text);
    expect(texts.some((t) => t.includes('\\u0000'))).toBe(true);
    expect(texts.some((t) => t.includes('\\ud800') || t.includes('\\udfff'))).toBe(true);
  });
});
