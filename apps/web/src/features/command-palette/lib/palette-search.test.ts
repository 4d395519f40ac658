import { describe, expect, it } from 'vitest';

import { ticketsDefinition } from '@/testing/render.tsx';

import { matchesTerm, parseRecordId } from './palette-search.ts';

describe('parseRecordId', () => {
  it('maps a handle prefix to its definition in any case and spacing', () => {
    for (const term of ['SUP-42', 'sup-42', ' sup 42 ', 'Sup42', 'SUP-042']) {
      expect(parseRecordId(term, [ticketsDefinition])).toEqual({
        id: 'SUP-42',
        definition: ticketsDefinition,
      });
    }
  });
  it('ignores unknown prefixes and other text', () => {
    expect(parseRecordId('REF-1', [ticketsDefinition])).toBeUndefined();
    expect(parseRecordId('support', [ticketsDefinition])).toBeUndefined();
    expect(parseRecordId('SUP-', [ticketsDefinition])).toBeUndefined();
  });
});

describe('matchesTerm', () => {
  it('needs every word somewhere in the texts', () => {
    expect(matchesTerm('open tick', ['Open tickets'])).toBe(true);
    expect(matchesTerm('tickets sup', ['Support Tickets', 'SUP'])).toBe(true);
    expect(matchesTerm('closed', ['Open tickets'])).toBe(false);
    expect(matchesTerm('  ', ['x'])).toBe(true);
  });
});
