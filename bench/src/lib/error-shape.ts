// The error shapes the API promises for a 4xx, per profile (DESIGN.md section 1 and section 5).
import type { Timed } from './http.ts';

export type Profile = 'extended' | 'hosted';

/**
 * Why a 4xx answer does not have the profile's error shape, or undefined when it does. Extended:
 * an RFC 9457 problem document (`application/problem+json`, `status` equal to the HTTP status) that
 * names a field (`errors[].field`) or a position (`position`, RSQL), or a 431 with a `detail`
 * (headers over 16 KiB, refused before any field is read). Hosted: `{message}`.
 *
 * @example
 * checkError('hosted', { status: 400, ms: 1, headers: {}, body: Buffer.from('{"message":"x"}') }); // undefined
 */
export function checkError(profile: Profile, res: Timed): string | undefined {
  const type = String(res.headers['content-type'] ?? '');
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    return `not JSON (${type})`;
  }
  if (typeof body !== 'object' || body === null) return 'not an object';
  const doc = body as Record<string, unknown>;
  if (profile === 'hosted') return typeof doc.message === 'string' ? undefined : 'no message';
  if (!type.startsWith('application/problem+json')) return `content-type ${type}`;
  if (doc.status !== res.status) return `status member ${String(doc.status)}`;
  if (typeof doc.position === 'number') return undefined;
  // Node's parser refuses an over-long request line before any parameter is read: the problem
  // can only say so (the API's clientError handler), not name a field.
  if (res.status === 431) return typeof doc.detail === 'string' ? undefined : 'no detail';
  const errors = doc.errors;
  if (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((e) => typeof (e as { field?: unknown }).field === 'string')
  )
    return undefined;
  return 'neither errors[].field nor position';
}
