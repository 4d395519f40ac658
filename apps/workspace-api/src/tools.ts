// The API's surface for tools outside this package (the benchmarks): the app's dependencies, the
// store and its demo seed, credentials, and the record search's statement builder. Exported as
// `workspace-api/tools` (package.json `exports`; the other export, `workspace-api/testing`, is the
// test harness the BFF's integration tests start); nothing else of the package is importable from
// outside, so the modules behind it can move freely.
export { buildServer } from '../scripts/build.ts';
export { initDeps } from './app.ts';
export type { DatabaseHandle, Db } from './db/client.ts';
export { openDatabase } from './db/client.ts';
export { ensureDefinitionIndexes, planDefinitionIndexes } from './db/definition-indexes.ts';
export { parseEnv } from './env.ts';
export { createCredential, insertUser, issueToken } from './identity/credentials.ts';
export { authenticateToken } from './lib/auth.ts';
export { reserveHandleNumbers } from './records/records.ts';
export type { SearchStatements } from './search/statements.ts';
export { parseSearch, resolvedSearchStatements, runSearch } from './search/statements.ts';
export { prepareStore } from './seed/prepare-store.ts';
export { createRng } from './seed/prng.ts';
export type { GeneratedRecord, SeedContext } from './seed/seed-records.ts';
export { generateRecords } from './seed/seed-records.ts';
export type { DemoCredentials } from './seed/seed.ts';
export type { WorkspaceDefinition } from './workspace/definitions.ts';
export { SYSTEM_FIELDS } from './workspace/definitions.ts';
export { DEMO_GROUPS, demoWorkspace } from './workspace/demo-workspace.ts';
export { loadWorkspace } from './workspace/load-workspace.ts';
