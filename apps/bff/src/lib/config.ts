// The BFF's runtime configuration: built from env in production, written directly by tests.
import { MAX_UPLOAD_BYTES } from '@wsc/api-client';
import { MAX_EVENT_STREAMS_PER_SESSION } from '@wsc/api-client/bff-events';

import type { Env } from '../env.ts';
import type { HistoryBudget } from '../routes/history/history.budget.ts';
import type { Identity } from './identities.ts';
import type { Region, RegionId } from './region.ts';
import type { Rate } from './token-bucket.ts';
import { readIdentitiesFile } from './identities.ts';
import { MAX_STORED_DEFINITIONS, readWorkspaceFile } from './workspace-definitions.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type BffConfig = {
  regions: Region[];
  sessionSecret: string;
  /** Folder of the built console; `null` or a folder without index.html -> `/` answers 503. */
  publicDir: string | null;
  /**
   * Largest upload forwarded upstream (a multipart POST to `.../attachments`): one 250 MiB file
   * plus multipart overhead.
   */
  maxUploadBytes: number;
  /** Largest body of any other request: the BFF's own JSON routes and other proxied bodies. */
  maxJsonBodyBytes: number;
  /** Proxied requests in flight at once; past a cap a request is refused before it is sent. */
  inFlight: { perSession: number; perUser: number; perRegion: number };
  /**
   * Captured writes (ADR 0024) that hold their body, record and reply in memory at once, per
   * region; the others wait their turn (ADR 0029).
   */
  capturedWritesPerRegion: number;
  /** The per-session record copies and the replies teed into them (ADR 0029). */
  recordCopies: RecordCopiesLimits & CopyFillLimits;
  /**
   * The console's origins (`https://console.example`) a request's `Origin` must equal; `null`:
   * `https://<Host>`, and `http://<Host>` too when the host is loopback.
   */
  publicOrigins: string[] | null;
  /** Limits of the BFF's own HTTP server (lib/server.ts); `requestTimeoutMs` is the app's. */
  server: ServerLimits;
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
  /** The idle timestamp is written at most this often per session (keeps the hot path write-free). */
  touchIntervalMs: number;
  /** How long a session row read from the store is trusted in memory. */
  sessionCacheMs: number;
  /** Time allowed for upstream response headers, counted from the end of the request body. */
  upstreamTimeoutMs: number;
  /**
   * How long a sign-in waits for the reads it makes beside the identity (the definitions, the
   * first page) once the person is known; then they are aborted and the sign-in answers without.
   */
  signInReadsGraceMs: number;
  /**
   * A proxied body that moves no byte for this long is aborted: a request body the browser stops
   * sending (or the API stops taking), and a response body the API stops sending (or the browser
   * stops reading).
   */
  bodyIdleTimeoutMs: number;
  /**
   * BFF_IDENTITIES_FILE: client id -> email and role for hosted regions; `null` when not
   * configured (then any signed-in user may edit the workspace description).
   */
  identities: Identity[] | null;
  /**
   * The identities file's path (BFF_IDENTITIES_FILE), re-read when it changes so that a role the
   * operator takes away is gone within seconds (lib/identities-source.ts); `null`: `identities`
   * as given (tests).
   */
  identitiesFile: string | null;
  /** Definitions one region may keep in the store (the Workspace setup page). */
  maxStoredDefinitions: number;
  retry: { maxRetries: number; baseDelayMs: number; maxDelayMs: number; maxRetryAfterMs: number };
  loginRateLimit: { max: number; windowMs: number };
  /**
   * Proxies in front of the BFF whose `X-Forwarded-For` entries are believed (BFF_TRUST_PROXY):
   * 0 takes the socket peer as the client.
   */
  trustProxy: number;
  /** A token is refreshed once this fraction of its lifetime has passed. */
  tokenRefreshRatio: number;
  /** How long the record history keeps an entry (BFF_HISTORY_RETENTION_DAYS, ADR 0024). */
  historyRetentionMs: number;
  /** What one person's changes may add to the record history per UTC day (ADR 0026). */
  historyBudget: HistoryBudget;
  /** `GET /bff/events` and `PUT /bff/presence` (ADR 0023). */
  liveEvents: LiveEventsConfig;
  /** What one person may hold and send, so that they cannot crowd out the others (ADR 0027). */
  fairness: FairnessLimits;
};

/** Limits per person (owner id) and per session; 0 (or a rate of 0) turns one off. */
export type FairnessLimits = {
  /** Sessions one person holds at most; a sign-in past it ends their oldest session. */
  sessionsPerPerson: number;
  /** Sign-ins one credential (region and client id) may make; counted once the secret was taken. */
  signInsPerCredential: Rate;
  /** Event streams one person holds at most, on every instance together (the presence table). */
  streamsPerPerson: number;
  /** Presence changes one person may make (all their streams), per instance. */
  presencePerPerson: Rate;
  /** Requests one session may make to `/bff/*`, per instance. */
  requestsPerSession: Rate;
  /** A region's presence is read again at most once per this interval; changes meanwhile wait. */
  presenceReadIntervalMs: number;
};

/** Bounds of the per-session record copies (routes/proxy/record-copies.ts, ADR 0029). */
export type RecordCopiesLimits = {
  entriesPerSession: number;
  /** Bytes of a session's copies (as JSON text); a record larger than this is not kept. */
  bytesPerSession: number;
  /** Bytes of all sessions' copies together. */
  bytesTotal: number;
  /**
   * How long a copy with an ETag lives: its ETag proves it exact whatever its age. A copy
   * without one is useless after COPY_FRESH_MS (10 s) and lives that long.
   */
  ttlMs: number;
};

/** What is teed into the copies (routes/proxy/record-copy-fill.ts). */
export type CopyFillLimits = {
  /** A record reply larger than this streams untouched (the API's record size). */
  maxRecordBytes: number;
  /** A list reply larger than this streams untouched. */
  maxListBytes: number;
  /** Bytes being collected by all teed replies at once; past it a reply is not kept. */
  teeBytesTotal: number;
};

/** The live events' bounds and timings. */
export type LiveEventsConfig = {
  /** Event streams this instance holds at most (BFF_MAX_EVENT_STREAMS); more get 429. */
  maxStreams: number;
  /** Event streams one session holds at most (a tab each); more get 429. */
  maxStreamsPerSession: number;
  /** A comment line goes to every stream this often; the session is checked as often. */
  heartbeatMs: number;
  /**
   * A presence row lives this long unless its instance refreshes it (every quarter of it); any
   * instance sweeps expired rows as often, so a dead instance's users vanish within 1.25x this
   * (BFF_PRESENCE_TTL_MS).
   */
  presenceTtlMs: number;
  /** Bytes queued for a stream that does not read before it is dropped. */
  maxQueueBytes: number;
  /** Presence changes one stream may make per window. */
  presencePuts: { max: number; windowMs: number };
  /** The `retry:` hint: how long the browser waits before reconnecting a dropped stream. */
  retryMs: number;
};

/** Timeouts and the connection cap of the BFF's own HTTP server. */
export type ServerLimits = {
  /** Time for a client to send its request headers (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /**
   * Time for a client to send a whole request, body included; enforced per request by the app
   * (middlewares/request-deadline.ts) so that an admitted upload can be excepted.
   */
  requestTimeoutMs: number;
  /** The outer bound of any request, uploads included (Node's `requestTimeout`). */
  uploadTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long (Node's `keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
  /** Open client connections at most (Node's `maxConnections`); more are closed at accept. */
  maxConnections: number;
};

/** JSON bodies: DESIGN.md section 6 ("JSON bodies ... 1 MiB, 413 before reading further"). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Multipart framing around a 250 MiB file: boundaries, part headers and a description field. */
export const MULTIPART_ALLOWANCE_BYTES = 1024 * 1024;

/**
 * The token URL of an API base: strip `/v1`, add `/oauth/token`.
 *
 * @example
 * tokenUrlFor('https://api.example.com/v1'); // 'https://api.example.com/oauth/token'
 */
export function tokenUrlFor(apiUrl: string): string {
  return `${apiUrl.replace(/\/v1\/?$/, '')}/oauth/token`;
}

/**
 * A region entry from its API base URL.
 *
 * @example
 * const eu = regionFor('eu', 'http://127.0.0.1:4001/v1', { profile: 'hosted' });
 */
export function regionFor(
  id: RegionId,
  apiUrl: string,
  options: Partial<Pick<Region, 'profile' | 'tokenStyle' | 'workspace'>> = {},
): Region {
  return {
    id,
    label: id === 'eu' ? 'EU' : 'Default',
    apiUrl: apiUrl.replace(/\/$/, ''),
    tokenUrl: tokenUrlFor(apiUrl),
    profile: options.profile ?? 'auto',
    tokenStyle: options.tokenStyle ?? 'auto',
    workspace: options.workspace ?? [],
  };
}

/**
 * Defaults for everything but the regions, the secret and the public folder.
 *
 * @example
 * const config = { ...defaultConfig(), regions: [regionFor('default', url)], sessionSecret, publicDir: null };
 */
export function defaultConfig(): Omit<BffConfig, 'regions' | 'sessionSecret' | 'publicDir'> {
  return {
    maxUploadBytes: MAX_UPLOAD_BYTES + MULTIPART_ALLOWANCE_BYTES,
    maxJsonBodyBytes: MAX_JSON_BODY_BYTES,
    // 16 per session is far above what a browser sends at once (6 connections per origin over
    // HTTP/1.1); 32 per user leaves room for two browsers; 512 per region bounds the sockets
    // to one API (the agent's pool has the same size, so nothing waits unseen in its queue).
    inFlight: { perSession: 16, perUser: 32, perRegion: 512 },
    // 8 x (1 MiB body + 1 MiB record + 1 MiB reply) at the very most; a field edit holds a few KB.
    capturedWritesPerRegion: 8,
    recordCopies: {
      // A page of 100-500 rows and the records opened from it; a record up to the API's 1 MiB.
      entriesPerSession: 500,
      bytesPerSession: MAX_JSON_BODY_BYTES,
      bytesTotal: 32 * 1024 * 1024,
      ttlMs: 5 * 60_000,
      maxRecordBytes: MAX_JSON_BODY_BYTES,
      maxListBytes: 512 * 1024,
      teeBytesTotal: 16 * 1024 * 1024,
    },
    publicOrigins: null,
    server: {
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 60_000,
      uploadTimeoutMs: 3_600_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 4_096,
    },
    idleTimeoutMs: 30 * 60_000,
    absoluteTimeoutMs: 12 * 3_600_000,
    touchIntervalMs: 60_000,
    sessionCacheMs: 5_000,
    upstreamTimeoutMs: 30_000,
    signInReadsGraceMs: 1_000,
    bodyIdleTimeoutMs: 60_000,
    identities: null,
    identitiesFile: null,
    maxStoredDefinitions: MAX_STORED_DEFINITIONS,
    retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 2_000 },
    loginRateLimit: { max: 10, windowMs: 5 * 60_000 },
    trustProxy: 0,
    tokenRefreshRatio: 0.9,
    historyRetentionMs: 365 * DAY_MS,
    historyBudget: { rowsPerDay: 20_000, bytesPerDay: 10 * 1024 * 1024, markersPerDay: 1_000 },
    liveEvents: {
      maxStreams: 1_000,
      maxStreamsPerSession: MAX_EVENT_STREAMS_PER_SESSION,
      heartbeatMs: 15_000,
      presenceTtlMs: 20_000,
      maxQueueBytes: 256 * 1024,
      presencePuts: { max: 30, windowMs: 10_000 },
      retryMs: 2_000,
    },
    fairness: {
      // A person with a laptop, a phone and a few browsers; past it their oldest session ends.
      sessionsPerPerson: 10,
      // Far above a person's day (and an end-to-end suite's pace); bounds sign-in churn.
      signInsPerCredential: { ratePerSecond: 20 / 60, burst: 20 },
      // Two sessions' worth of tabs (6 each).
      streamsPerPerson: 12,
      // Opening records in triage is a few a second at most; the burst covers a page of tabs.
      presencePerPerson: { ratePerSecond: 2, burst: 20 },
      // A page load sends about ten /bff requests; a busy console a few a second.
      requestsPerSession: { ratePerSecond: 20, burst: 120 },
      presenceReadIntervalMs: 200,
    },
  };
}

/**
 * The configuration the server runs with, from validated env. Reads the operator files it names
 * (identities, workspace descriptions) and throws ConfigFileError naming the first bad one.
 *
 * @example
 * const config = configFromEnv(readEnv());
 */
export function configFromEnv(env: Env): BffConfig {
  const workspace = (variable: string, file: string | undefined) =>
    file ? readWorkspaceFile(variable, file) : [];
  const regions = [
    regionFor('default', env.WORKSPACE_API_URL, {
      profile: env.WORKSPACE_API_PROFILE,
      tokenStyle: env.WORKSPACE_API_TOKEN_STYLE,
      workspace: workspace('BFF_WORKSPACE_FILE', env.BFF_WORKSPACE_FILE),
    }),
  ];
  if (env.WORKSPACE_API_URL_EU) {
    regions.push(
      regionFor('eu', env.WORKSPACE_API_URL_EU, {
        profile: env.WORKSPACE_API_PROFILE_EU,
        tokenStyle: env.WORKSPACE_API_TOKEN_STYLE_EU,
        workspace: workspace('BFF_WORKSPACE_FILE_EU', env.BFF_WORKSPACE_FILE_EU),
      }),
    );
  }
  return {
    ...defaultConfig(),
    regions,
    identities: env.BFF_IDENTITIES_FILE
      ? readIdentitiesFile('BFF_IDENTITIES_FILE', env.BFF_IDENTITIES_FILE)
      : null,
    identitiesFile: env.BFF_IDENTITIES_FILE ?? null,
    sessionSecret: env.SESSION_SECRET,
    // Checked per request, so a console built after the BFF started is served without a restart.
    publicDir: env.PUBLIC_DIR,
    idleTimeoutMs: env.SESSION_IDLE_MINUTES * 60_000,
    absoluteTimeoutMs: env.SESSION_ABSOLUTE_HOURS * 3_600_000,
    upstreamTimeoutMs: env.UPSTREAM_TIMEOUT_MS,
    signInReadsGraceMs: env.BFF_SIGN_IN_READS_GRACE_MS,
    bodyIdleTimeoutMs: env.UPSTREAM_BODY_IDLE_TIMEOUT_MS,
    inFlight: {
      perSession: env.BFF_MAX_IN_FLIGHT_PER_SESSION,
      perUser: env.BFF_MAX_IN_FLIGHT_PER_USER,
      perRegion: env.BFF_MAX_IN_FLIGHT_PER_REGION,
    },
    publicOrigins: env.BFF_PUBLIC_ORIGIN ?? null,
    liveEvents: {
      ...defaultConfig().liveEvents,
      maxStreams: env.BFF_MAX_EVENT_STREAMS,
      presenceTtlMs: env.BFF_PRESENCE_TTL_MS,
    },
    fairness: {
      sessionsPerPerson: env.BFF_MAX_SESSIONS_PER_PERSON,
      signInsPerCredential: {
        ratePerSecond: env.BFF_SIGN_INS_PER_MINUTE_PER_CREDENTIAL / 60,
        burst: env.BFF_SIGN_IN_BURST_PER_CREDENTIAL,
      },
      streamsPerPerson: env.BFF_MAX_STREAMS_PER_PERSON,
      presencePerPerson: {
        ratePerSecond: env.BFF_PRESENCE_RATE_PER_PERSON,
        burst: env.BFF_PRESENCE_BURST_PER_PERSON,
      },
      requestsPerSession: {
        ratePerSecond: env.BFF_SESSION_RATE_PER_SECOND,
        burst: env.BFF_SESSION_RATE_BURST,
      },
      presenceReadIntervalMs: env.BFF_PRESENCE_READ_INTERVAL_MS,
    },
    trustProxy: env.BFF_TRUST_PROXY,
    historyRetentionMs: env.BFF_HISTORY_RETENTION_DAYS * DAY_MS,
    historyBudget: {
      ...defaultConfig().historyBudget,
      rowsPerDay: env.BFF_HISTORY_DAILY_ROWS,
      bytesPerDay: env.BFF_HISTORY_DAILY_BYTES,
    },
    server: {
      headersTimeoutMs: env.BFF_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.BFF_REQUEST_TIMEOUT_MS,
      uploadTimeoutMs: env.BFF_UPLOAD_TIMEOUT_MS,
      keepAliveTimeoutMs: env.BFF_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: env.BFF_MAX_CONNECTIONS,
    },
  };
}
