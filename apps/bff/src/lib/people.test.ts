// The name others see for a session's person, by identity kind (ADR 0026).
import { describe, expect, it } from 'vitest';

import type { SessionUser } from '@wsc/api-client';

import { actorOf, displayName, pseudonym } from './people.ts';

const OWNER = '3ee32c93-a852-51a1-9af0-4b593e09bd7f';
const user = (extra: Partial<SessionUser>): SessionUser => ({
  clientId: 'wsc_secretish_client',
  role: 'UNKNOWN',
  identity: 'none',
  ...extra,
});

describe('displayName', () => {
  it('keeps verified names, and falls back to the email, then the pseudonym', () => {
    const ada = user({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@x.example' });
    expect(displayName({ ...ada, identity: 'api' }, OWNER)).toBe('Ada Lovelace');
    expect(displayName({ ...ada, identity: 'operator' }, OWNER)).toBe('Ada Lovelace');
    expect(displayName(user({ email: 'ops@x.example', identity: 'operator' }), OWNER)).toBe(
      'ops@x.example',
    );
    expect(displayName(user({ identity: 'api' }), OWNER)).toBe('API client 3ee32c93');
  });

  it('shows a typed email as itself, marked, never the name its lookup found', () => {
    const borrowed = user({
      identity: 'self',
      email: 'admin@x.example',
      firstName: 'Alex',
      lastName: 'Morgan',
    });
    expect(displayName(borrowed, OWNER)).toBe('admin@x.example (unverified)');
  });

  it('names a session nobody named by its owner id, never its client id', () => {
    expect(displayName(user({}), OWNER)).toBe(pseudonym(OWNER));
    expect(pseudonym(OWNER)).toBe('API client 3ee32c93');
    expect(actorOf({ ownerId: OWNER, user: user({}) })).toEqual({
      id: OWNER,
      name: 'API client 3ee32c93',
      identity: 'none',
    });
  });
});
