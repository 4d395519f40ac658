/**
 * Keeps a post-sign-in redirect on this origin: only a path (`/…`, not `//host`) or a same-origin
 * absolute URL is followed, anything else goes home. Prevents open redirects via `?redirect=`.
 *
 * @example
 * safeRedirect('/records/apps/support-tickets?filter=Status%3D%3DOpen'); // unchanged
 * safeRedirect('https://evil.example/'); // '/'
 */
export function safeRedirect(
  target: string | undefined,
  origin: string = window.location.origin,
): string {
  if (!target) return '/';
  try {
    const url = new URL(target, origin);
    if (url.origin !== origin) return '/';
    if (url.pathname.startsWith('/sign-in')) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}
