// The caller's network address, for limits that must not let one source speak for everyone.
import type { Context } from 'hono';

import type { AppEnv } from './types.ts';

/**
 * The TCP peer's address as node-server hands it over (`c.env.incoming.socket`), or `unknown`
 * (app.request() in tests, other runtimes). Proxy headers such as X-Forwarded-For are not read:
 * anyone can send them.
 *
 * @example
 * const address = peerAddress(c); // '203.0.113.7'
 */
export function peerAddress(c: Context<AppEnv>): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/**
 * The key a limit counts an address under: IPv4 as is (IPv4-mapped IPv6 unwrapped), IPv6 by its
 * /64 prefix, because one host commonly holds a whole /64 and could otherwise rotate addresses.
 *
 * @example
 * addressKey('::ffff:10.0.0.1'); // '10.0.0.1'
 * addressKey('2001:db8::1'); // '2001:db8:0:0::/64'
 */
export function addressKey(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (v4?.[1]) return v4[1];
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0] ?? address;
  const [head = '', tail] = bare.split('::');
  const headParts = head === '' ? [] : head.split(':');
  const tailParts = tail === undefined || tail === '' ? [] : tail.split(':');
  const filler =
    tail === undefined
      ? []
      : Array.from({ length: Math.max(0, 8 - headParts.length - tailParts.length) }, () => '0');
  const groups = [...headParts, ...filler, ...tailParts]
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''));
  return `${groups.join(':')}::/64`;
}
