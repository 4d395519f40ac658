// The session store: kysely over embedded PGlite (default) or PostgreSQL (shared by BFF instances).
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

import type { Profile, SessionUser } from '@wsc/api-client';
import type { ListenHandlers, StopListening } from '@wsc/pglite-kysely';
import { MeSchema, SessionUserSchema } from '@wsc/api-client';
import {
  initPgliteDir,
  listenPglite,
  listenPostgres,
  PGliteDialect,
  pgliteStartParams,
} from '@wsc/pglite-kysely';

import type { RegionId } from '../lib/region.ts';
import type { BffDatabase } from './schema.ts';
import { ownerIdFor } from '../lib/identities.ts';
import { migrateToLatest } from './migrations.ts';

/** A session row as the app sees it. Secrets stay sealed here; only the upstream layer opens them. */
export type SessionRecord = {
  idHash: string;
  clientId: string;
  secretSealed: string;
  region: RegionId;
  /** The region's profile when the session began; decides its capabilities. */
  profile: Profile;
  /** Key of the session's own data (saved views); see SessionsTable.owner_id. */
  ownerId: string;
  /** The person shown to the console. */
  user: SessionUser;
  tokenSealed: string | null;
  tokenRefreshAt: number | null;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
};

export type SessionStore = {
  readonly db: Kysely<BffDatabase>;
  create(session: SessionRecord): Promise<void>;
  get(idHash: string): Promise<SessionRecord | undefined>;
  delete(idHash: string): Promise<void>;
  touch(idHash: string, lastSeenAt: number): Promise<void>;
  saveToken(idHash: string, tokenSealed: string, tokenRefreshAt: number): Promise<void>;
  /** Deletes sessions past their absolute expiry or idle since before `idleBefore`. */
  sweep(now: number, idleBefore: number): Promise<number>;
  ping(): Promise<void>;
  /**
   * LISTEN for NOTIFY on `channel` (every BFF instance on the store hears every instance's
   * NOTIFY). On PostgreSQL on a connection of its own that reconnects; closed with the store.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<StopListening>;
  close(): Promise<void>;
};

export type StoreOptions =
  | { kind: 'memory'; sharedBuffersMb?: number | undefined }
  | { kind: 'pglite'; dataDir: string; sharedBuffersMb?: number | undefined }
  | { kind: 'postgres'; url: string };

/**
 * Default PGlite `shared_buffers` of the store, in MiB. PGlite's own default is PostgreSQL's
 * 128 MB, all of it resident in the BFF from the start (WASM memory never shrinks); sessions and
 * saved views are small rows, and pages outside the pool come from the OS page cache. Env
 * BFF_PGLITE_SHARED_BUFFERS_MB overrides it.
 */
export const PGLITE_SHARED_BUFFERS_MB = 16;

/**
 * Open (and migrate) the session store.
 *
 * @example
 * const store = await openStore({ kind: 'pglite', dataDir: '.data/bff' });
 */
export async function openStore(options: StoreOptions): Promise<SessionStore> {
  let db: Kysely<BffDatabase>;
  let listen: (channel: string, handlers: ListenHandlers) => Promise<StopListening>;
  if (options.kind === 'postgres') {
    const url = options.url;
    listen = (channel, handlers) => listenPostgres(url, channel, handlers);
    db = new Kysely<BffDatabase>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({ connectionString: options.url, max: 10 }),
      }),
    });
  } else {
    // A new folder is created by initdb in a child process: initdb needs ~800 MiB of WASM memory,
    // which would otherwise stay in the BFF for its whole life (docs/decisions/0009).
    if (options.kind === 'pglite') await initPgliteDir(options.dataDir);
    const pglite = await PGlite.create({
      ...(options.kind === 'pglite' ? { dataDir: options.dataDir } : {}),
      startParams: pgliteStartParams(options.sharedBuffersMb ?? PGLITE_SHARED_BUFFERS_MB),
    });
    db = new Kysely<BffDatabase>({ dialect: new PGliteDialect(pglite) });
    listen = (channel, handlers) => listenPglite(pglite, channel, handlers);
  }
  await migrateToLatest(db as Kysely<unknown>);
  return createStore(db, listen);
}

/**
 * The stored user of a session: a SessionUser, or (rows from before migration 0004) the `/v1/me`
 * reply, which was verified by the API and owned the session's data.
 */
function storedUser(
  raw: unknown,
  clientId: string,
): { user: SessionUser; meId: string | undefined } {
  const user = SessionUserSchema.safeParse(raw);
  if (user.success) return { user: user.data, meId: undefined };
  const me = MeSchema.safeParse(raw);
  if (me.success) {
    const { id, email, firstName, lastName, role } = me.data;
    return {
      user: { id, email, firstName, lastName, clientId, role, identity: 'api' },
      meId: id,
    };
  }
  return { user: { clientId, role: 'UNKNOWN', identity: 'none' }, meId: undefined };
}

function toRecord(row: {
  id_hash: string;
  client_id: string;
  secret_sealed: string;
  region: string;
  user_json: unknown;
  owner_id: string | null;
  profile: string | null;
  token_sealed: string | null;
  token_refresh_at: number | string | null;
  created_at: number | string;
  last_seen_at: number | string;
  expires_at: number | string;
}): SessionRecord {
  const region = row.region === 'eu' ? 'eu' : 'default';
  const raw: unknown =
    typeof row.user_json === 'string' ? JSON.parse(row.user_json) : row.user_json;
  const { user, meId } = storedUser(raw, row.client_id);
  return {
    idHash: row.id_hash,
    clientId: row.client_id,
    secretSealed: row.secret_sealed,
    region,
    // Only sessions that signed in through `/v1/me` predate the profile column.
    profile: row.profile === 'hosted' ? 'hosted' : 'extended',
    ownerId: row.owner_id ?? meId ?? ownerIdFor(region, row.client_id),
    user,
    tokenSealed: row.token_sealed,
    tokenRefreshAt: row.token_refresh_at === null ? null : Number(row.token_refresh_at),
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
  };
}

function createStore(
  db: Kysely<BffDatabase>,
  listenOn: (channel: string, handlers: ListenHandlers) => Promise<StopListening>,
): SessionStore {
  // Listening connections end with the store, whoever closes it.
  const listening = new Set<StopListening>();
  return {
    db,
    async create(s) {
      await db
        .insertInto('sessions')
        .values({
          id_hash: s.idHash,
          client_id: s.clientId,
          secret_sealed: s.secretSealed,
          region: s.region,
          profile: s.profile,
          owner_id: s.ownerId,
          user_json: JSON.stringify(s.user),
          token_sealed: s.tokenSealed,
          token_refresh_at: s.tokenRefreshAt,
          created_at: s.createdAt,
          last_seen_at: s.lastSeenAt,
          expires_at: s.expiresAt,
        })
        .execute();
    },
    async get(idHash) {
      const row = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id_hash', '=', idHash)
        .executeTakeFirst();
      return row ? toRecord(row) : undefined;
    },
    async delete(idHash) {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },
    async touch(idHash, lastSeenAt) {
      await db
        .updateTable('sessions')
        .set({ last_seen_at: lastSeenAt })
        .where('id_hash', '=', idHash)
        .execute();
    },
    async saveToken(idHash, tokenSealed, tokenRefreshAt) {
      await db
        .updateTable('sessions')
        .set({ token_sealed: tokenSealed, token_refresh_at: tokenRefreshAt })
        .where('id_hash', '=', idHash)
        .execute();
    },
    async sweep(now, idleBefore) {
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async listen(channel, handlers) {
      const stopOne = await listenOn(channel, handlers);
      const stop = async () => {
        listening.delete(stop);
        await stopOne();
      };
      listening.add(stop);
      return stop;
    },
    async close() {
      await Promise.all([...listening].map((stop) => stop()));
      await db.destroy();
    },
  };
}
