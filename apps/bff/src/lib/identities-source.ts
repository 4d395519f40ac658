// The operator's identities file as it is now, not as it was when the BFF started or when someone
// signed in: its size, time and inode are looked at every few seconds and the file is read again
// when they change. A role the operator takes away is then gone within those seconds (ADR 0027).
import { stat } from 'node:fs/promises';

import type { Clock } from './clock.ts';
import type { Identity } from './identities.ts';
import type { Logger } from './logger.ts';
import { readIdentitiesFile } from './identities.ts';

/** How often the file's metadata is looked at, at most. */
export const IDENTITIES_CHECK_MS = 2_000;

export type IdentitiesSource = {
  /**
   * The identities now; `null` when no file is configured (then nobody is named by the operator).
   * A file that cannot be read or no longer parses names nobody (an empty list, never `null`,
   * which would mean "no file": fail closed).
   */
  current(): Promise<Identity[] | null>;
};

/**
 * The source over `file`, starting from what the BFF read at start (`initial`). Without a file
 * (tests that give `config.identities`), `initial` as it is.
 *
 * @example
 * const identities = identitiesSource({ file: config.identitiesFile, initial: config.identities, clock, logger });
 * const admins = (await identities.current())?.filter((i) => i.role === 'ADMIN');
 */
export function identitiesSource(options: {
  file: string | null;
  initial: Identity[] | null;
  clock: Clock;
  logger: Logger;
}): IdentitiesSource {
  const { file, clock, logger } = options;
  if (file === null) return { current: async () => options.initial };
  let identities: Identity[] = options.initial ?? [];
  let signature: string | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<void> | undefined;

  const check = async () => {
    let next: string;
    try {
      const info = await stat(file);
      next = `${info.ino}:${info.size}:${info.mtimeMs}`;
    } catch (error) {
      next = 'unreadable';
      if (signature !== next) {
        logger.error('identities file unreadable; nobody is named by it until it is back', {
          error: error instanceof Error ? error.message : String(error),
        });
        identities = [];
      }
      signature = next;
      return;
    }
    // Read at the first look too: the file may have changed since start-up read it.
    if (signature !== next) {
      try {
        identities = readIdentitiesFile('BFF_IDENTITIES_FILE', file);
        logger.info('identities file read again', { identities: identities.length });
      } catch (error) {
        identities = [];
        logger.error('identities file no longer valid; nobody is named by it until it is fixed', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    signature = next;
  };

  return {
    async current() {
      const now = clock.now();
      if (now - checkedAt >= IDENTITIES_CHECK_MS) {
        checkedAt = now;
        checking ??= check().finally(() => (checking = undefined));
      }
      if (checking) await checking;
      return identities;
    },
  };
}
