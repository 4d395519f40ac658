// Starts the apps as real processes on loopback ports, waits for them, samples their memory from
// /proc and stops them (with their process group). Processes run `node --import tsx <entry>`
// directly rather than through the tsx CLI, so the pid we hold is the server itself (the tsx CLI
// would fork a child and /proc/<pid> would show the wrapper's memory).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';

/** The repository root (bench/src/lib -> ../../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** Where process logs go (git-ignored). */
export const LOG_DIR = path.join(ROOT, 'bench/.out');

/**
 * A free TCP port on the loopback interface.
 *
 * @example
 * const port = await freePort();
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A fresh temp folder and a function that removes it.
 *
 * @example
 * const tmp = await tempDir('api'); try { ... } finally { await tmp.remove(); }
 */
export async function tempDir(
  label: string,
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `wsc-bench-${label}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export type Started = {
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  stop: () => Promise<void>;
};

/**
 * Starts a command in an app folder with extra env (NODE_ENV=production), logging to bench/.out,
 * in its own process group.
 *
 * @example
 * const api = startProcess('api', 'apps/workspace-api', 'sh', ['scripts/serve.sh'], { PORT: '8080' });
 */
export function startProcess(
  name: string,
  appDir: string,
  command: string,
  args: string[],
  env: Record<string, string>,
): Started {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, `${name}.log`);
  const log = fs.openSync(logFile, 'w');
  const child = spawn(command, args, {
    cwd: path.join(ROOT, appDir),
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', log, log],
    // Own process group, so that stopping it also stops anything it spawned.
    detached: true,
  });
  fs.closeSync(log);
  if (child.pid === undefined) throw new Error(`${name} did not start`);
  const pid = child.pid;
  return { name, child, pid, logFile, stop: () => stopChild(child) };
}

/**
 * Starts `node --import tsx <entry>` in an app folder with extra env, logging to bench/.out.
 *
 * @example
 * const api = startNode('api', 'apps/workspace-api', 'src/index.ts', { PORT: '8080' });
 */
export function startNode(
  name: string,
  appDir: string,
  entry: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Started {
  const tsx = import.meta.resolve('tsx');
  return startProcess(name, appDir, process.execPath, [...nodeArgs, '--import', tsx, entry], env);
}

/**
 * SIGTERM to the process group, SIGKILL after a grace period; resolves when it has exited.
 *
 * @example
 * await stopChild(started.child);
 */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Polls `check` until it is true; fails early when the process exits, with its log's tail.
 *
 * @example
 * await waitUntil(api, 'API health', async () => (await fetch(url)).ok, 60_000);
 */
export async function waitUntil(
  started: Started,
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null)
      throw new Error(
        `${what}: process exited with ${started.child.exitCode}\n${await logTail(started.logFile)}`,
      );
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not ready after ${timeoutMs} ms\n${await logTail(started.logFile)}`);
}

async function logTail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-20).join('\n');
}

/** Kernel clock ticks per second (USER_HZ), the unit of /proc/<pid>/stat times; 100 on Linux. */
const CLOCK_TICKS = 100;

/**
 * User + system CPU milliseconds from the text of /proc/<pid>/stat (fields 14 and 15, counted
 * after the parenthesised command name, which may itself contain spaces).
 *
 * @example
 * parseProcStat('42 (node x) S 1 2 3 4 5 6 7 8 9 10 150 50 0 0'); // 2000
 */
export function parseProcStat(text: string): number {
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error('unexpected /proc stat format');
  return ((utime + stime) * 1000) / CLOCK_TICKS;
}

/**
 * CPU time a process has used so far, in milliseconds (10 ms resolution): independent of how
 * busy the shared machine is, unlike wall-clock latency.
 *
 * @example
 * const before = await readCpuMs(bff.pid); await work(); const used = (await readCpuMs(bff.pid)) - before;
 */
export async function readCpuMs(pid: number): Promise<number> {
  return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
}

/** Resident memory of a process from /proc/<pid>/status, in bytes. */
export type MemoryStatus = { rss: number; hwm: number };

/**
 * Parses the VmRSS (resident now) and VmHWM (peak resident) lines of /proc/<pid>/status.
 *
 * @example
 * parseProcStatus('VmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n'); // { rss: 1048576, hwm: 2097152 }
 */
export function parseProcStatus(text: string): MemoryStatus {
  const read = (key: string) => {
    const match = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
    if (!match?.[1]) throw new Error(`${key} missing from /proc status`);
    return Number(match[1]) * 1024;
  };
  return { rss: read('VmRSS'), hwm: read('VmHWM') };
}

/**
 * The memory of a running process.
 *
 * @example
 * const { rss, hwm } = await readMemory(api.pid);
 */
export async function readMemory(pid: number): Promise<MemoryStatus> {
  return parseProcStatus(await readFile(`/proc/${pid}/status`, 'utf8'));
}

/**
 * Samples VmRSS every `intervalMs` until stopped; returns the highest sample and the last VmHWM.
 * VmHWM alone would include start-up peaks, so growth is measured from a baseline sample.
 *
 * @example
 * const sampler = sampleMemory(bff.pid); await work(); const { peakRss } = await sampler.stop();
 */
export function sampleMemory(
  pid: number,
  intervalMs = 20,
): { stop: () => Promise<{ peakRss: number; hwm: number; samples: number }> } {
  let peakRss = 0;
  let hwm = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const memory = await readMemory(pid);
        peakRss = Math.max(peakRss, memory.rss);
        hwm = memory.hwm;
        samples += 1;
      } catch {
        return; // the process went away
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { peakRss, hwm, samples };
    },
  };
}
