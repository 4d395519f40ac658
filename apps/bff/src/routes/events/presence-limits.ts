// How often presence may change (ADR 0023, 0027): per person (a token bucket over all their
// streams, keyed by the session's owner id) and per stream (a window, as before), in memory per
// instance. The stream's window is counted only once the hub has checked that the stream is the
// caller's own, so a foreign or made-up connection id never gets one; windows past the bound push
// out the oldest rather than going unlimited.
import type { Clock } from '../../lib/clock.ts';
import type { LiveEventsConfig } from '../../lib/config.ts';
import type { Rate } from '../../lib/token-bucket.ts';
import { tooManyRequests } from '../../lib/errors.ts';
import { tokenBuckets } from '../../lib/token-bucket.ts';

/** Windows and buckets kept at most (far above the streams and people one instance serves). */
const MAX_KEYS = 10_000;

const rateLimited = (detail: string, seconds: number) =>
  tooManyRequests('rate_limited', detail, seconds);

/**
 * The limiter.
 *
 * @example
 * const limits = presenceLimits({ clock, perStream: config.presencePuts, perPerson: { ratePerSecond: 2, burst: 20 } });
 * limits.takePerson(session.ownerId); // throws 429 past the person's rate
 * limits.takeStream(input.connectionId); // once the stream is known to be theirs
 */
export function presenceLimits(deps: {
  clock: Clock;
  perStream: LiveEventsConfig['presencePuts'];
  perPerson: Rate;
}) {
  const { clock, perStream } = deps;
  const windows = new Map<string, { start: number; count: number }>();
  const people = tokenBuckets({ clock, rate: deps.perPerson, maxKeys: MAX_KEYS });

  return {
    /**
     * Counts one change by the person, or throws 429 with Retry-After. Keyed by the session's
     * own owner id (never by anything the request names), so it may come before the stream's
     * ownership is read: a refused flood then costs no store query.
     */
    takePerson(ownerId: string): void {
      const wait = people.take(ownerId);
      if (wait > 0) {
        throw rateLimited(
          `At most ${deps.perPerson.ratePerSecond} presence changes per second per person`,
          wait,
        );
      }
    },

    /**
     * Counts one change of the stream, or throws 429. Only for a stream known to be the
     * caller's: a foreign or made-up id never gets a window.
     */
    takeStream(connectionId: string): void {
      const now = clock.now();
      let window = windows.get(connectionId);
      if (!window || now - window.start >= perStream.windowMs) {
        window = { start: now, count: 0 };
      }
      if (window.count >= perStream.max) {
        throw rateLimited(
          `At most ${perStream.max} presence changes per stream in ${perStream.windowMs / 1000} s`,
          Math.ceil((window.start + perStream.windowMs - now) / 1000),
        );
      }
      window.count += 1;
      windows.delete(connectionId);
      windows.set(connectionId, window);
      while (windows.size > MAX_KEYS) {
        const oldest = windows.keys().next();
        if (oldest.done) break;
        windows.delete(oldest.value);
      }
    },

    /** The stream ended: its window goes. */
    forget(connectionId: string): void {
      windows.delete(connectionId);
    },

    /** Drops windows that have passed (the hub calls it at each heartbeat). */
    prune(): void {
      const now = clock.now();
      for (const [id, window] of windows) {
        if (now - window.start >= perStream.windowMs) windows.delete(id);
      }
    },

    /** Per-stream windows held now (the hub's stats). */
    streamWindows: () => windows.size,
  };
}

export type PresenceLimits = ReturnType<typeof presenceLimits>;
