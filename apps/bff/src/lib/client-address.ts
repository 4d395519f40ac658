// Who the client is, when proxies stand between it and the BFF (BFF_TRUST_PROXY).
import type { Context } from 'hono';

import type { AppEnv } from './app-env.ts';

/**
 * The client's address for the sign-in limit and the logs. With `trustProxy` 0 the socket peer;
 * with N, the address N hops back in `X-Forwarded-For` as the N trusted proxies in front of the
 * BFF appended it (entries further left were written by the client and are ignored).
 *
 * @example
 * clientAddress('10.0.0.5', '203.0.113.9, 198.51.100.7', 1); // '198.51.100.7'
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustProxy: number,
): string {
  const direct = peer ?? 'unknown';
  if (trustProxy <= 0) return direct;
  const hops = (forwardedFor ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  // The peer is the last proxy; the proxies before it appended the addresses right to left.
  const chain = [...hops, direct];
  return chain[Math.max(0, chain.length - 1 - trustProxy)] ?? direct;
}

/** The request's client address under the config's `trustProxy`. */
export function requestClient(c: Context<AppEnv>, trustProxy: number): string {
  return clientAddress(
    c.env?.incoming?.socket?.remoteAddress,
    c.req.header('x-forwarded-for'),
    trustProxy,
  );
}
