// Builds one migrated, workspace-synced PGlite data folder per test run and hands its path to the
// test files, which start from it (loading a dump takes ~1 s; initdb + migrations take ~4 s).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

import { openDatabase } from '../src/db/client.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { loadWorkspace } from '../src/workspace/load-workspace.ts';
import { syncWorkspace } from '../src/workspace/sync.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return;
  }
  const file = path.join(os.tmpdir(), `wsa-template-${randomBytes(6).toString('hex')}.tar`);
  const database = await openDatabase({});
  await migrateToLatest(database.db);
  await syncWorkspace(database.db, await loadWorkspace(), database);
  if (!database.pglite) throw new Error('openDatabase did not expose the PGlite instance');
  const dump = await database.pglite.dumpDataDir('none');
  await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  return async () => {
    await fs.rm(file, { force: true });
  };
}
