// `pnpm start` behaviour: the real entry point, spawned with bad and good environments.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { FakeUpstream } from '../test/fake-upstream.ts';
import { startFakeUpstream } from '../test/fake-upstream.ts';
import { EnvSchema, parseEnv } from './env.ts';
import { configFromEnv } from './lib/config.ts';

/** `KEY=value` lines (commented out or not) of one `# ── <title>` section of the root .env.example. */
function exampleSection(title: string): Map<string, string> {
  const text = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
  const start = text.indexOf(`# ── ${title}`);
  const end = text.indexOf('# ── ', start + 1);
  return new Map(
    [...text.slice(start, end).matchAll(/^#? ?([A-Z][A-Z0-9_]+)=(\S*)/gm)].map((m) => [
      m[1] ?? '',
      m[2] ?? '',
    ]),
  );
}

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.join(appDir, 'node_modules', '.bin', 'tsx');

let upstream: FakeUpstream;
let dataDir: string;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  dataDir = await mkdtemp(path.join(tmpdir(), 'bff-env-'));
});
afterAll(async () => {
  await upstream.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The environment of a child: PATH only, plus what the test gives. */
function childEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', ...vars };
}

describe('env validation', () => {
  it('parses a valid env with defaults', () => {
    const env = parseEnv({
      WORKSPACE_API_URL: 'http://127.0.0.1:4000/v1/',
      SESSION_SECRET: 's'.repeat(32),
    });
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      WORKSPACE_API_URL: 'http://127.0.0.1:4000/v1',
    });
    expect(env.WORKSPACE_API_URL_EU).toBeUndefined();
  });

  it('leaves PGlite shared_buffers to the store default unless BFF_PGLITE_SHARED_BUFFERS_MB is set', () => {
    const base = { WORKSPACE_API_URL: 'http://127.0.0.1:4000/v1', SESSION_SECRET: 's'.repeat(32) };
    expect(parseEnv(base).BFF_PGLITE_SHARED_BUFFERS_MB).toBeUndefined();
    expect(
      parseEnv({ ...base, BFF_PGLITE_SHARED_BUFFERS_MB: '' }).BFF_PGLITE_SHARED_BUFFERS_MB,
    ).toBeUndefined();
    expect(
      parseEnv({ ...base, BFF_PGLITE_SHARED_BUFFERS_MB: '32' }).BFF_PGLITE_SHARED_BUFFERS_MB,
    ).toBe(32);
    for (const bad of ['0', '16MB', '-1', '1.5', '5000']) {
      expect(() => parseEnv({ ...base, BFF_PGLITE_SHARED_BUFFERS_MB: bad })).toThrow(
        /BFF_PGLITE_SHARED_BUFFERS_MB/,
      );
    }
  });

  it('reads the limits under load: in-flight caps, body idle timeout, server limits, public origin', () => {
    const base = { WORKSPACE_API_URL: 'http://127.0.0.1:4000/v1', SESSION_SECRET: 's'.repeat(32) };
    const defaults = configFromEnv(parseEnv(base));
    expect(defaults).toMatchObject({
      maxJsonBodyBytes: 1024 * 1024,
      bodyIdleTimeoutMs: 60_000,
      signInReadsGraceMs: 1_000,
      inFlight: { perSession: 16, perUser: 32, perRegion: 512 },
      publicOrigins: null,
      server: {
        headersTimeoutMs: 20_000,
        requestTimeoutMs: 60_000,
        uploadTimeoutMs: 3_600_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 4_096,
      },
    });
    const set = configFromEnv(
      parseEnv({
        ...base,
        UPSTREAM_BODY_IDLE_TIMEOUT_MS: '30000',
        BFF_SIGN_IN_READS_GRACE_MS: '30000',
        BFF_MAX_IN_FLIGHT_PER_SESSION: '8',
        BFF_MAX_IN_FLIGHT_PER_USER: '12',
        BFF_MAX_IN_FLIGHT_PER_REGION: '100',
        BFF_PUBLIC_ORIGIN: 'https://Console.Example, https://console.example:8443/',
        BFF_HEADERS_TIMEOUT_MS: '10000',
        BFF_REQUEST_TIMEOUT_MS: '30000',
        BFF_UPLOAD_TIMEOUT_MS: '7200000',
        BFF_KEEP_ALIVE_TIMEOUT_MS: '65000',
        BFF_MAX_CONNECTIONS: '1000',
      }),
    );
    expect(set).toMatchObject({
      bodyIdleTimeoutMs: 30_000,
      signInReadsGraceMs: 30_000,
      inFlight: { perSession: 8, perUser: 12, perRegion: 100 },
      publicOrigins: ['https://console.example', 'https://console.example:8443'],
      server: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        uploadTimeoutMs: 7_200_000,
        keepAliveTimeoutMs: 65_000,
        maxConnections: 1_000,
      },
    });
    for (const [name, value] of [
      ['BFF_MAX_IN_FLIGHT_PER_SESSION', '0'],
      ['BFF_MAX_CONNECTIONS', 'many'],
      ['BFF_PUBLIC_ORIGIN', 'https://console.example/app'],
      ['BFF_PUBLIC_ORIGIN', 'console.example'],
      ['BFF_PUBLIC_ORIGIN', 'ftp://console.example'],
      ['BFF_REQUEST_TIMEOUT_MS', '-1'],
      ['BFF_SIGN_IN_READS_GRACE_MS', '60001'],
    ] as const) {
      expect(() => parseEnv({ ...base, [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });

  it('reads the profiles (auto by default), token styles and operator files per region', async () => {
    const base = { WORKSPACE_API_URL: 'http://127.0.0.1:4000/v1', SESSION_SECRET: 's'.repeat(32) };
    expect(parseEnv(base)).toMatchObject({
      WORKSPACE_API_PROFILE: 'auto',
      WORKSPACE_API_PROFILE_EU: 'auto',
      WORKSPACE_API_TOKEN_STYLE: 'auto',
    });
    expect(() => parseEnv({ ...base, WORKSPACE_API_PROFILE_EU: 'elementum' })).toThrow(
      /WORKSPACE_API_PROFILE_EU/,
    );
    expect(() => parseEnv({ ...base, WORKSPACE_API_TOKEN_STYLE: 'basic' })).toThrow(
      /WORKSPACE_API_TOKEN_STYLE/,
    );
    const identities = path.join(dataDir, 'identities.json');
    const workspace = path.join(dataDir, 'workspace-eu.json');
    await writeFile(
      identities,
      JSON.stringify({ identities: [{ clientId: 'c1', email: 'a@example.com', role: 'ADMIN' }] }),
    );
    await writeFile(
      workspace,
      JSON.stringify({
        definitions: [
          {
            recordType: 'elements',
            alias: 'customers',
            name: 'Customers',
            handle: 'CUS',
            fields: [],
          },
        ],
      }),
    );
    const config = configFromEnv(
      parseEnv({
        ...base,
        WORKSPACE_API_URL_EU: 'http://127.0.0.1:4001/v1',
        WORKSPACE_API_PROFILE: 'extended',
        WORKSPACE_API_PROFILE_EU: 'hosted',
        WORKSPACE_API_TOKEN_STYLE_EU: 'json',
        BFF_IDENTITIES_FILE: identities,
        BFF_WORKSPACE_FILE_EU: workspace,
      }),
    );
    expect(config.regions.map((r) => [r.id, r.profile, r.tokenStyle, r.workspace.length])).toEqual([
      ['default', 'extended', 'auto', 0],
      ['eu', 'hosted', 'json', 1],
    ]);
    expect(config.identities).toEqual([{ clientId: 'c1', email: 'a@example.com', role: 'ADMIN' }]);
    expect(configFromEnv(parseEnv(base)).identities).toBeNull();
    // The record history's daily budget per person (ADR 0026): defaults, and set by env.
    expect(configFromEnv(parseEnv(base)).historyBudget).toEqual({
      rowsPerDay: 20_000,
      bytesPerDay: 10_485_760,
      markersPerDay: 1_000,
    });
    const budget = configFromEnv(
      parseEnv({ ...base, BFF_HISTORY_DAILY_ROWS: '50', BFF_HISTORY_DAILY_BYTES: '4096' }),
    ).historyBudget;
    expect(budget).toMatchObject({ rowsPerDay: 50, bytesPerDay: 4096 });
    expect(() => parseEnv({ ...base, BFF_HISTORY_DAILY_ROWS: '0' })).toThrow(
      /BFF_HISTORY_DAILY_ROWS/,
    );
  });

  it('exits 1 naming the operator file and its problem (identities, workspace)', async () => {
    const identities = path.join(dataDir, 'bad-identities.json');
    const workspace = path.join(dataDir, 'bad-workspace.json');
    await writeFile(
      identities,
      JSON.stringify({ identities: [{ clientId: 'c1', email: 'a@example.com', role: 'ROOT' }] }),
    );
    await writeFile(
      workspace,
      JSON.stringify({
        definitions: [
          { recordType: 'apps', alias: 'a', name: 'A', handle: 'A', titleField: 'T', fields: [] },
        ],
      }),
    );
    const run = async (vars: Record<string, string>) => {
      const child = spawn(tsx, ['src/index.ts'], {
        cwd: appDir,
        env: childEnv({
          WORKSPACE_API_URL: upstream.apiUrl,
          SESSION_SECRET: 'a-session-secret-that-is-long-enough-123',
          BFF_DATA_DIR: path.join(dataDir, 'never-opened'),
          ...vars,
        }),
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      return { code, stderr };
    };
    const bad = await run({ BFF_IDENTITIES_FILE: identities });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('BFF_IDENTITIES_FILE');
    expect(bad.stderr).toContain('identities.0.role');
    expect(bad.stderr).not.toMatch(/at .*\.ts:\d+/);
    const badWorkspace = await run({ BFF_WORKSPACE_FILE: workspace });
    expect(badWorkspace.code).toBe(1);
    expect(badWorkspace.stderr).toContain('BFF_WORKSPACE_FILE');
    expect(badWorkspace.stderr).toContain('definitions.0.titleField: No field named "T"');
  });

  it('exits 1 naming every bad variable, without echoing the secret', async () => {
    const secret = 'too-short-secret';
    const child = spawn(tsx, ['src/index.ts'], {
      cwd: appDir,
      env: childEnv({
        WORKSPACE_API_URL: 'http://127.0.0.1:4000/api',
        WORKSPACE_API_URL_EU: 'not a url',
        SESSION_SECRET: secret,
        PORT: 'eighty',
      }),
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    for (const name of ['WORKSPACE_API_URL', 'WORKSPACE_API_URL_EU', 'SESSION_SECRET', 'PORT']) {
      expect(stderr).toContain(`${name}:`);
    }
    expect(stderr).not.toContain(secret);
    expect(stderr).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  });

  it('exits 1 when SESSION_SECRET is missing (no silent dev default)', async () => {
    const child = spawn(tsx, ['src/index.ts'], {
      cwd: appDir,
      env: childEnv({ WORKSPACE_API_URL: upstream.apiUrl }),
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(1);
    expect(stderr).toContain('SESSION_SECRET');
  });

  it('starts from PORT, HOST, WORKSPACE_API_URL, SESSION_SECRET, PUBLIC_DIR and BFF_DATA_DIR; metrics on their own port', async () => {
    const child = spawn(tsx, ['src/index.ts'], {
      cwd: appDir,
      env: childEnv({
        PORT: '0',
        HOST: '127.0.0.1',
        WORKSPACE_API_URL: upstream.apiUrl,
        SESSION_SECRET: 'a-session-secret-that-is-long-enough-123',
        PUBLIC_DIR: path.join(dataDir, 'no-console'),
        BFF_DATA_DIR: path.join(dataDir, 'store'),
        BFF_METRICS_PORT: '0',
      }),
    });
    try {
      // The log lines (JSON: stdout is a pipe) name both addresses.
      const urls = await new Promise<Record<string, string>>((resolve, reject) => {
        let out = '';
        const found: Record<string, string> = {};
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          // Complete lines only: the last one may still be arriving.
          for (const line of out.split('\n').slice(0, -1)) {
            if (!line.startsWith('{')) continue;
            const entry = JSON.parse(line) as { msg?: string; url?: string };
            if (entry.url && entry.msg) found[entry.msg] = entry.url;
          }
          if (found.listening && found['metrics listening']) resolve(found);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const url = urls.listening ?? '';
      const scraped = await fetch(urls['metrics listening'] ?? '');
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain(
        '# TYPE wsc_bff_http_request_duration_seconds histogram',
      );
      expect((await fetch(`${url}/metrics`)).status).not.toBe(200);
      const health = await fetch(`${url}/bff/health`);
      expect(health.status).toBe(200);
      const ready = await fetch(`${url}/bff/ready`);
      expect(ready.status).toBe(200);
      const root = await fetch(url, { headers: { accept: 'text/html' } });
      expect(root.status).toBe(503);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.on('exit', resolve));
    }
  });
});

describe('.env.example', () => {
  it('lists every variable of the BFF with its default (paths excepted)', () => {
    const listed = exampleSection('BFF');
    expect(Object.keys(EnvSchema.shape).filter((name) => !listed.has(name))).toEqual([]);
    for (const [name, schema] of Object.entries(EnvSchema.shape)) {
      const fallback = schema.safeParse(undefined);
      if (!fallback.success || fallback.data === undefined) continue;
      if (typeof fallback.data === 'string' && path.isAbsolute(fallback.data)) continue;
      expect(listed.get(name), name).toBe(String(fallback.data));
    }
  });
});
