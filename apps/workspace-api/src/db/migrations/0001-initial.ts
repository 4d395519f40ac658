// The whole schema of the API. Per-definition expression indexes are not here: they depend on the
// workspace file and are created by ../definition-indexes.ts at start-up.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';

const statements = [
  sql`create table settings (key text primary key, value text not null)`,
  sql`create table users (
    id uuid primary key,
    email text not null,
    email_lower text not null unique,
    first_name text not null,
    last_name text not null,
    job_title text,
    status text not null default 'ACTIVE' check (status in ('ACTIVE', 'INACTIVE')),
    role text not null default 'MEMBER' check (role in ('ADMIN', 'MEMBER')),
    created_at timestamptz not null,
    seq bigint generated always as identity unique
  )`,
  sql`create table credentials (
    client_id text primary key,
    user_id uuid not null references users(id),
    secret_hash text not null,
    label text,
    created_at timestamptz not null,
    revoked_at timestamptz
  )`,
  sql`create index credentials_user on credentials (user_id)`,
  sql`create table tokens (
    token_hash text primary key,
    client_id text not null references credentials(client_id),
    user_id uuid not null references users(id),
    created_at timestamptz not null,
    expires_at timestamptz not null,
    revoked boolean not null default false
  )`,
  sql`create index tokens_user on tokens (user_id) where not revoked`,
  sql`create index tokens_expires on tokens (expires_at)`,
  sql`create table groups (
    id uuid primary key,
    name text not null unique,
    assignable boolean not null default true,
    watchable boolean not null default true,
    mentionable boolean not null default true,
    managed boolean not null default false,
    dynamic boolean not null default false,
    domains jsonb not null default '[]',
    created_at timestamptz not null,
    seq bigint generated always as identity unique
  )`,
  sql`create table group_members (
    group_id uuid not null references groups(id) on delete cascade,
    user_id uuid not null references users(id),
    added_at timestamptz not null,
    seq bigint generated always as identity,
    primary key (group_id, user_id)
  )`,
  sql`create index group_members_user on group_members (user_id)`,
  sql`create index group_members_order on group_members (group_id, seq)`,
  sql`create table definition_access (
    alias text not null,
    group_id uuid not null references groups(id) on delete cascade,
    primary key (alias, group_id)
  )`,
  sql`create table handle_counters (handle text primary key, last_value bigint not null)`,
  sql`create table records (
    id text primary key,
    record_type text not null check (record_type in ('apps', 'elements', 'tasks', 'transactions')),
    alias text not null,
    data jsonb not null default '{}',
    seq bigint generated always as identity unique,
    created_at timestamptz not null,
    created_by text not null,
    updated_at timestamptz not null,
    updated_by text not null,
    version integer not null default 1
  )`,
  // Default order (creation) and the Created At / Updated At sorts and ranges, per definition.
  sql`create index records_alias_seq on records (alias, seq)`,
  sql`create index records_alias_created on records (alias, created_at, seq)`,
  sql`create index records_alias_updated on records (alias, updated_at, seq)`,
  sql`create index records_alias_created_by on records (alias, created_by, seq)`,
  sql`create table record_relations (
    record_id text not null references records(id) on delete cascade,
    related_id text not null references records(id) on delete cascade,
    created_at timestamptz not null,
    created_by text not null,
    seq bigint generated always as identity,
    primary key (record_id, related_id),
    check (record_id <> related_id)
  )`,
  sql`create index record_relations_order on record_relations (record_id, seq)`,
  sql`create table attachments (
    id uuid primary key,
    record_id text not null references records(id) on delete cascade,
    name text not null,
    description text,
    media_type text not null,
    size bigint not null,
    sha256 text,
    blob_key text,
    url text,
    state text not null check (state in ('VALID', 'PROCESSING', 'ERROR')),
    view_state text not null default 'PRIVATE' check (view_state in ('PRIVATE', 'PUBLIC')),
    created_at timestamptz not null,
    created_by text not null,
    seq bigint generated always as identity
  )`,
  sql`create index attachments_record on attachments (record_id, seq)`,
  sql`create table watchers (
    id uuid primary key,
    record_id text not null references records(id) on delete cascade,
    user_id uuid not null references users(id),
    created_at timestamptz not null,
    seq bigint generated always as identity,
    unique (record_id, user_id)
  )`,
  sql`create index watchers_order on watchers (record_id, seq)`,
  sql`create table comments (
    id uuid primary key,
    record_id text not null references records(id) on delete cascade,
    contents text not null,
    source text not null default 'API',
    created_at timestamptz not null,
    created_by uuid not null references users(id),
    seq bigint generated always as identity
  )`,
  sql`create index comments_order on comments (record_id, seq)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'comments',
    'watchers',
    'attachments',
    'record_relations',
    'records',
    'handle_counters',
    'definition_access',
    'group_members',
    'groups',
    'tokens',
    'credentials',
    'users',
    'settings',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
