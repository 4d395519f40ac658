// A small seeded PRNG (mulberry32) with the helpers the seed needs: the same seed gives the same
// demo data on every machine, so tests and screenshots can rely on it.

/** A deterministic random source. */
export type Rng = {
  /** Uniform in [0, 1). */
  next: () => number;
  /** Integer in [min, max], inclusive. */
  int: (min: number, max: number) => number;
  /** True with probability p. */
  chance: (p: number) => boolean;
  /** One element of a non-empty list. */
  pick: <T>(items: readonly T[]) => T;
  /** One key by weight, e.g. `{ Low: 35, High: 5 }`. */
  weighted: <K extends string>(weights: Readonly<Record<K, number>>) => K;
  /** `count` distinct elements (fewer if the list is shorter). */
  sample: <T>(items: readonly T[], count: number) => T[];
};

/**
 * A seeded random source (mulberry32).
 *
 * @example
 * const rng = createRng(42);
 * rng.pick(['a', 'b']); // always the same for seed 42
 */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(next() * items.length)] as T;
  };
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick,
    weighted: <K extends string>(weights: Readonly<Record<K, number>>): K => {
      const entries = Object.entries(weights) as Array<[K, number]>;
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [key, weight] of entries) {
        roll -= weight;
        if (roll < 0) return key;
      }
      return (entries.at(-1) as [K, number])[0];
    },
    sample: <T>(items: readonly T[], count: number): T[] => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i -= 1) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy.slice(0, count);
    },
  };
}

/**
 * A version-4-shaped UUID drawn from the PRNG (the same seed gives the same ids).
 *
 * @example
 * uuidFrom(createRng(1)); // 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx', the same on every run
 */
export function uuidFrom(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rng.next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
