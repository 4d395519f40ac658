// A BFF as a real process (`node --import tsx src/index.ts`: node itself, so that a signal reaches
// the BFF rather than a wrapper), for the tests of several instances on one PostgreSQL store.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export type BffProcess = { child: ChildProcessWithoutNullStreams; url: string; out: () => string };

/**
 * Starts the BFF with `env` (PATH, PORT 0 and HOST 127.0.0.1 added); resolves with its URL once
 * it logs `listening` (LOG_LEVEL must be info or lower), rejects if it exits first.
 *
 * @example
 * const one = await startBffProcess({ WORKSPACE_API_URL, SESSION_SECRET, BFF_DATABASE_URL });
 */
export async function startBffProcess(env: Record<string, string>): Promise<BffProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: appDir,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      for (const line of out.split('\n').slice(0, -1)) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url) {
          clearTimeout(timer);
          resolve(entry.url);
        }
      }
    });
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  return { child, url, out: () => out };
}
