// The one logger of both servers (the workspace API and the BFF): pino underneath, the same field
// names everywhere (`time`, `level`, `msg`, then the event's fields: `requestId`, `method`, `path`,
// `status`, `durationMs`, ...), pretty lines in a terminal and JSON lines otherwise, and keys that
// name a secret redacted whatever a caller passes by mistake.
import { Writable } from 'node:stream';
import pino from 'pino';
import pretty from 'pino-pretty';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFields = Record<string, unknown>;

export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** Keys whose values never reach a log line, at any depth. */
const REDACTED = /secret|token|cookie|authorization|password/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: LogFields = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = REDACTED.test(key) ? '[redacted]' : redact(field, depth + 1);
  }
  return out;
}

export type LoggerOptions = {
  level?: LogLevel;
  /**
   * Where lines go: `json` (one JSON object per line on stdout), `pretty` (colored, one readable
   * line per event, for a terminal), or a function given each JSON line (tests). Default: `pretty`
   * when stdout is a terminal, else `json`.
   */
  output?: 'json' | 'pretty' | ((line: string) => void);
  /** The clock of `time` (tests). */
  now?: () => number;
};

/**
 * A logger: `logger.info('request', { requestId, status })`.
 *
 * @example
 * const lines: string[] = [];
 * const logger = createLogger({ level: 'debug', output: (line) => lines.push(line) });
 * logger.info('listening', { port: 8080 }); // lines[0]: {"time":"...","level":"info","msg":"listening","port":8080}
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const output = options.output ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const now = options.now ?? Date.now;
  const destination =
    typeof output === 'function'
      ? new Writable({
          write(chunk: Buffer, _encoding, done) {
            output(chunk.toString('utf8').replace(/\n$/, ''));
            done();
          },
        })
      : output === 'pretty'
        ? pretty({
            colorize: true,
            singleLine: true,
            translateTime: 'SYS:HH:MM:ss',
            ignore: 'pid,hostname',
            messageKey: 'msg',
            sync: true,
          })
        : pino.destination({ fd: 1, sync: true });
  const log = pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      messageKey: 'msg',
      timestamp: () => `,"time":"${new Date(now()).toISOString()}"`,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => redact(fields) as LogFields,
      },
    },
    destination,
  );
  return {
    debug: (msg, fields) => log.debug(fields ?? {}, msg),
    info: (msg, fields) => log.info(fields ?? {}, msg),
    warn: (msg, fields) => log.warn(fields ?? {}, msg),
    error: (msg, fields) => log.error(fields ?? {}, msg),
  };
}
