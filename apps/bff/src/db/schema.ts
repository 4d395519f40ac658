// Table types of the BFF's own store (sessions now; saved views and preferences for triage).
import type { ColumnType, Generated } from 'kysely';

/** int8 columns come back as strings from node-postgres and numbers from PGlite: read with Number(). */
type Millis = ColumnType<number | string, number, number>;

export type SessionsTable = {
  /** sha256 (base64url) of the cookie value; the cookie itself is never stored. */
  id_hash: string;
  client_id: string;
  /** AES-256-GCM sealed client secret (AAD: id_hash). */
  secret_sealed: string;
  region: string;
  /**
   * The person shown (a SessionUser). Rows written before migration 0004 hold the `/v1/me` reply
   * instead; the store reads both.
   */
  user_json: ColumnType<unknown, string, string>;
  /**
   * Key of the session's own data (saved views): the `/v1/me` user id (extended) or a UUID v5 of
   * region and client id (hosted). Never an unverified email. Null only in rows from before 0004.
   */
  owner_id: string | null;
  /** `extended` or `hosted`: the region's profile when the session began (null before 0004). */
  profile: string | null;
  /** AES-256-GCM sealed access token (AAD: id_hash), or null before the first token. */
  token_sealed: string | null;
  token_refresh_at: ColumnType<number | string | null, number | null, number | null>;
  created_at: Millis;
  last_seen_at: Millis;
  expires_at: Millis;
};

export type SavedViewsTable = {
  id: Generated<string>;
  user_id: string;
  region: string;
  name: string;
  record_type: string;
  alias: string;
  search: ColumnType<unknown, string, string>;
  /** At most one per (user, region, definition): a partial unique index (migration 0003). */
  is_default: Generated<boolean>;
  created_at: Millis;
  updated_at: Millis;
  /** The owner's name as shown when they last shared the view (migration 0006). */
  shared_by: string | null;
  /** How verified `shared_by` is: an IdentitySource (migration 0010). */
  shared_by_identity: string | null;
};

/**
 * Who besides its owner may read a saved view (migration 0006): a group (its id and name when
 * shared) or, with `group_id` '', everyone signed in to the region. Deleted with the view.
 */
export type SavedViewSharesTable = {
  view_id: string;
  region: string;
  group_id: string;
  group_name: string;
  created_at: Millis;
};

export type UserPreferencesTable = {
  user_id: string;
  region: string;
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_at: Millis;
};

/** Definitions saved on the Workspace setup page, per region (hosted profile). */
export type WorkspaceDefinitionsTable = {
  region: string;
  record_type: string;
  alias: string;
  /** A Definition (api-client DefinitionSchema), checked before it is written. */
  definition: ColumnType<unknown, string, string>;
  updated_at: Millis;
  /** Who saved it: the session user's email, else the client id. */
  updated_by: string;
};

/** Failed sign-ins per client address, shared by every instance on the store (migration 0005). */
export type LoginFailuresTable = {
  key: string;
  at: Millis;
};

/** Bulk runs kept for undo, per owner and region, 7 days (migration 0007). */
export type BulkRunsTable = {
  id: Generated<string>;
  user_id: string;
  region: string;
  record_type: string;
  alias: string;
  /** The values the run wrote (field -> text). */
  changes: ColumnType<unknown, string, string>;
  /** `[{ id, before }]`: each record's values of those fields before the run. */
  records: ColumnType<unknown, string, string>;
  record_count: number;
  /** How the last undo went (`{ at, restored, conflicts, skipped, failed }`), or null. */
  undo: ColumnType<unknown, string | null, string | null>;
  created_at: Millis;
  expires_at: Millis;
};

/** One field of one change made through the console (routes/history, ADR 0024). Append-only. */
export type RecordHistoryTable = {
  /** bigserial: a string from node-postgres, a number from PGlite; read with String(). */
  id: ColumnType<string | number, never, never>;
  change_id: string;
  region: string;
  at: ColumnType<number | string, number, never>;
  actor_id: string;
  actor_name: string;
  /** How verified `actor_name` is: an IdentitySource (migration 0010; older rows as it says). */
  identity: string;
  record_type: string;
  alias: string;
  record_id: string;
  kind: string;
  field: string;
  /** JSON text on insert; parsed on select by both drivers (a string is a text value). */
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  source: string;
  /** The one row kept for a change past its author's daily budget (migration 0010). */
  not_kept: Generated<boolean>;
};

/**
 * What one person's changes added to the record history on one UTC day (migration 0010): the
 * daily budget is counted here. Rows of past days are swept.
 */
export type HistoryBudgetTable = {
  actor_id: string;
  /** Days since 1970-01-01 (UTC). */
  day: number;
  rows: ColumnType<number | string, number, number>;
  bytes: ColumnType<number | string, number, number>;
  /** "Not kept" markers written that day (bounded too). */
  markers: Generated<number>;
};

/** One live event stream (a console tab) and the record it shows, if any (migration 0008). */
export type PresenceTable = {
  connection_id: string;
  /** The session the stream belongs to: `PUT /bff/presence` may only name its own streams. */
  session_hash: string;
  /** The BFF process serving the stream: it refreshes `expires_at` while the stream lives. */
  instance_id: string;
  region: string;
  user_id: string;
  user_name: string;
  /** How verified `user_name` is: an IdentitySource (migration 0010). */
  user_identity: string;
  record_type: string | null;
  alias: string | null;
  record_id: string | null;
  editing: Generated<boolean>;
  since: Millis;
  expires_at: Millis;
};

export type BffDatabase = {
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  saved_views: SavedViewsTable;
  saved_view_shares: SavedViewSharesTable;
  user_preferences: UserPreferencesTable;
  workspace_definitions: WorkspaceDefinitionsTable;
  bulk_runs: BulkRunsTable;
  record_history: RecordHistoryTable;
  history_budget: HistoryBudgetTable;
  presence: PresenceTable;
};
