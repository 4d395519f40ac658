/** Control characters (tab, newline, NUL, DEL): URL parsers drop or keep them inconsistently. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Keeps a post-sign-in redirect on this origin: only a path (`/…`) or a same-origin absolute URL
 * is followed, reduced to its path, query and fragment; anything else goes home. Prevents open
 * redirects via `?redirect=`. The path must start with exactly one slash: `//host` and `/\host`
 * are protocol-relative to a browser, and inputs like `/.//host`, `/%2e//host` or
 * `https://<console>//host` resolve on this origin yet normalise to such a path.
 *
 * @example
 * safeRedirect('/records/apps/support-tickets?filter=Status%3D%3DOpen'); // unchanged
 * safeRedirect('https://evil.example/'); // '/'
 * safeRedirect('/.//evil.example'); // '/'
 */
export function safeRedirect(
  target: string | undefined,
  origin: string = window.location.origin,
): string {
  if (!target || hasControl(target)) return '/';
  try {
    const url = new URL(target, origin);
    if (url.origin !== origin) return '/';
    const path = url.pathname;
    if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return '/';
    if (path.startsWith('/sign-in')) return '/';
    const result = `${path}${url.search}${url.hash}`;
    // Belt and braces: what we hand to the router must itself resolve to this origin.
    return new URL(result, origin).origin === origin ? result : '/';
  } catch {
    return '/';
  }
}
