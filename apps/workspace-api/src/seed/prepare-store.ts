// Start-up store preparation: the blob folder's recovery and, when wanted, the demo seed with its
// credentials shown to the operator.
import path from 'node:path';

import type { Config } from '../env.ts';
import type { AppDeps } from '../lib/types.ts';
import type { SeedOptions, SeedResult } from './seed.ts';
import { sweepBlobDir } from '../attachments/blobs.ts';
import { seedIfEmpty } from './seed.ts';

/**
 * Whether start-up may seed the demo into an empty store: `SEED_DEMO=1` always, `SEED_DEMO=0`
 * never, unset only for the embedded store. A `DATABASE_URL` store is a real deployment's: an
 * empty one must not receive demo people and an ADMIN credential nobody asked for.
 *
 * @example
 * demoSeedWanted(parseEnv({ DATABASE_URL: 'postgres://db/prod' })); // false
 */
export function demoSeedWanted(config: Pick<Config, 'seedDemo' | 'databaseUrl'>): boolean {
  return config.seedDemo ?? config.databaseUrl === undefined;
}

/** Where start-up writes what it tells the operator; only a terminal is shown secrets. */
export type Console = { isTTY?: boolean; write: (text: string) => unknown };

export type PrepareOptions = {
  /** Seed the demo into an empty store; default demoSeedWanted(config). */
  seed?: boolean;
  /** Default process.stdout. */
  out?: Console;
  /** Passed to seedIfEmpty (tests seed a smaller demo). */
  seedOptions?: SeedOptions;
};

/**
 * Start-up store preparation, the one call in index.ts: recovers the blob folder (see
 * sweepBlobDir) and, when wanted (demoSeedWanted), seeds the demo into an empty store. The demo
 * secrets go to demo-credentials.json (mode 0600) and are printed only when stdout is a terminal:
 * captured output (a service's log, a CI job) gets the file's path instead.
 *
 * @example
 * const { deps } = await initDeps(config);
 * await prepareStore(deps);
 */
export async function prepareStore(
  deps: AppDeps,
  options: PrepareOptions = {},
): Promise<SeedResult> {
  await sweepBlobDir(deps.db, deps.config.blobDir, deps.logger);
  if (!(options.seed ?? demoSeedWanted(deps.config))) {
    const users = await deps.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(users.n) === 0) {
      deps.logger.info('empty store: demo data not seeded', {
        hint: 'create the first ADMIN with the CLI (create-user, create-credentials), or set SEED_DEMO=1',
      });
    }
    return { seeded: false };
  }
  const result = await seedIfEmpty(deps, options.seedOptions);
  if (result.seeded) {
    deps.logger.info('demo data seeded', {
      region: deps.config.region,
      durationMs: result.ms,
      ...result.counts,
    });
    if (deps.config.logLevel !== 'silent') {
      const out = options.out ?? process.stdout;
      const file = path.join(deps.config.dataDir, 'demo-credentials.json');
      const lines = out.isTTY
        ? [
            '',
            `  DEMO credentials (${deps.config.region} region; demo data only, do not use in production):`,
            ...Object.entries(result.credentials).map(
              ([who, c]) =>
                `    ${who.padEnd(6)} ${c.email.padEnd(30)} client ID ${c.clientId}  secret ${c.clientSecret}`,
            ),
            `  Saved to ${file} (mode 0600).`,
            '',
          ]
        : [
            `DEMO credentials (${deps.config.region} region) written to ${file} (mode 0600); secrets are printed only to a terminal.`,
          ];
      out.write(`${lines.join('\n')}\n`);
    }
  }
  return result;
}
