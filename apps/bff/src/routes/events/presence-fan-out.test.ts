// The presence fan-out (ADR 0027): changes grouped per definition, each stream told only of the
// definitions it sees and never of its own person, one text built per kind of viewer.
import { describe, expect, it } from 'vitest';

import type { Entry } from './presence-fan-out.ts';
import { changesByDefinition, presenceFanOut } from './presence-fan-out.ts';

const entry = (id: string, userId: string, alias: string, recordId = 'R-1'): Entry => ({
  connectionId: id,
  userId,
  user: { id: userId, name: userId },
  identity: 'api',
  recordType: 'apps',
  alias,
  recordId,
  editing: false,
  since: '2025-03-01T09:00:00.000Z',
});
const same = (a: Entry, b: Entry) => JSON.stringify(a) === JSON.stringify(b);
const strip = ({ userId: _userId, ...rest }: Entry) => rest;

describe('presenceFanOut', () => {
  it('tells each viewer of the definitions it sees, less its own entries; moves are upserts or removals', () => {
    const before = new Map([
      ['c1', entry('c1', 'ada', 'tickets')],
      ['c2', entry('c2', 'bob', 'tickets')],
    ]);
    const after = new Map([
      ['c1', entry('c1', 'ada', 'payroll')],
      ['c3', entry('c3', 'cy', 'tickets', 'R-9')],
    ]);
    let built = 0;
    const fanOut = presenceFanOut(changesByDefinition(before, after, same), strip, (delta) => {
      built += 1;
      return JSON.stringify(delta);
    });
    const read = (text: string | undefined) => JSON.parse(text ?? 'null') as unknown;
    // Sees tickets only: Ada left tickets (removed), Bob gone, Cy arrived.
    expect(read(fanOut.eventFor(new Set(['apps/tickets']), 'dan'))).toEqual({
      kind: 'delta',
      upserts: [strip(entry('c3', 'cy', 'tickets', 'R-9'))],
      removed: ['c1', 'c2'],
    });
    // Sees both: Ada's move is an upsert, not also a removal.
    expect(read(fanOut.eventFor(new Set(['apps/tickets', 'apps/payroll']), 'dan'))).toEqual({
      kind: 'delta',
      upserts: [strip(entry('c1', 'ada', 'payroll')), strip(entry('c3', 'cy', 'tickets', 'R-9'))],
      removed: ['c2'],
    });
    // Ada never hears of herself; nothing at all for a viewer of neither.
    expect(read(fanOut.eventFor(new Set(['apps/payroll']), 'ada'))).toBeNull();
    expect(fanOut.eventFor(new Set(['apps/other']), 'dan')).toBeUndefined();
    // A thousand viewers of tickets with no entry of their own: one text built for them all.
    const before2 = built;
    for (let i = 0; i < 1_000; i += 1) fanOut.eventFor(new Set(['apps/tickets']), `viewer-${i}`);
    expect(built).toBe(before2);
  });
});
