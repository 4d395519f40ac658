import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { DefinitionSchema } from '@wsc/api-client/strict';

import { main } from './cli.ts';
import { openDatabase } from './db/client.ts';
import { issueToken } from './identity/credentials.ts';
import { verifySecret } from './lib/crypto.ts';
import { toPublicDefinition } from './workspace/definitions.ts';
import { loadWorkspace } from './workspace/load-workspace.ts';

const DescriptionSchema = z.strictObject({ definitions: z.array(DefinitionSchema) });

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSX = path.join(APP_DIR, 'node_modules', '.bin', 'tsx');
let dataDir: string;
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
// On PostgreSQL the CLI works in a throw-away schema (selected through the URL's `options`), so it
// never touches `public`, which other test files' schemas fall back to.
const schema = process.env.TEST_DATABASE_URL ? `t_cli_${Date.now().toString(36)}` : undefined;
const databaseUrl = process.env.TEST_DATABASE_URL
  ? `${process.env.TEST_DATABASE_URL}${process.env.TEST_DATABASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema ?? ''}`)}`
  : '';
const openStore = () =>
  openDatabase({
    databaseUrl: process.env.TEST_DATABASE_URL,
    schema,
    pgliteDir: path.join(dataDir, 'pg'),
  });

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wsa-cli-'));
  if (schema) await (await openStore()).close(); // creates the schema
  // In-process runs read the same variables as a spawned CLI. PGlite unless TEST_DATABASE_URL.
  process.env.DATA_DIR = dataDir;
  process.env.DATABASE_URL = databaseUrl;
});
afterAll(async () => {
  process.env.DATA_DIR = saved.DATA_DIR;
  process.env.DATABASE_URL = saved.DATABASE_URL;
  if (schema) {
    const database = await openStore();
    await database.db.schema.dropSchema(schema).ifExists().cascade().execute();
    await database.close();
  }
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** The CLI as a real process (tsx src/cli.ts), for exit codes and output as an operator sees them. */
function spawnCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl };
    execFile(TSX, ['src/cli.ts', ...args], { cwd: APP_DIR, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The CLI in-process (same code path, no process start-up), capturing its output. */
async function runCli(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi
    .spyOn(console, 'log')
    .mockImplementation((...parts: unknown[]) => void out.push(parts.join(' ')));
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...parts: unknown[]) => void err.push(parts.join(' ')));
  try {
    const code = await main(args);
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const email = `cli-${Date.now().toString(36)}@example.com`;

describe('cli', () => {
  it('prints usage and exits 2 for a missing or unknown command or option, before opening the store', async () => {
    const [none, unknown, badOption, missing, badRole] = await Promise.all([
      runCli(),
      runCli('frobnicate'),
      runCli('list-users', '--nope'),
      runCli('create-user', '--email', 'x@example.com'),
      runCli(
        'create-user',
        '--email',
        'x@example.com',
        '--first-name',
        'X',
        '--last-name',
        'Y',
        '--role',
        'owner',
      ),
    ]);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('Usage: workspace-api');
    expect(unknown.stderr).toContain('Unknown command: frobnicate');
    expect(badOption.code).toBe(2);
    expect(missing.stderr).toContain('--first-name');
    expect(badRole.stderr).toContain('--role must be ADMIN or MEMBER');
    expect([unknown.code, missing.code, badRole.code]).toEqual([2, 2, 2]);
    expect((await runCli('help')).code).toBe(0);
  });

  it('creates a user, refuses duplicates, lists users', async () => {
    const created = await runCli(
      'create-user',
      '--email',
      email,
      '--first-name',
      'Cli',
      '--last-name',
      'User',
      '--role',
      'admin',
    );
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/Created user .* role ADMIN/);
    const duplicate = await runCli(
      'create-user',
      '--email',
      email.toUpperCase(),
      '--first-name',
      'X',
      '--last-name',
      'Y',
    );
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('already exists');
    const list = await runCli('list-users');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(email);
    expect((await runCli('create-credentials', '--email', 'nobody@example.com')).code).toBe(2);
  });

  it('describes the workspace as GET /v1/definitions would in a profile, without the store', async () => {
    const hosted = await runCli('describe-workspace', '--profile', 'hosted');
    expect(hosted).toMatchObject({ code: 0, stderr: '' });
    const workspace = await loadWorkspace();
    const expected = (profile: 'hosted' | 'extended') => ({
      definitions: workspace.definitions.map((definition) =>
        toPublicDefinition(definition, profile),
      ),
    });
    const described = DescriptionSchema.parse(JSON.parse(hosted.stdout));
    expect(described).toEqual(expected('hosted'));
    expect(described.definitions.map((d) => [d.alias, d.handleField, d.titleField])).toEqual([
      ['support-tickets', 'Ticket ID', 'Title'],
      ['customers', 'Customer ID', 'Name'],
      ['tasks', 'Task Key', 'Title'],
      ['refunds', undefined, 'Reason'],
    ]);
    const tickets = described.definitions[0];
    expect(tickets?.fields.filter((field) => field.readOnly)).toEqual([
      { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
      { name: 'Created on', type: 'DATETIME', required: false, readOnly: true },
      { name: 'Created by', type: 'USER_ID', required: false, readOnly: true },
      { name: 'Updated on', type: 'DATETIME', required: false, readOnly: true },
      { name: 'Updated by', type: 'USER_ID', required: false, readOnly: true },
    ]);
    // Hosted is the default; extended describes `id` and the system fields.
    expect(JSON.parse((await runCli('describe-workspace')).stdout)).toEqual(expected('hosted'));
    const extended = await runCli('describe-workspace', '--profile', 'extended');
    expect(JSON.parse(extended.stdout)).toEqual(expected('extended'));
    const bad = await runCli('describe-workspace', '--profile', 'cloud');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--profile must be hosted or extended');
  });

  it('as a real process: creates credentials, printing the secret once with a warning', async () => {
    const creds = await spawnCli('create-credentials', '--email', email, '--label', 'ops laptop');
    expect(creds.stderr).toBe('');
    expect(creds.code).toBe(0);
    expect(creds.stdout).toContain('cannot be shown again');
    const clientId = /client ID:\s+(\S+)/.exec(creds.stdout)?.[1] ?? '';
    const secret = /client secret:\s+(\S+)/.exec(creds.stdout)?.[1] ?? '';
    expect(clientId).toMatch(/^wsc_/);
    // The stored hash verifies the printed secret (the process has exited, so PGlite is free).
    const database = await openStore();
    try {
      const row = await database.db
        .selectFrom('credentials')
        .select(['secret_hash', 'label'])
        .where('client_id', '=', clientId)
        .executeTakeFirstOrThrow();
      expect(row.label).toBe('ops laptop');
      expect(await verifySecret(secret, row.secret_hash)).toBe(true);
    } finally {
      await database.close();
    }
    expect((await spawnCli('bogus')).code).toBe(2);
    // Only the JSON on stdout: `describe-workspace > file.json` gives a file a BFF can read.
    const described = await spawnCli('describe-workspace', '--profile', 'hosted');
    expect(described).toMatchObject({ code: 0, stderr: '' });
    expect(DescriptionSchema.parse(JSON.parse(described.stdout)).definitions).toHaveLength(4);
  });

  it('revokes one credential and its tokens, leaving the user and their other credentials', async () => {
    const revokeEmail = `revoke-${Date.now().toString(36)}@example.com`;
    await runCli('create-user', '--email', revokeEmail, '--first-name', 'R', '--last-name', 'V');
    const keep = await runCli('create-credentials', '--email', revokeEmail, '--label', 'keep');
    const drop = await runCli('create-credentials', '--email', revokeEmail, '--label', 'drop');
    const idOf = (out: string) => /client ID:\s+(\S+)/.exec(out)?.[1] ?? '';
    const [keepId, dropId] = [idOf(keep.stdout), idOf(drop.stdout)];
    expect((await runCli('revoke-credentials')).code).toBe(2);
    expect((await runCli('revoke-credentials', '--client-id', 'wsc_nobody')).code).toBe(2);
    const database = await openStore();
    try {
      const user = await database.db
        .selectFrom('users')
        .select('id')
        .where('email_lower', '=', revokeEmail)
        .executeTakeFirstOrThrow();
      await issueToken(database.db, dropId, user.id, 3600);
    } finally {
      await database.close();
    }
    const revoked = await runCli('revoke-credentials', '--client-id', dropId);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout).toMatch(/Revoked wsc_/);
    // Idempotent.
    expect((await runCli('revoke-credentials', '--client-id', dropId)).code).toBe(0);
    const listed = await runCli('list-credentials', '--email', revokeEmail);
    expect(listed.stdout).toMatch(new RegExp(`${keepId}.*active`));
    expect(listed.stdout).toMatch(new RegExp(`${dropId}.*revoked`));
    expect(listed.stdout).not.toMatch(/secret/i);
    const check = await openStore();
    try {
      const user = await check.db
        .selectFrom('users')
        .select('status')
        .where('email_lower', '=', revokeEmail)
        .executeTakeFirstOrThrow();
      expect(user.status).toBe('ACTIVE');
      const tokens = await check.db
        .selectFrom('tokens')
        .select('revoked')
        .where('client_id', '=', dropId)
        .execute();
      expect(tokens.map((token) => token.revoked)).toEqual([true]);
    } finally {
      await check.close();
    }
  });
});
