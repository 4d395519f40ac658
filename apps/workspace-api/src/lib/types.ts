// Types shared by the app, its middleware and every route: the dependencies and `c.var`.
import type { Logger } from '@wsc/logger';

import type { UploadGate } from '../attachments/uploads.ts';
import type { Db } from '../db/client.ts';
import type { Role, UserStatus } from '../db/schema.ts';
import type { Config } from '../env.ts';
import type { TokenCache } from '../identity/token-cache.ts';
import type { SecretChecker } from '../oauth/secret-check.ts';
import type { TokenPurger } from '../oauth/token-purge.ts';
import type { Workspace } from '../workspace/definitions.ts';
import type { ApiMetrics } from './metrics.ts';
import type { TokenBucketLimiter } from './rate-limit.ts';

export type { Logger } from '@wsc/logger';

/** Everything a request handler may need; built once per app (tests build their own). */
export type AppDeps = {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  /** pg_trgm installed: `=lk=` can use trigram indexes. */
  trgm: boolean;
  /** btree_gin installed: NUMBER fields are columns of the search GIN index. */
  btreeGin: boolean;
  workspace: Workspace;
  /** HMAC key for paging cursors. */
  cursorKey: Buffer;
  logger: Logger;
  metrics: ApiMetrics;
  limiters: {
    /** Per credential, every authenticated request. */
    requests: TokenBucketLimiter;
    /** Failed token requests per (client id, source address). */
    tokenFailures: TokenBucketLimiter;
    /** Failed token requests per source address, across client ids. */
    tokenFailuresByAddress: TokenBucketLimiter;
    /** Milliseconds of search time per credential. */
    searchTime: TokenBucketLimiter;
  };
  /** The bounded scrypt queue and its memory of recent successes. */
  secrets: SecretChecker;
  /** Uploads in flight per credential and the bytes they may still write. */
  uploads: UploadGate;
  /** Deletes expired and revoked tokens, at most once per interval. */
  tokenPurger: TokenPurger;
  /** Valid tokens' principals, emptied by every change to users, credentials or tokens. */
  tokenCache: TokenCache<Principal>;
  /** Test-only: work injected into code paths that are otherwise hard to make slow. */
  hooks?: TestHooks;
};

/** Hooks tests set on deps to provoke what production traffic would (never set in production). */
export type TestHooks = {
  /** Runs on the search's connection, inside its time limit, before the search statement. */
  beforeSearch?: (db: Db) => Promise<void>;
};

/** The authenticated caller: the credential's owner. */
export type Principal = {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  jobTitle: string | null;
  status: UserStatus;
  role: Role;
  clientId: string;
};

export type AppVariables = {
  requestId: string;
  deps: AppDeps;
  /** Set by requireAuth. */
  principal: Principal;
  /** Aliases the principal may use; computed lazily by identity/permissions.ts. */
  allowedAliases: Set<string> | undefined;
};

export type AppEnv = { Variables: AppVariables };
