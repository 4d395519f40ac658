// Secrets and tokens: scrypt for client secrets (slow on purpose), sha256 for tokens (high entropy,
// looked up on every request, so a fast hash is right).
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const SCRYPT = { N: 16_384, r: 8, p: 1, keyLength: 32 };

function scryptAsync(
  secret: string,
  salt: Buffer,
  N: number,
  r: number,
  p: number,
  keyLength: number,
) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(secret, salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * Hashes a client secret as `scrypt$N$r$p$salt$hash`.
 *
 * @example
 * const stored = await hashSecret('s3cret');
 */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return [
    'scrypt',
    SCRYPT.N,
    SCRYPT.r,
    SCRYPT.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/**
 * Checks a secret against a stored scrypt hash in constant time.
 *
 * @example
 * if (!(await verifySecret(given, row.secret_hash))) throw invalidClient();
 */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(
    secret,
    Buffer.from(salt, 'base64url'),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return timingSafeEqual(key, expected);
}

/**
 * Hex sha256, used to store and look up access tokens.
 *
 * @example
 * sha256Hex(token); // '9f86d0...'
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * A random URL-safe string with `bytes` bytes of entropy.
 *
 * @example
 * const token = randomToken(32);
 */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A scrypt hash of a random secret, to compare against when a client id is unknown (equal timing). */
export const DUMMY_SECRET_HASH = await hashSecret(randomToken(16));
