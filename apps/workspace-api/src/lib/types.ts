// Types shared by the app, its middleware and every route: the dependencies and `c.var`.
import type { Db } from '../db/client.ts';
import type { Role, UserStatus } from '../db/schema.ts';
import type { Config } from '../env.ts';
import type { Workspace } from '../workspace/definitions.ts';
import type { TokenBucketLimiter } from './rate-limit.ts';

export type Logger = {
  info: (message: string, fields?: Record<string, unknown>) => void;
  error: (message: string, fields?: Record<string, unknown>) => void;
};

/** Everything a request handler may need; built once per app (tests build their own). */
export type AppDeps = {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  /** pg_trgm installed: `=lk=` can use trigram indexes. */
  trgm: boolean;
  workspace: Workspace;
  /** HMAC key for paging cursors. */
  cursorKey: Buffer;
  logger: Logger;
  limiters: { requests: TokenBucketLimiter; tokenFailures: TokenBucketLimiter };
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
  /** Aliases the principal may use; computed lazily by permissions.ts. */
  allowedAliases: Set<string> | undefined;
};

export type AppEnv = { Variables: AppVariables };
