// Reading an API's rate-limit headers (IETF draft-ietf-httpapi-ratelimit-headers), as our API
// sends them and the BFF passes them through: the structured fields of the current drafts
// (`RateLimit: "policy";r=99;t=1`, `RateLimit-Policy: "policy";q=100;w=5`) and the separate
// fields of the earlier ones (`RateLimit-Remaining`, `RateLimit-Reset`, `RateLimit-Limit`, also
// with the `X-` prefix many services use). Pure: it takes a header getter.

/** What a reply says about the caller's rate limit. */
export interface RateLimitState {
  /** Requests left now. */
  remaining: number;
  /** Seconds until the quota is whole again (draft `t` / `RateLimit-Reset`), if said. */
  resetSeconds?: number | undefined;
  /** The quota per window (draft `q` / `RateLimit-Limit`), if said. */
  quota?: number | undefined;
  /** The window in seconds (draft `w`), if said. */
  windowSeconds?: number | undefined;
}

type HeaderGetter = (name: string) => string | null;

/** The `key=value` parameters of one structured-field item (`"name";r=99;t=1`). */
function parameters(item: string): Map<string, number> {
  const params = new Map<string, number>();
  for (const part of item.split(';').slice(1)) {
    const [key, value] = part.split('=').map((s) => s.trim());
    const number = Number(value);
    if (key && value !== undefined && value !== '' && Number.isFinite(number)) {
      params.set(key.toLowerCase(), number);
    }
  }
  return params;
}

/** The first number of a header (`100, 100;w=5` -> 100; `99` -> 99). */
function leadingNumber(value: string | null): number | undefined {
  const match = value === null ? null : /^\s*(\d+(?:\.\d+)?)/.exec(value);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The current drafts: the item with the fewest requests left, and its policy. */
function structured(get: HeaderGetter): RateLimitState | undefined {
  const header = get('ratelimit');
  if (!header || !header.includes('r=')) return undefined;
  const items = header
    .split(',')
    .map((item) => ({ name: item.split(';')[0]?.trim(), params: parameters(item) }));
  const tightest = items
    .filter((item) => item.params.has('r'))
    .sort((a, b) => (a.params.get('r') ?? 0) - (b.params.get('r') ?? 0))[0];
  if (!tightest) return undefined;
  const policies = (get('ratelimit-policy') ?? '').split(',').map((item) => ({
    name: item.split(';')[0]?.trim(),
    params: parameters(item),
  }));
  const policy = policies.find((p) => p.name === tightest.name) ?? policies[0];
  return {
    remaining: tightest.params.get('r') ?? 0,
    resetSeconds: tightest.params.get('t'),
    quota: policy?.params.get('q'),
    windowSeconds: policy?.params.get('w'),
  };
}

/** The earlier drafts' separate fields, with or without the `X-` prefix. */
function separate(get: HeaderGetter): RateLimitState | undefined {
  for (const prefix of ['ratelimit-', 'x-ratelimit-']) {
    const remaining = leadingNumber(get(`${prefix}remaining`));
    if (remaining === undefined) continue;
    const limit = get(`${prefix}limit`);
    const window = limit === null ? undefined : /;\s*w=(\d+)/.exec(limit)?.[1];
    return {
      remaining,
      resetSeconds: leadingNumber(get(`${prefix}reset`)),
      quota: leadingNumber(limit),
      windowSeconds: window === undefined ? undefined : Number(window),
    };
  }
  return undefined;
}

/**
 * The rate-limit state a reply's headers state, or undefined when they state none (the hosted
 * service sends none).
 *
 * @example
 * parseRateLimit((name) => ({ ratelimit: '"per-credential";r=99;t=1', 'ratelimit-policy': '"per-credential";q=100;w=5' })[name] ?? null);
 * // { remaining: 99, resetSeconds: 1, quota: 100, windowSeconds: 5 }
 */
export function parseRateLimit(get: HeaderGetter): RateLimitState | undefined {
  const lower: HeaderGetter = (name) => get(name.toLowerCase());
  return structured(lower) ?? separate(lower);
}
