import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { EnvError, EnvSchema, parseEnv } from './env.ts';

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

describe('parseEnv', () => {
  it('applies defaults', () => {
    const config = parseEnv({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      region: 'default',
      tokenTtlSeconds: 86_400,
      rateLimit: { ratePerSecond: 20, burst: 100 },
      databaseUrl: undefined,
      workspaceFile: undefined,
    });
    expect(config.blobDir).toBe(`${config.dataDir}/blobs`);
  });

  it('reads every variable', () => {
    const config = parseEnv({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/wsa',
      DATABASE_URL: 'postgres://u@localhost/db',
      REGION: 'eu',
      TOKEN_TTL_SECONDS: '60',
      RATE_LIMIT_RPS: '5',
      RATE_LIMIT_BURST: '10',
      BLOB_DIR: '/tmp/blobs',
      WORKSPACE_FILE: '/tmp/ws.json',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/tmp/wsa',
      databaseUrl: 'postgres://u@localhost/db',
      region: 'eu',
      tokenTtlSeconds: 60,
      rateLimit: { ratePerSecond: 5, burst: 10 },
      blobDir: '/tmp/blobs',
      workspaceFile: '/tmp/ws.json',
    });
  });

  it('leaves PGlite shared_buffers to the database default unless PGLITE_SHARED_BUFFERS_MB is set', () => {
    expect(parseEnv({}).pgliteSharedBuffersMb).toBeUndefined();
    expect(parseEnv({ PGLITE_SHARED_BUFFERS_MB: '32' }).pgliteSharedBuffersMb).toBe(32);
    for (const bad of ['0', '64MB', '-1', '5000']) {
      expect(() => parseEnv({ PGLITE_SHARED_BUFFERS_MB: bad })).toThrow(/PGLITE_SHARED_BUFFERS_MB/);
    }
  });

  it('serves the extended profile unless API_PROFILE=hosted', () => {
    expect(parseEnv({}).profile).toBe('extended');
    expect(parseEnv({ API_PROFILE: 'hosted' }).profile).toBe('hosted');
    expect(parseEnv({ API_PROFILE: 'extended' }).profile).toBe('extended');
    expect(() => parseEnv({ API_PROFILE: 'elementum' })).toThrow(/API_PROFILE/);
  });

  it('takes a request rate below one per second, and refuses what is not a number', () => {
    expect(parseEnv({ RATE_LIMIT_RPS: '0.05' }).rateLimit).toEqual({
      ratePerSecond: 0.05,
      burst: 100,
    });
    for (const bad of ['-1', '1e3', '.5', 'fast', '0,5']) {
      expect(() => parseEnv({ RATE_LIMIT_RPS: bad })).toThrow(/RATE_LIMIT_RPS/);
    }
  });

  it('turns every limit off with RATE_LIMIT_RPS=0', () => {
    const config = parseEnv({ RATE_LIMIT_RPS: '0' });
    expect(config.rateLimit.ratePerSecond).toBe(0);
    expect(config.tokenFailureLimit.ratePerSecond).toBe(0);
  });

  it('reads the limits of DESIGN.md section 6, with their defaults', () => {
    expect(parseEnv({})).toMatchObject({
      secretCheck: { concurrency: 2, queue: 64, cacheTtlSeconds: 300 },
      blobMinFreeBytes: 1024 ** 3,
      searchTimeoutMs: 5_000,
      searchTimeBudget: { ratePerSecond: 500, burst: 10_000 },
      tokenFailureLimit: { ratePerSecond: 1 / 6, burst: 10 },
      tokenFailureAddressLimit: { ratePerSecond: 1 / 3, burst: 20 },
      seedDemo: undefined,
      server: {
        headersTimeoutMs: 20_000,
        requestTimeoutMs: 60_000,
        bodyIdleTimeoutMs: 60_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 1_000,
      },
      tokenPurgeIntervalSeconds: 3_600,
    });
    expect(
      parseEnv({
        SECRET_CHECK_CONCURRENCY: '1',
        SECRET_CHECK_QUEUE: '0',
        SECRET_CACHE_TTL_SECONDS: '0',
        BLOB_MIN_FREE_BYTES: '0',
        SEARCH_TIMEOUT_MS: '250',
        SEED_DEMO: '1',
        HEADERS_TIMEOUT_MS: '1000',
        REQUEST_TIMEOUT_MS: '2000',
        BODY_IDLE_TIMEOUT_MS: '3000',
        KEEP_ALIVE_TIMEOUT_MS: '4000',
        MAX_CONNECTIONS: '10',
        TOKEN_PURGE_INTERVAL_SECONDS: '60',
      }),
    ).toMatchObject({
      secretCheck: { concurrency: 1, queue: 0, cacheTtlSeconds: 0 },
      blobMinFreeBytes: 0,
      searchTimeoutMs: 250,
      searchTimeBudget: { ratePerSecond: 500, burst: 500 },
      seedDemo: true,
      server: {
        headersTimeoutMs: 1000,
        requestTimeoutMs: 2000,
        bodyIdleTimeoutMs: 3000,
        keepAliveTimeoutMs: 4000,
        maxConnections: 10,
      },
      tokenPurgeIntervalSeconds: 60,
    });
    expect(parseEnv({ SEED_DEMO: '0' }).seedDemo).toBe(false);
    expect(parseEnv({ RATE_LIMIT_RPS: '0' }).searchTimeBudget.ratePerSecond).toBe(0);
    for (const bad of [
      { SECRET_CHECK_CONCURRENCY: '0' },
      { SEARCH_TIMEOUT_MS: '0' },
      { MAX_CONNECTIONS: '-1' },
    ])
      expect(() => parseEnv(bad)).toThrow(Object.keys(bad)[0]);
  });

  it('lists every bad variable by name', () => {
    try {
      parseEnv({
        PORT: 'eighty',
        REGION: 'us',
        TOKEN_TTL_SECONDS: '-1',
        DATABASE_URL: 'mysql://x',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const names = (error as EnvError).problems.map((problem) => problem.split(':')[0]).sort();
      expect(names).toEqual(['DATABASE_URL', 'PORT', 'REGION', 'TOKEN_TTL_SECONDS']);
    }
  });
});

describe('.env.example', () => {
  it('lists every variable of the API with its default', () => {
    const listed = exampleSection('Workspace API');
    expect(Object.keys(EnvSchema.shape).filter((name) => !listed.has(name))).toEqual([]);
    for (const [name, schema] of Object.entries(EnvSchema.shape)) {
      const fallback: unknown = schema.parse(undefined);
      if (fallback !== undefined) expect(listed.get(name), name).toBe(String(fallback));
    }
  });
});
