// Stores prepared for the soak and fault benchmarks: the demo seed plus any number of extra people,
// each with their own API credential, written before the API starts (PGlite is single-process, so
// this cannot happen while the API holds the data folder; PostgreSQL would not mind).
import {
  createCredential,
  DEMO_GROUPS,
  initDeps,
  insertUser,
  parseEnv,
  prepareStore,
} from 'workspace-api/tools';

import type { Credential, Credentials } from './stack.ts';

export type PreparedStore = {
  /** The demo's admin and agent. */
  demo: Credentials;
  /** The extra people, in order. */
  people: Credential[];
};

export type PrepareStoreOptions = {
  dataDir: string;
  databaseUrl?: string;
  /** Extra people to create (0 for the demo only). */
  count?: number;
  /** Their role; MEMBERs are put in Support Tier 1 (support tickets, customers), as agents are. */
  role?: 'ADMIN' | 'MEMBER';
  /** Email local part prefix: `<prefix>-<n>@helpdesk.example`. */
  prefix?: string;
};

/**
 * Seeds the demo into an empty store (PGlite folder or PostgreSQL, SEED_DEMO=1) and adds `count`
 * people with one credential each. Secrets go only to the caller.
 *
 * @example
 * const { demo, people } = await prepareBenchStore({ dataDir, count: 50 });
 */
export async function prepareBenchStore(options: PrepareStoreOptions): Promise<PreparedStore> {
  const { deps, close } = await initDeps(
    parseEnv({
      DATA_DIR: options.dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      LOG_LEVEL: 'silent',
      RATE_LIMIT_RPS: '0',
      SEED_DEMO: '1',
    }),
  );
  try {
    const seeded = await prepareStore(deps, { seed: true });
    if (!seeded.seeded) throw new Error('expected an empty store to seed the demo into');
    const role = options.role ?? 'MEMBER';
    const prefix = options.prefix ?? 'bench-agent';
    const tier1 = await deps.db
      .selectFrom('groups')
      .select('id')
      .where('name', '=', DEMO_GROUPS.tier1)
      .executeTakeFirstOrThrow();
    const people: Credential[] = [];
    for (let i = 1; i <= (options.count ?? 0); i += 1) {
      const email = `${prefix}-${i}@helpdesk.example`;
      const user = await insertUser(deps.db, {
        email,
        firstName: 'Bench',
        lastName: `Agent ${i}`,
        jobTitle: 'Support Agent',
        role,
      });
      if (role === 'MEMBER') {
        await deps.db
          .insertInto('group_members')
          .values({ group_id: tier1.id, user_id: user.id, added_at: new Date() })
          .execute();
      }
      people.push({ email, ...(await createCredential(deps.db, user.id, 'bench')) });
    }
    return { demo: seeded.credentials, people };
  } finally {
    await close();
  }
}
