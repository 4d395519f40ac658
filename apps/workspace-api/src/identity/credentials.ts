// Issuing credentials and tokens; used by the token route, the CLI, the seed and the tests.
import { randomUUID } from 'node:crypto';

import type { Db } from '../db/client.ts';
import type { Role } from '../db/schema.ts';
import { hashSecret, randomToken, sha256Hex } from '../lib/crypto.ts';

/**
 * Creates a client credential for a user; the secret is returned once and stored only as a hash.
 *
 * @example
 * const { clientId, clientSecret } = await createCredential(db, user.id, 'laptop');
 */
export async function createCredential(
  db: Db,
  userId: string,
  label: string | null = null,
): Promise<{ clientId: string; clientSecret: string }> {
  const clientId = `wsc_${randomToken(12)}`;
  const clientSecret = randomToken(32);
  await db
    .insertInto('credentials')
    .values({
      client_id: clientId,
      user_id: userId,
      secret_hash: await hashSecret(clientSecret),
      label,
      created_at: new Date(),
    })
    .execute();
  return { clientId, clientSecret };
}

/**
 * Issues an access token for a credential; only its sha256 is stored.
 *
 * @example
 * const token = await issueToken(db, clientId, userId, 86_400);
 */
export async function issueToken(
  db: Db,
  clientId: string,
  userId: string,
  ttlSeconds: number,
): Promise<string> {
  const token = randomToken(32);
  const now = new Date();
  await db
    .insertInto('tokens')
    .values({
      token_hash: sha256Hex(token),
      client_id: clientId,
      user_id: userId,
      created_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    })
    .execute();
  return token;
}

export type NewUserInput = {
  email: string;
  firstName: string;
  lastName: string;
  jobTitle?: string | null;
  role?: Role;
  status?: 'ACTIVE' | 'INACTIVE';
};

/**
 * Inserts a user (email unique case-insensitively; the caller handles the conflict).
 *
 * @example
 * const user = await insertUser(db, { email: 'ana@example.com', firstName: 'Ana', lastName: 'Lee' });
 */
export async function insertUser(db: Db, input: NewUserInput) {
  return db
    .insertInto('users')
    .values({
      id: randomUUID(),
      email: input.email,
      email_lower: input.email.toLowerCase(),
      first_name: input.firstName,
      last_name: input.lastName,
      job_title: input.jobTitle ?? null,
      status: input.status ?? 'ACTIVE',
      role: input.role ?? 'MEMBER',
      created_at: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Deactivates a user and revokes every token of theirs, in one transaction. Idempotent.
 *
 * @example
 * await deactivateUser(db, userId);
 */
export async function deactivateUser(db: Db, userId: string) {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .updateTable('users')
      .set({ status: 'INACTIVE' })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirst();
    if (user)
      await trx
        .updateTable('tokens')
        .set({ revoked: true })
        .where('user_id', '=', userId)
        .where('revoked', '=', false)
        .execute();
    return user;
  });
}

/**
 * Revokes one credential and every token issued to it, in one transaction, leaving its user and
 * the user's other credentials as they are. Idempotent: an already revoked credential keeps its
 * first revocation time. Returns the credential, or undefined when there is none.
 *
 * @example
 * const revoked = await revokeCredential(db, 'wsc_abc');
 */
export async function revokeCredential(db: Db, clientId: string) {
  return db.transaction().execute(async (trx) => {
    const credential = await trx
      .updateTable('credentials')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(new Date())) }))
      .where('client_id', '=', clientId)
      .returning(['client_id', 'user_id', 'label', 'created_at', 'revoked_at'])
      .executeTakeFirst();
    if (credential)
      await trx
        .updateTable('tokens')
        .set({ revoked: true })
        .where('client_id', '=', clientId)
        .where('revoked', '=', false)
        .execute();
    return credential;
  });
}
