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

const EnvSchema = z.object({
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
  RATE_LIMIT_RPS: intFrom(20),
  RATE_LIMIT_BURST: intFrom(100),
  BLOB_DIR: z.string().trim().min(1).optional(),
  WORKSPACE_FILE: z.string().trim().min(1).optional(),
  LOG_LEVEL: z.enum(['silent', 'error', 'info']).default('info'),
  API_PROFILE: z.enum(['extended', 'hosted']).default('extended'),
  // Unset: the default of db/client.ts (PGLITE_SHARED_BUFFERS_MB), shared with benches and the CLI.
  PGLITE_SHARED_BUFFERS_MB: z
    .string()
    .trim()
    .regex(/^\d+$/, 'Expected a whole number of MiB')
    .transform(Number)
    .pipe(z.number().int().min(1).max(4096))
    .optional(),
});

/**
 * `extended`: our API with its extensions. `hosted`: only what the hosted service's published
 * OpenAPI promises (DESIGN.md section 5), to test clients against exactly that contract.
 */
export type Profile = 'extended' | 'hosted';

/** Limits of a token bucket: `ratePerSecond` 0 turns the limit off. */
export type BucketLimits = { ratePerSecond: number; burst: number };

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
  /** Per client id, on failed token requests only (guessing secrets). */
  tokenFailureLimit: BucketLimits;
  blobDir: string;
  workspaceFile: string | undefined;
  logLevel: 'silent' | 'error' | 'info';
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
