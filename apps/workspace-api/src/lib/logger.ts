// One JSON line per event on stdout/stderr; never given secrets, tokens or bodies.
import type { Logger } from './types.ts';

/**
 * A JSON-lines logger at the given level.
 *
 * @example
 * const logger = createLogger('info');
 * logger.info('listening', { port: 8080 });
 */
export function createLogger(level: 'silent' | 'error' | 'info'): Logger {
  const write = (
    stream: NodeJS.WriteStream,
    lvl: string,
    message: string,
    fields?: Record<string, unknown>,
  ) =>
    stream.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: lvl, message, ...fields })}\n`,
    );
  return {
    info: (message, fields) => {
      if (level === 'info') write(process.stdout, 'info', message, fields);
    },
    error: (message, fields) => {
      if (level !== 'silent') write(process.stderr, 'error', message, fields);
    },
  };
}
