// Typed view of the database for kysely. Tables are created by ./migrations; keep both in step.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** A timestamptz: read as Date, written as Date or ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** JSONB: read as the parsed value, written as a JSON string (both drivers accept that). */
type Jsonb<T> = ColumnType<T, string, string>;

export type Role = 'ADMIN' | 'MEMBER';
export type UserStatus = 'ACTIVE' | 'INACTIVE';

export interface UsersTable {
  id: string;
  email: string;
  /** lower(email): unique, so duplicates are case-insensitive. */
  email_lower: string;
  first_name: string;
  last_name: string;
  job_title: string | null;
  status: UserStatus;
  role: Role;
  created_at: Timestamp;
  seq: Generated<number>;
}

export interface CredentialsTable {
  client_id: string;
  user_id: string;
  /** `scrypt$N$r$p$salt$hash` (base64url parts). */
  secret_hash: string;
  label: string | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface TokensTable {
  /** hex sha256 of the opaque token; the token itself is never stored. */
  token_hash: string;
  client_id: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked: Generated<boolean>;
}

export interface GroupsTable {
  id: string;
  name: string;
  assignable: boolean;
  watchable: boolean;
  mentionable: boolean;
  managed: boolean;
  dynamic: boolean;
  domains: Jsonb<Array<{ id?: string; domain?: string }>>;
  created_at: Timestamp;
  seq: Generated<number>;
}

export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  added_at: Timestamp;
  seq: Generated<number>;
}

export interface DefinitionAccessTable {
  alias: string;
  group_id: string;
}

export interface RecordsTable {
  /** The handle id, e.g. `SUP-42`. */
  id: string;
  record_type: 'apps' | 'elements' | 'tasks' | 'transactions';
  alias: string;
  /** Field values keyed by field name, all strings, system fields excluded. */
  data: Jsonb<Record<string, string>>;
  seq: Generated<number>;
  created_at: Timestamp;
  created_by: string;
  updated_at: Timestamp;
  updated_by: string;
  /** Bumped on every write; the ETag is derived from it. */
  version: Generated<number>;
}

export interface RecordRelationsTable {
  /** Stored in both directions (a->b and b->a) so that listing is one index range scan. */
  record_id: string;
  related_id: string;
  created_at: Timestamp;
  created_by: string;
  seq: Generated<number>;
}

export interface AttachmentsTable {
  id: string;
  record_id: string;
  name: string;
  description: string | null;
  media_type: string;
  size: number;
  sha256: string | null;
  /** File name under BLOB_DIR; null for URL links. */
  blob_key: string | null;
  /** Target of a URL link (media type text/uri-list); null for files. */
  url: string | null;
  state: 'VALID' | 'PROCESSING' | 'ERROR';
  view_state: 'PRIVATE' | 'PUBLIC';
  created_at: Timestamp;
  created_by: string;
  seq: Generated<number>;
}

export interface WatchersTable {
  id: string;
  record_id: string;
  /** Exactly one of user_id and group_id is set (migration 0003). */
  user_id: string | null;
  group_id: string | null;
  created_at: Timestamp;
  seq: Generated<number>;
}

export interface CommentsTable {
  id: string;
  record_id: string;
  contents: string;
  source: string;
  created_at: Timestamp;
  /** The author's user id (responses embed the whole User). */
  created_by: string;
  seq: Generated<number>;
}

export interface HandleCountersTable {
  handle: string;
  last_value: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface Database {
  users: UsersTable;
  credentials: CredentialsTable;
  tokens: TokensTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  definition_access: DefinitionAccessTable;
  records: RecordsTable;
  record_relations: RecordRelationsTable;
  attachments: AttachmentsTable;
  watchers: WatchersTable;
  comments: CommentsTable;
  handle_counters: HandleCountersTable;
  settings: SettingsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type GroupRow = Selectable<GroupsTable>;
export type RecordRow = Selectable<RecordsTable>;
export type RecordUpdate = Updateable<RecordsTable>;
export type AttachmentRow = Selectable<AttachmentsTable>;
export type CommentRow = Selectable<CommentsTable>;
export type WatcherRow = Selectable<WatchersTable>;
