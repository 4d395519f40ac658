// Session ids, their hashes, and AES-256-GCM sealing of the secrets kept in the session store.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A new session id: 256 random bits, base64url (43 characters).
 *
 * @example
 * const id = newSessionId(); // 'q3W...'
 */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The store key of a session id: only this hash is persisted, so a leaked table yields no cookies.
 *
 * @example
 * const key = hashSessionId(cookieValue);
 */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/** Seals and opens small secrets; each value is bound to a context (the session hash) via AAD. */
export type Sealer = {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
};

/**
 * Build a sealer whose AES-256-GCM key is derived with HKDF-SHA256 from `SESSION_SECRET`.
 *
 * @example
 * const sealer = createSealer(env.SESSION_SECRET);
 * const box = sealer.seal('client-secret', sessionHash);
 * sealer.open(box, sessionHash); // 'client-secret'
 */
export function createSealer(sessionSecret: string): Sealer {
  if (sessionSecret.length < 32) throw new Error('SESSION_SECRET must be at least 32 characters');
  const key = Buffer.from(
    hkdfSync('sha256', sessionSecret, 'wsc-bff', 'wsc-bff session store encryption v1', 32),
  );
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${VERSION}.${Buffer.concat([iv, tag, body]).toString('base64url')}`;
    },
    open(sealed, context) {
      const [version, payload] = sealed.split('.');
      if (version !== VERSION || payload === undefined) throw new Error('Unknown sealed format');
      const raw = Buffer.from(payload, 'base64url');
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}
