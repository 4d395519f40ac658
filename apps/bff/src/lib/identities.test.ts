import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ConfigFileError } from './config-file.ts';
import { findIdentity, ownerIdFor, readIdentitiesFile, uuidV5 } from './identities.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bff-identities-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function file(content: unknown): Promise<string> {
  const name = path.join(dir, `identities-${++n}.json`);
  await writeFile(name, typeof content === 'string' ? content : JSON.stringify(content));
  return name;
}

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigFileError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigFileError');
}

describe('owner ids', () => {
  it('are RFC 9562 UUID v5', () => {
    // The RFC's example: "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('are stable per region and client id, and differ between them', () => {
    const id = ownerIdFor('default', 'client-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ownerIdFor('default', 'client-1')).toBe(id);
    expect(ownerIdFor('eu', 'client-1')).not.toBe(id);
    expect(ownerIdFor('default', 'client-2')).not.toBe(id);
  });
});

describe('BFF_IDENTITIES_FILE', () => {
  it('reads entries, and a region-specific entry wins over one for any region', async () => {
    const identities = readIdentitiesFile(
      'BFF_IDENTITIES_FILE',
      await file({
        identities: [
          { clientId: 'c1', email: 'ada@example.com', role: 'ADMIN' },
          { clientId: 'c1', email: 'ada.eu@example.com', role: 'MEMBER', region: 'eu' },
          { clientId: 'c2', email: 'bob@example.com', role: 'MEMBER' },
        ],
      }),
    );
    expect(findIdentity(identities, 'default', 'c1')?.email).toBe('ada@example.com');
    expect(findIdentity(identities, 'eu', 'c1')?.role).toBe('MEMBER');
    expect(findIdentity(identities, 'eu', 'c2')?.email).toBe('bob@example.com');
    expect(findIdentity(identities, 'default', 'c3')).toBeUndefined();
  });

  it('fails naming the entry and the problem, never echoing a value', async () => {
    const bad = await file({
      identities: [
        { clientId: 'c1', email: 'not-an-email', role: 'ADMIN' },
        { clientId: 'c2', email: 'b@example.com', role: 'OWNER' },
        { clientId: 'c3', email: 'c@example.com', role: 'MEMBER', rol: 'ADMIN' },
        { email: 'd@example.com', role: 'MEMBER' },
      ],
    });
    const problems = problemsOf(() => readIdentitiesFile('BFF_IDENTITIES_FILE', bad));
    expect(problems.join('\n')).toMatch(/identities\.0\.email/);
    expect(problems.join('\n')).toMatch(/identities\.1\.role/);
    expect(problems.join('\n')).toMatch(/identities\.2.*rol/);
    expect(problems.join('\n')).toMatch(/identities\.3\.clientId/);
    expect(problems.join('\n')).not.toContain('not-an-email');
  });

  it('refuses two entries for the same client id and region, a missing file and bad JSON', async () => {
    const twice = await file({
      identities: [
        { clientId: 'c1', email: 'a@example.com', role: 'ADMIN', region: 'eu' },
        { clientId: 'c1', email: 'b@example.com', role: 'MEMBER', region: 'eu' },
      ],
    });
    expect(problemsOf(() => readIdentitiesFile('X', twice))).toEqual([
      'identities.1: a second entry for this clientId in region eu',
    ]);
    expect(problemsOf(() => readIdentitiesFile('X', path.join(dir, 'nope.json')))).toEqual([
      'the file does not exist',
    ]);
    const broken = await file('{"identities": [ {"clientId": "secret-ish" ');
    const problems = problemsOf(() => readIdentitiesFile('X', broken));
    expect(problems).toEqual(['not valid JSON']);
    expect(() => readIdentitiesFile('BFF_IDENTITIES_FILE', broken)).toThrow(/BFF_IDENTITIES_FILE/);
  });
});
