#!/usr/bin/env tsx
// Operator CLI: `pnpm --filter workspace-api cli <command>`. Same env (DATA_DIR / DATABASE_URL)
// and migrations as the server. With the embedded PGlite store, stop the server first: PGlite is
// single-process and must not be opened by two processes at once (PostgreSQL has no such limit).
import { parseArgs } from 'node:util';

import { CreateUserInputSchema, RoleSchema } from '@wsc/api-client';

import type { Db } from './db/client.ts';
import type { Profile } from './env.ts';
import { openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import { loadConfig } from './env.ts';
import { createCredential, insertUser, revokeCredential } from './identity/credentials.ts';
import { toPublicDefinition } from './workspace/definitions.ts';
import { loadWorkspace } from './workspace/load-workspace.ts';

const USAGE = `Usage: workspace-api <command> [options]

Commands:
  create-user --email <email> --first-name <name> --last-name <name> [--job-title <title>] [--role ADMIN|MEMBER]
  create-credentials --email <user email> [--label <label>]
      Prints a client ID and secret. The secret is shown once and cannot be shown again.
  list-users
  list-credentials [--email <user email>]
      Lists client IDs (never secrets) with their owner, label, creation and revocation times.
  revoke-credentials --client-id <client ID>
      Revokes one credential and every token issued to it, at once; the user and their other
      credentials are unaffected. Idempotent.
  describe-workspace [--profile hosted|extended]
      Prints, as JSON on stdout, the definitions of the workspace (WORKSPACE_FILE or the demo) as
      GET /v1/definitions describes them in that profile (default hosted, where that route does not
      exist): {"definitions":[{recordType, alias, name, handle, handleField?, titleField, fields}]}.
      A backend-for-frontend in front of a hosted-profile API reads its definitions from this.
  help

Environment: DATA_DIR (embedded PGlite store) or DATABASE_URL (PostgreSQL), as for the server.`;

/** A usage problem: printed with the usage text, exit code 2. */
class UsageError extends Error {}

type Options = Record<string, string | undefined>;

function required(options: Options, name: string): string {
  const value = options[name]?.trim();
  if (!value) throw new UsageError(`Missing --${name}`);
  return value;
}

function createUserInput(options: Options) {
  const parsed = CreateUserInputSchema.safeParse({
    email: required(options, 'email'),
    firstName: required(options, 'first-name'),
    lastName: required(options, 'last-name'),
    ...(options['job-title'] ? { jobTitle: options['job-title'] } : {}),
  });
  if (!parsed.success) {
    throw new UsageError(
      parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  }
  const role = RoleSchema.safeParse((options.role ?? 'MEMBER').toUpperCase());
  if (!role.success) throw new UsageError('--role must be ADMIN or MEMBER');
  return { ...parsed.data, role: role.data };
}

async function createUser(db: Db, input: ReturnType<typeof createUserInput>): Promise<void> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('email_lower', '=', input.email.toLowerCase())
    .executeTakeFirst();
  if (existing) throw new UsageError(`A user with email ${input.email} already exists`);
  const user = await insertUser(db, input);
  console.log(`Created user ${user.email} (${user.id}), role ${user.role}.`);
}

async function createCredentials(db: Db, email: string, options: Options): Promise<void> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'status'])
    .where('email_lower', '=', email.toLowerCase())
    .executeTakeFirst();
  if (!user) throw new UsageError(`No user with email ${email}`);
  if (user.status !== 'ACTIVE')
    throw new UsageError(`${user.email} is inactive; credentials would not work`);
  const { clientId, clientSecret } = await createCredential(
    db,
    user.id,
    options.label?.trim() || null,
  );
  console.log(`Credentials for ${user.email}:`);
  console.log(`  client ID:     ${clientId}`);
  console.log(`  client secret: ${clientSecret}`);
  console.log('Store the secret now: it is kept only as a hash and cannot be shown again.');
}

async function listUsers(db: Db): Promise<void> {
  const users = await db
    .selectFrom('users')
    .select(['email', 'first_name', 'last_name', 'role', 'status', 'id'])
    .orderBy('seq')
    .execute();
  for (const user of users) {
    console.log(
      [
        user.email.padEnd(40),
        `${user.first_name} ${user.last_name}`.padEnd(28),
        user.role.padEnd(7),
        user.status.padEnd(9),
        user.id,
      ].join(' '),
    );
  }
  console.log(`${users.length} user(s)`);
}

async function listCredentials(db: Db, email: string | undefined): Promise<void> {
  const rows = await db
    .selectFrom('credentials')
    .innerJoin('users', 'users.id', 'credentials.user_id')
    .select([
      'credentials.client_id',
      'credentials.label',
      'credentials.created_at',
      'credentials.revoked_at',
      'users.email',
    ])
    .$if(email !== undefined, (q) => q.where('users.email_lower', '=', (email ?? '').toLowerCase()))
    .orderBy('credentials.created_at')
    .execute();
  for (const row of rows) {
    console.log(
      [
        row.client_id.padEnd(24),
        row.email.padEnd(40),
        (row.label ?? '').padEnd(12),
        row.created_at.toISOString(),
        row.revoked_at ? `revoked ${row.revoked_at.toISOString()}` : 'active',
      ].join(' '),
    );
  }
  console.log(`${rows.length} credential(s)`);
}

async function revokeCredentials(db: Db, clientId: string): Promise<void> {
  const row = await revokeCredential(db, clientId);
  if (!row) throw new UsageError(`No credential ${clientId}`);
  console.log(
    `Revoked ${row.client_id} (revoked at ${row.revoked_at?.toISOString() ?? '?'}); its tokens no longer work.`,
  );
}

function profileOption(options: Options): Profile {
  const profile = options.profile ?? 'hosted';
  if (profile !== 'hosted' && profile !== 'extended')
    throw new UsageError('--profile must be hosted or extended');
  return profile;
}

/**
 * Prints the workspace's definitions in a profile: what `GET /v1/definitions` answers for an
 * administrator (all of them), so a client can get in the hosted profile what only that extension
 * tells it: field types, the title field and the fields holding the handle and audit values.
 */
async function describeWorkspace(file: string | undefined, profile: Profile): Promise<void> {
  const workspace = await loadWorkspace(file);
  const definitions = workspace.definitions.map((definition) =>
    toPublicDefinition(definition, profile),
  );
  console.log(JSON.stringify({ definitions }, null, 2));
}

/**
 * Runs one CLI command; returns the process exit code (0 ok, 1 failure, 2 usage error).
 *
 * @example
 * process.exitCode = await main(['list-users']);
 */
export async function main(argv: string[]): Promise<number> {
  let command: string | undefined;
  let options: Options;
  let userInput: ReturnType<typeof createUserInput> | undefined;
  let credentialEmail = '';
  let revokeId = '';
  let profile: Profile | undefined;
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        email: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        'job-title': { type: 'string' },
        role: { type: 'string' },
        label: { type: 'string' },
        profile: { type: 'string' },
        'client-id': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    command = parsed.positionals[0];
    options = Object.fromEntries(
      Object.entries(parsed.values).filter(([, value]) => typeof value === 'string'),
    ) as Options;
    if (parsed.values.help || command === 'help' || command === undefined) {
      console.log(USAGE);
      return command === undefined && !parsed.values.help ? 2 : 0;
    }
    if (parsed.positionals.length > 1)
      throw new UsageError(`Unexpected argument: ${parsed.positionals[1] ?? ''}`);
    const commands = [
      'create-user',
      'create-credentials',
      'list-users',
      'list-credentials',
      'revoke-credentials',
      'describe-workspace',
    ];
    if (!commands.includes(command)) throw new UsageError(`Unknown command: ${command}`);
    // Check the arguments before opening the store.
    if (command === 'create-user') userInput = createUserInput(options);
    if (command === 'create-credentials') credentialEmail = required(options, 'email');
    if (command === 'revoke-credentials') revokeId = required(options, 'client-id');
    if (command === 'describe-workspace') profile = profileOption(options);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }

  const config = loadConfig();
  // Reads the workspace file only: no store to open (it works while the server runs).
  if (profile) {
    try {
      await describeWorkspace(config.workspaceFile, profile);
      return 0;
    } catch (error) {
      console.error(`Failed: ${(error as Error).message}`);
      return 1;
    }
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.databaseUrl ? undefined : `${config.dataDir}/pg`,
    poolSize: 1,
  });
  try {
    await migrateToLatest(database.db);
    if (userInput) await createUser(database.db, userInput);
    else if (command === 'create-credentials')
      await createCredentials(database.db, credentialEmail, options);
    else if (command === 'revoke-credentials') await revokeCredentials(database.db, revokeId);
    else if (command === 'list-credentials')
      await listCredentials(database.db, options.email?.trim() || undefined);
    else await listUsers(database.db);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`Error: ${error.message}`);
      return 2;
    }
    console.error(`Failed: ${(error as Error).message}`);
    return 1;
  } finally {
    await database.close();
  }
}

// Run only when executed, not when imported (tests import main).
if (import.meta.url === `file://${process.argv[1] ?? ''}` || process.argv[1]?.endsWith('/cli.ts')) {
  process.exitCode = await main(process.argv.slice(2));
}
