// DESIGN.md section 6, "demo data": seeded on a fresh embedded store or with SEED_DEMO=1, never
// into a DATABASE_URL store unasked; the secrets printed only to a terminal. (The bundled server
// started as a pipe, test/build.test.ts, shows the same from the outside.)
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import type { Config } from '../env.ts';
import type { Console } from './prepare-store.ts';
import { openTestDatabase, testConfig } from '../../test/harness.ts';
import { initDeps } from '../app.ts';
import { parseEnv } from '../env.ts';
import { demoSeedWanted, prepareStore } from './prepare-store.ts';

const SMALL = { counts: { customers: 3, tickets: 5, tasks: 2, refunds: 1 } };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Start-up on a fresh empty store with this config; what was printed and whether it seeded. */
async function startOn(overrides: Partial<Config>, isTTY: boolean) {
  const config = testConfig({ logLevel: 'error', ...overrides });
  const { database, drop } = await openTestDatabase();
  cleanups.push(async () => {
    await drop();
    await fs.rm(config.dataDir, { recursive: true, force: true });
  });
  const { deps } = await initDeps(config, { database });
  let printed = '';
  const out: Console = { isTTY, write: (text: string) => (printed += text) };
  const result = await prepareStore(deps, { out, seedOptions: SMALL });
  const users = await deps.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const file = path.join(config.dataDir, 'demo-credentials.json');
  const written = await fs.readFile(file, 'utf8').catch(() => undefined);
  return { result, printed, users: Number(users.n), file, written };
}

describe('which stores get the demo', () => {
  it('follows SEED_DEMO, else seeds only the embedded store', () => {
    expect(demoSeedWanted(parseEnv({}))).toBe(true);
    expect(demoSeedWanted(parseEnv({ DATABASE_URL: 'postgres://db/prod' }))).toBe(false);
    expect(demoSeedWanted(parseEnv({ DATABASE_URL: 'postgres://db/x', SEED_DEMO: '1' }))).toBe(
      true,
    );
    expect(demoSeedWanted(parseEnv({ SEED_DEMO: '0' }))).toBe(false);
    expect(() => parseEnv({ SEED_DEMO: 'yes' })).toThrow(/SEED_DEMO/);
  });

  it('never seeds an empty DATABASE_URL store unasked: no people, no ADMIN credential, no file', async () => {
    const start = await startOn({ databaseUrl: 'postgres://db.internal/prod' }, true);
    expect(start.result.seeded).toBe(false);
    expect(start.users).toBe(0);
    expect(start.written).toBeUndefined();
    expect(start.printed).toBe('');
  });

  it('seeds a DATABASE_URL store with SEED_DEMO=1, and never with SEED_DEMO=0', async () => {
    const asked = await startOn({ databaseUrl: 'postgres://db/x', seedDemo: true }, false);
    expect(asked.result.seeded).toBe(true);
    expect(asked.users).toBeGreaterThan(0);
    const refused = await startOn({ seedDemo: false }, false);
    expect(refused.result.seeded).toBe(false);
    expect(refused.users).toBe(0);
  });
});

describe('where the demo secrets go', () => {
  it('prints them to a terminal', async () => {
    const start = await startOn({}, true);
    if (!start.result.seeded) throw new Error('not seeded');
    const { admin } = start.result.credentials;
    expect(start.printed).toContain(admin.clientSecret);
    expect(start.printed).toContain(start.file);
  });

  it('prints only the file path when stdout is not a terminal; the file has them (0600)', async () => {
    const start = await startOn({}, false);
    if (!start.result.seeded) throw new Error('not seeded');
    const { admin, agent } = start.result.credentials;
    expect(start.printed).not.toContain(admin.clientSecret);
    expect(start.printed).not.toContain(agent.clientSecret);
    expect(start.printed).toContain(start.file);
    expect(JSON.parse(start.written ?? '{}')).toEqual(start.result.credentials);
    expect((await fs.stat(start.file)).mode & 0o777).toBe(0o600);
  });
});
