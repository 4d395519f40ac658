// JSON-lines logger with an injectable sink, so tests can capture and grep every line.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
export type LogSink = (line: string) => void;

export type Logger = {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
};

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

// Field names whose values must never reach a log line, whatever a caller passes by mistake.
const REDACTED = /secret|token|cookie|authorization|password/i;

function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = REDACTED.test(key) ? '[redacted]' : value;
  }
  return out;
}

/**
 * A structured logger writing one JSON object per line.
 *
 * @example
 * const lines: string[] = [];
 * const log = createLogger({ sink: (l) => lines.push(l), now: () => Date.now() });
 * log.info('request', { requestId: 'abc', status: 200 });
 */
export function createLogger(options: {
  sink?: LogSink;
  level?: LogLevel;
  now?: () => number;
}): Logger {
  const sink = options.sink ?? ((line: string) => process.stdout.write(`${line}\n`));
  const min = ORDER[options.level ?? 'info'];
  const now = options.now ?? Date.now;
  const write = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (ORDER[level] < min) return;
    sink(
      JSON.stringify({
        time: new Date(now()).toISOString(),
        level,
        msg,
        ...(fields ? redact(fields) : {}),
      }),
    );
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
  };
}
