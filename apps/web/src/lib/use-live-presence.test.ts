// What the console says about who else has a record open (issue 26): a name typed at sign-in is
// marked unverified in the notice, the editor's warning and the triage skip.
import { describe, expect, it } from 'vitest';

import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { describePresence, editorsOf } from './use-live-presence.ts';

const entry = (
  id: string,
  name: string,
  identity: PresenceEntry['identity'],
  editing: boolean,
): PresenceEntry => ({
  connectionId: `c-${id}`,
  user: { id, name },
  identity,
  recordType: 'apps',
  alias: 'tickets',
  recordId: 'SUP-1',
  editing,
  since: '2025-03-01T09:00:00.000Z',
});

describe('presence in words', () => {
  it('marks unverified names, never verified ones', () => {
    const entries = [
      entry('a', 'Ana Lima', 'api', false),
      entry('m', 'admin@x.example (unverified)', 'self', true),
      entry('l', 'Alex Morgan', 'self', true),
    ];
    expect(describePresence(entries)).toBe(
      'Ana Lima is viewing, admin@x.example (unverified) is editing and Alex Morgan (unverified) is editing',
    );
    expect(editorsOf(entries)).toEqual([
      'admin@x.example (unverified)',
      'Alex Morgan (unverified)',
    ]);
  });
});
