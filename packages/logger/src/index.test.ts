import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

import { createLogger } from './index.ts';

function capture(level: Parameters<typeof createLogger>[0] extends infer O ? O : never = {}) {
  const lines: string[] = [];
  const logger = createLogger({
    now: () => Date.UTC(2026, 10, 24, 1, 2, 3),
    ...level,
    output: (line) => lines.push(line),
  });
  return {
    logger,
    lines,
    parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('writes one JSON object per line with time, level, msg and the fields, the same names in both servers', () => {
    const { logger, lines } = capture();
    logger.info('request', {
      requestId: 'r-1',
      method: 'GET',
      path: '/v1/me',
      status: 200,
      durationMs: 1.5,
    });
    expect(lines).toEqual([
      '{"level":"info","time":"2026-11-24T01:02:03.000Z","requestId":"r-1","method":"GET","path":"/v1/me","status":200,"durationMs":1.5,"msg":"request"}',
    ]);
  });

  it('keeps to its level: debug lines only at debug, nothing when silent', () => {
    const info = capture({ level: 'info' });
    info.logger.debug('request', { status: 200 });
    info.logger.warn('slow', {});
    expect(info.parsed().map((l) => [l.level, l.msg])).toEqual([['warn', 'slow']]);
    const debug = capture({ level: 'debug' });
    debug.logger.debug('request');
    expect(debug.parsed()).toMatchObject([{ level: 'debug', msg: 'request' }]);
    const silent = capture({ level: 'silent' });
    silent.logger.error('boom');
    expect(silent.lines).toEqual([]);
  });

  it('redacts keys naming a secret, a token, a cookie, authorization or a password, at any depth', () => {
    const { logger, lines, parsed } = capture();
    logger.error('oops', {
      clientSecret: 'S3cr3t',
      access_token: 'tok',
      headers: { Authorization: 'Bearer tok', cookie: 'wsc=1', accept: 'json' },
      attempts: [{ password: 'pw' }],
    });
    expect(lines.join('\n')).not.toMatch(/S3cr3t|tok\b|Bearer|wsc=1|"pw"/);
    expect(parsed()[0]).toMatchObject({
      clientSecret: '[redacted]',
      access_token: '[redacted]',
      headers: { Authorization: '[redacted]', cookie: '[redacted]', accept: 'json' },
      attempts: [{ password: '[redacted]' }],
    });
  });
});

describe('output', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  /** What a process using the logger prints, with stdout a terminal or not (ANSI colors removed). */
  function printed(tty: boolean): string {
    const script = `
      if (${tty}) Object.defineProperty(process.stdout, 'isTTY', { value: true });
      const { createLogger } = await import(${JSON.stringify(path.join(here, 'index.ts'))});
      createLogger().info('listening', { url: 'http://127.0.0.1:8080', clientSecret: 'S3cr3t' });
    `;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: here, encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex
    return child.stdout.replace(/\u001b\[[0-9;]*m/g, '');
  }

  it('is a readable line in a terminal', () => {
    const text = printed(true);
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: listening /);
    expect(text).toContain('"url":"http://127.0.0.1:8080"');
    expect(text).not.toContain('S3cr3t');
  });

  it('is one JSON object per line otherwise', () => {
    const text = printed(false);
    expect(JSON.parse(text)).toMatchObject({
      level: 'info',
      msg: 'listening',
      url: 'http://127.0.0.1:8080',
      clientSecret: '[redacted]',
    });
  });
});
