// The BFF's only reader of process.env: parse once with zod and fail fast, naming every bad variable.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const apiUrl = z
  .url({ protocol: /^https?$/ })
  .refine((value) => /\/v1\/?$/.test(value), 'must end in /v1')
  .transform((value) => value.replace(/\/$/, ''));

const positiveInt = z.coerce.number().int().positive();

/** Unset and empty are the same: the variable's default applies. */
const blankIsUnset = (v: unknown) => (v === '' ? undefined : v);

/** What a region's upstream is: detected at the first sign-in (`auto`), or said by the operator. */
const profileSetting = z.preprocess(
  blankIsUnset,
  z.enum(['auto', 'extended', 'hosted']).default('auto'),
);

/**
 * How the token request is sent: `auto` (form + HTTP Basic, then the JSON body on 400/415/422,
 * remembered per region), or always one of them.
 */
const tokenStyleSetting = z.preprocess(
  blankIsUnset,
  z.enum(['auto', 'form', 'json']).default('auto'),
);

/** A path to an operator's JSON file; its content is validated at start by lib/config.ts. */
const optionalFile = z.preprocess(blankIsUnset, z.string().min(1).optional());

/**
 * A comma-separated list of origins (scheme, host and port only; no path), normalised by the URL
 * parser so that `https://Console.Example:443` compares equal to the browser's
 * `https://console.example`.
 */
const publicOrigins = z
  .string()
  .transform((value) => value.split(',').map((part) => part.trim()))
  .pipe(
    z.array(
      z.string().transform((value, ctx) => {
        const url = URL.canParse(value) ? new URL(value) : undefined;
        const origin =
          url &&
          (url.protocol === 'https:' || url.protocol === 'http:') &&
          url.pathname === '/' &&
          url.search === '' &&
          url.hash === '' &&
          url.username === '';
        if (!url || !origin) {
          ctx.addIssue({
            code: 'custom',
            message: 'must be origins such as https://console.example (scheme and host, no path)',
          });
          return z.NEVER;
        }
        return url.origin;
      }),
    ),
  );

/** Environment schema; every key is a variable named in DESIGN.md section 2 or an operational knob. */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  WORKSPACE_API_URL: apiUrl,
  WORKSPACE_API_URL_EU: z.preprocess(blankIsUnset, apiUrl.optional()),
  WORKSPACE_API_PROFILE: profileSetting,
  WORKSPACE_API_PROFILE_EU: profileSetting,
  WORKSPACE_API_TOKEN_STYLE: tokenStyleSetting,
  WORKSPACE_API_TOKEN_STYLE_EU: tokenStyleSetting,
  /** Client id -> email and role, for regions whose upstream has no `/v1/me` (hosted). */
  BFF_IDENTITIES_FILE: optionalFile,
  /** The workspace description (definitions) of a hosted region, per region. */
  BFF_WORKSPACE_FILE: optionalFile,
  BFF_WORKSPACE_FILE_EU: optionalFile,
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters'),
  PUBLIC_DIR: z.string().min(1).default(path.resolve(appRoot, '../web/dist')),
  BFF_DATA_DIR: z.string().min(1).default(path.resolve(appRoot, '.data/bff')),
  // Unset: the store's default (PGLITE_SHARED_BUFFERS_MB in db/store.ts, 16).
  BFF_PGLITE_SHARED_BUFFERS_MB: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(1).max(4096).optional(),
  ),
  BFF_DATABASE_URL: z.preprocess(blankIsUnset, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  SESSION_IDLE_MINUTES: positiveInt.default(30),
  SESSION_ABSOLUTE_HOURS: positiveInt.default(12),
  UPSTREAM_TIMEOUT_MS: positiveInt.default(30_000),
  /** A proxied body (upload or download) that moves no byte for this long is aborted. */
  UPSTREAM_BODY_IDLE_TIMEOUT_MS: positiveInt.default(60_000),
  /**
   * How long a sign-in waits for its first screen's reads (definitions, first page) once the
   * person is known; then it answers without them and the console reads them itself.
   */
  BFF_SIGN_IN_READS_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Proxied requests in flight at once: per session, per user (all their sessions), per region. */
  BFF_MAX_IN_FLIGHT_PER_SESSION: positiveInt.default(16),
  BFF_MAX_IN_FLIGHT_PER_USER: positiveInt.default(32),
  BFF_MAX_IN_FLIGHT_PER_REGION: positiveInt.default(512),
  /**
   * The console's public origin(s), comma-separated (`https://console.example`): the only
   * `Origin` a state-changing request may carry. Unset: `https://<Host>`, or `http://<Host>` too
   * for a loopback host (local development).
   */
  BFF_PUBLIC_ORIGIN: z.preprocess(blankIsUnset, publicOrigins.optional()),
  /**
   * How many proxies in front of the BFF append to `X-Forwarded-For` (a load balancer: 1). Their
   * entries name the client for the sign-in limit and the logs; 0 trusts none (the socket peer).
   */
  BFF_TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Time for a client to send its request headers (Node's `headersTimeout`). */
  BFF_HEADERS_TIMEOUT_MS: positiveInt.default(20_000),
  /** Time for a client to send a whole request, body included, except an authenticated upload. */
  BFF_REQUEST_TIMEOUT_MS: positiveInt.default(60_000),
  /** Time for a whole upload request (Node's `requestTimeout`, the outer bound of every request). */
  BFF_UPLOAD_TIMEOUT_MS: positiveInt.default(3_600_000),
  /** An idle keep-alive connection is closed after this long. */
  BFF_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(5_000),
  /** Open client connections at most; more are refused at accept. */
  BFF_MAX_CONNECTIONS: positiveInt.default(4_096),
  /** Days the record history keeps an entry (ADR 0024); older entries are swept. */
  BFF_HISTORY_RETENTION_DAYS: positiveInt.default(365),
  /**
   * Record history entries (one per changed field) one person's changes may add per UTC day;
   * past it (or past the bytes) a change keeps one "not kept" entry instead (ADR 0026).
   */
  BFF_HISTORY_DAILY_ROWS: positiveInt.default(20_000),
  /** Bytes (values and field names, plus a per-entry overhead) of those entries per day. */
  BFF_HISTORY_DAILY_BYTES: positiveInt.default(10 * 1024 * 1024),
  /** Live event streams (`GET /bff/events`) one instance holds at most; more get 429. */
  BFF_MAX_EVENT_STREAMS: positiveInt.default(1_000),
  /**
   * How long a presence row outlives its last refresh: a BFF instance that dies stops showing its
   * users within 1.25x this.
   */
  BFF_PRESENCE_TTL_MS: z.coerce.number().int().min(1_000).max(60_000).default(20_000),
  /** Sessions one person holds at most (0: no limit); a sign-in past it ends their oldest. */
  BFF_MAX_SESSIONS_PER_PERSON: z.coerce.number().int().min(0).default(10),
  /** Sign-ins per minute one credential may make, and the burst above it (rate 0: no limit). */
  BFF_SIGN_INS_PER_MINUTE_PER_CREDENTIAL: z.coerce.number().min(0).default(20),
  BFF_SIGN_IN_BURST_PER_CREDENTIAL: positiveInt.default(20),
  /** Live event streams one person holds at most on all instances together (0: no limit). */
  BFF_MAX_STREAMS_PER_PERSON: z.coerce.number().int().min(0).default(12),
  /** Presence changes per second one person may make, and the burst above it (rate 0: no limit). */
  BFF_PRESENCE_RATE_PER_PERSON: z.coerce.number().min(0).default(2),
  BFF_PRESENCE_BURST_PER_PERSON: positiveInt.default(20),
  /** Requests per second one session may make to `/bff/*`, and the burst (rate 0: no limit). */
  BFF_SESSION_RATE_PER_SECOND: z.coerce.number().min(0).default(20),
  BFF_SESSION_RATE_BURST: positiveInt.default(120),
  /** A region's presence is read again at most once per this many ms (changes are coalesced). */
  BFF_PRESENCE_READ_INTERVAL_MS: z.coerce.number().int().min(0).max(5_000).default(200),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Prometheus text at GET /metrics on a port of its own (unset: no metrics server). */
  BFF_METRICS_PORT: z.preprocess(
    blankIsUnset,
    z.coerce.number().int().min(0).max(65_535).optional(),
  ),
  BFF_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});
export type Env = z.infer<typeof EnvSchema>;

/** Thrown by `parseEnv` with the names of the variables that failed validation. */
export class EnvError extends Error {
  constructor(readonly problems: { name: string; message: string }[]) {
    super(`Invalid environment: ${problems.map((p) => `${p.name} (${p.message})`).join(', ')}`);
    this.name = 'EnvError';
  }
}

/**
 * Validate an environment record. Values are never echoed in the error (SESSION_SECRET is one).
 *
 * @example
 * const env = parseEnv({ WORKSPACE_API_URL: 'http://127.0.0.1:4000/v1', SESSION_SECRET: 'x'.repeat(32) });
 */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    throw new EnvError(
      result.error.issues.map((issue) => ({
        name: issue.path.join('.') || '(root)',
        message: issue.message,
      })),
    );
  }
  return result.data;
}

/**
 * Read and validate `process.env`.
 *
 * @example
 * const env = readEnv();
 */
export function readEnv(): Env {
  return parseEnv(process.env);
}
