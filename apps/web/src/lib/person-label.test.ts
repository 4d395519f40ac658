// How the console names other people by how verified their name is (issue 26, ADR 0026).
import { describe, expect, it } from 'vitest';

import { bareName, identityKindLabel } from '@/components/person-name.tsx';

import { personLabel } from './person-label.ts';

describe('personLabel', () => {
  it('marks a name typed at sign-in as unverified, once, and leaves verified names alone', () => {
    expect(personLabel('ana@x.example (unverified)', 'self')).toBe('ana@x.example (unverified)');
    // An entry kept before names were marked on the server.
    expect(personLabel('Alex Morgan', 'self')).toBe('Alex Morgan (unverified)');
    expect(personLabel('Ana Lima', 'api')).toBe('Ana Lima');
    expect(personLabel('Ana Lima', 'operator')).toBe('Ana Lima');
    expect(personLabel('API client 3ee32c93', 'none')).toBe('API client 3ee32c93');
    // A reply without the kind: never shown as more than it is.
    expect(personLabel('Alex Morgan', undefined)).toBe('Alex Morgan (unverified)');
  });

  it('strips the mark where it is shown apart, and says what each kind means', () => {
    expect(bareName('ana@x.example (unverified)')).toBe('ana@x.example');
    expect(bareName('Ana Lima')).toBe('Ana Lima');
    expect(identityKindLabel('self')).toMatch(/unverified/);
    expect(identityKindLabel('api')).toBe('verified by the service');
    expect(identityKindLabel('operator')).toBe('named by the operator');
    expect(identityKindLabel('none')).toMatch(/nobody named/);
  });
});
