// The only module that reads process.env (house rule 9): parse once, fail fast, hand out a typed Config.
import path from 'node:path';
import { z } from 'zod';

const intFrom = (fallback: number, min = 0) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'Expected a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(min))
    .optional()
    .transform((value) => value ?? fallback);

// A rate may be below one per second (`0.05`: one request every 20 s, e.g. a strict tenant's limit).
const rateFrom = (fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'Expected a non-negative number, e.g. 20 or 0.5')
    .transform(Number)
    .pipe(z.number().min(0).max(1_000_000))
    .optional()
    .transform((value) => value ?? fallback);

export const EnvSchema = z.object({
  PORT: intFrom(8080, 1).pipe(z.number().max(65_535)),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().trim().min(1).default('.data/workspace-api'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'Expected a postgres:// URL')
    .optional(),
  REGION: z.enum(['default', 'eu']).default('default'),
  TOKEN_TTL_SECONDS: intFrom(86_400, 1),
  RATE_LIMIT_RPS: rateFrom(20),
  RATE_LIMIT_BURST: intFrom(100),
  BLOB_DIR: z.string().trim().min(1).optional(),
  WORKSPACE_FILE: z.string().trim().min(1).optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  API_PROFILE: z.enum(['extended', 'hosted']).default('extended'),
  // Unset: the default of db/client.ts (PGLITE_SHARED_BUFFERS_MB), shared with benches and the CLI.
  PGLITE_SHARED_BUFFERS_MB: z
    .string()
    .trim()
    .regex(/^\d+$/, 'Expected a whole number of MiB')
    .transform(Number)
    .pipe(z.number().int().min(1).max(4096))
    .optional(),
  // Secret checks (POST /oauth/token): scrypt runs at most this many at once, with this many
  // waiting; beyond that the answer is an immediate 503 (oauth/secret-check.ts).
  SECRET_CHECK_CONCURRENCY: intFrom(2, 1).pipe(z.number().max(64)),
  SECRET_CHECK_QUEUE: intFrom(64),
  // How long a verified (client id, secret) pair skips scrypt; 0 turns the cache off.
  SECRET_CACHE_TTL_SECONDS: intFrom(300).pipe(z.number().max(3600)),
  // Uploads are refused (507) when they would leave less than this free on the blob volume.
  BLOB_MIN_FREE_BYTES: intFrom(1024 ** 3),
  // statement_timeout of a search (PostgreSQL); PGlite cannot interrupt a statement, see
  // search/limits.ts for what stands in for it there.
  SEARCH_TIMEOUT_MS: intFrom(5_000, 1),
  // 1: seed the demo into an empty store, even PostgreSQL; 0: never. Unset: embedded stores only.
  SEED_DEMO: z.enum(['0', '1']).optional(),
  // The HTTP server (src/server.ts).
  HEADERS_TIMEOUT_MS: intFrom(20_000, 1),
  REQUEST_TIMEOUT_MS: intFrom(60_000, 1),
  BODY_IDLE_TIMEOUT_MS: intFrom(60_000, 1),
  KEEP_ALIVE_TIMEOUT_MS: intFrom(5_000, 1),
  MAX_CONNECTIONS: intFrom(1_000, 1),
  // Expired and revoked tokens are deleted at most this often (on a timer and on token issue).
  TOKEN_PURGE_INTERVAL_SECONDS: intFrom(3_600, 1),
  // Valid tokens whose lookup is remembered (identity/token-cache.ts); 0 looks every token up.
  TOKEN_CACHE_ENTRIES: intFrom(10_000),
  // Prometheus text at GET /metrics on a port of its own (unset: no metrics server).
  METRICS_PORT: z
    .string()
    .trim()
    .regex(/^\d+$/, 'Expected a port number')
    .transform(Number)
    .pipe(z.number().int().min(0).max(65_535))
    .optional(),
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
});

/**
 * `extended`: our API with its extensions. `hosted`: only what the hosted service's published
 * OpenAPI promises (DESIGN.md section 5), to test clients against exactly that contract.
 */
export type Profile = 'extended' | 'hosted';

/** Limits of a token bucket: `ratePerSecond` 0 turns the limit off. */
export type BucketLimits = { ratePerSecond: number; burst: number };

/** Limits of the Node HTTP server (src/server.ts); all in milliseconds but the connection count. */
export type ServerLimits = {
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** The body must have arrived this long after the headers (every route but uploads, which have only the idle limit). */
  requestTimeoutMs: number;
  /** A connection with no byte moving either way for this long is closed (uploads included). */
  bodyIdleTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Connections beyond this are refused as they arrive. */
  maxConnections: number;
};

/** The bounded scrypt queue and its cache of recent successes (oauth/secret-check.ts). */
export type SecretCheckLimits = { concurrency: number; queue: number; cacheTtlSeconds: number };

/** Everything the app needs from its environment; tests build their own. */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; absent means embedded PGlite under `dataDir/pg` (or memory when dataDir is null). */
  databaseUrl: string | undefined;
  region: 'default' | 'eu';
  tokenTtlSeconds: number;
  /** Per credential, on every authenticated request. */
  rateLimit: BucketLimits;
  /** Per (client id, source address), on failed token requests only (guessing secrets). */
  tokenFailureLimit: BucketLimits;
  /** Per source address across client ids, so that new client ids bring no fresh failures. */
  tokenFailureAddressLimit: BucketLimits;
  secretCheck: SecretCheckLimits;
  /** Free bytes an upload must leave on the blob volume (else 507). */
  blobMinFreeBytes: number;
  /** statement_timeout of a search in milliseconds. */
  searchTimeoutMs: number;
  /**
   * Search time a credential may use, in milliseconds refilled per second (burst: two searches
   * that hit the timeout); off with the rate limit.
   */
  searchTimeBudget: BucketLimits;
  /** SEED_DEMO: true or false when set; undefined: seed embedded stores only. */
  seedDemo: boolean | undefined;
  server: ServerLimits;
  tokenPurgeIntervalSeconds: number;
  /** Token lookups remembered between database notifications (identity/token-cache.ts). */
  tokenCache: { maxEntries: number; maxAgeMs: number };
  /** GET /metrics on this port and host; undefined: no metrics server. */
  metrics: { port: number; host: string } | undefined;
  blobDir: string;
  workspaceFile: string | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Which contract the API serves (`API_PROFILE`); see lib/profile.ts. */
  profile: Profile;
  /** PGlite `shared_buffers` in MiB; undefined: the default of db/client.ts. */
  pgliteSharedBuffersMb?: number | undefined;
};

/** Thrown when the environment is invalid; lists every bad variable. */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment: ${problems.join('; ')}`);
    this.name = 'EnvError';
  }
}

/**
 * Parses an environment map into a Config, throwing EnvError naming every bad variable.
 *
 * @example
 * const config = parseEnv({ PORT: '8081', REGION: 'eu' });
 */
export function parseEnv(source: Record<string, string | undefined>): Config {
  // Empty strings count as unset, so `FOO= pnpm start` behaves like no FOO at all.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  const env = result.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const rateOn = env.RATE_LIMIT_RPS > 0 && env.RATE_LIMIT_BURST > 0;
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    region: env.REGION,
    tokenTtlSeconds: env.TOKEN_TTL_SECONDS,
    rateLimit: rateOn
      ? { ratePerSecond: env.RATE_LIMIT_RPS, burst: env.RATE_LIMIT_BURST }
      : { ratePerSecond: 0, burst: 0 },
    // Ten failed attempts, then one more every six seconds per client id; off with the main limit.
    tokenFailureLimit: rateOn
      ? { ratePerSecond: 1 / 6, burst: 10 }
      : { ratePerSecond: 0, burst: 0 },
    // Per source address, across every client id: twice the per-id burst, refilling at its rate
    // times two (an address may be a proxy or NAT with a few users behind it).
    tokenFailureAddressLimit: rateOn
      ? { ratePerSecond: 1 / 3, burst: 20 }
      : { ratePerSecond: 0, burst: 0 },
    secretCheck: {
      concurrency: env.SECRET_CHECK_CONCURRENCY,
      queue: env.SECRET_CHECK_QUEUE,
      cacheTtlSeconds: env.SECRET_CACHE_TTL_SECONDS,
    },
    blobMinFreeBytes: env.BLOB_MIN_FREE_BYTES,
    searchTimeoutMs: env.SEARCH_TIMEOUT_MS,
    // Half a second of search time per second per credential: one credential cannot keep an
    // embedded region (one thread) busy, while a person triaging never notices.
    searchTimeBudget: rateOn
      ? { ratePerSecond: 500, burst: 2 * env.SEARCH_TIMEOUT_MS }
      : { ratePerSecond: 0, burst: 0 },
    seedDemo: env.SEED_DEMO === undefined ? undefined : env.SEED_DEMO === '1',
    server: {
      headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      bodyIdleTimeoutMs: env.BODY_IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: env.MAX_CONNECTIONS,
    },
    tokenPurgeIntervalSeconds: env.TOKEN_PURGE_INTERVAL_SECONDS,
    tokenCache: { maxEntries: env.TOKEN_CACHE_ENTRIES, maxAgeMs: 60_000 },
    metrics:
      env.METRICS_PORT === undefined
        ? undefined
        : { port: env.METRICS_PORT, host: env.METRICS_HOST },
    blobDir: path.resolve(env.BLOB_DIR ?? path.join(dataDir, 'blobs')),
    workspaceFile: env.WORKSPACE_FILE ? path.resolve(env.WORKSPACE_FILE) : undefined,
    logLevel: env.LOG_LEVEL,
    profile: env.API_PROFILE,
    pgliteSharedBuffersMb: env.PGLITE_SHARED_BUFFERS_MB,
  };
}

/**
 * Reads process.env once; prints the problems and exits when it is invalid.
 *
 * @example
 * const config = loadConfig();
 */
export function loadConfig(): Config {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
