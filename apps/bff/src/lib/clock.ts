// Time as a dependency, so expiry rules are tested with a fake clock instead of waiting.

export type Clock = { now(): number };

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that only moves when told to.
 *
 * @example
 * const clock = createFakeClock(Date.parse('2025-01-01T00:00:00Z'));
 * clock.advance(31 * 60_000);
 */
export function createFakeClock(start = Date.now()): Clock & { advance(ms: number): void } {
  let t = start;
  return {
    now: () => t,
    advance(ms) {
      t += ms;
    },
  };
}
