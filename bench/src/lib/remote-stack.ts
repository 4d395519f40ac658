// The stack of the `remote` benchmark, per upstream profile: a fresh API (demo seed, its DEFAULT
// rate limit on), the delay link in front of it, the BFF serving the built console through the
// link, and Chromium. Hosted: the API serves only the published contract (API_PROFILE=hosted)
// and the BFF is configured as an operator would for such a service (its workspace file from
// the API's `describe-workspace`, an identities file, the JSON token request), as e2e/stack.ts
// does, without Prism (the contract is e2e's concern; here it would only add latency).
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';

import type { Profile } from '@wsc/api-client';

import type { DelayLink } from './delay-link.ts';
import type { ApiProcess } from './api.ts';
import type { BffProcess, Credentials } from './stack.ts';
import { startApi } from './api.ts';
import { launchChromium } from './browser.ts';
import { requireWebBuild } from './console-stack.ts';
import { startDelayLink } from './delay-link.ts';
import { ROOT, tempDir } from './processes.ts';
import { startBff, startFreshApi } from './stack.ts';

export type RemoteStack = {
  profile: Profile;
  api: ApiProcess;
  credentials: Credentials;
  link: DelayLink;
  bff: BffProcess;
  browser: Browser;
};

/** A demo store seeded once (by a first API start) that each profile's API then runs on. */
export type SeededStore = { dataDir: string; credentials: Credentials };

/** The hosted BFF's definitions, as `describe-workspace --profile hosted` prints them. */
async function describeHostedWorkspace(): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), 'src/cli.ts', 'describe-workspace', '--profile', 'hosted'],
    { cwd: path.join(ROOT, 'apps/workspace-api'), maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

/** BFF env for a hosted-profile upstream: files written into `dir`. */
async function hostedBffEnv(
  dir: string,
  credentials: Credentials,
): Promise<Record<string, string>> {
  const workspaceFile = path.join(dir, 'workspace.json');
  const identitiesFile = path.join(dir, 'identities.json');
  await writeFile(workspaceFile, await describeHostedWorkspace());
  const { admin, agent } = credentials;
  await writeFile(
    identitiesFile,
    JSON.stringify({
      identities: [
        { clientId: admin.clientId, email: admin.email, role: 'ADMIN' },
        { clientId: agent.clientId, email: agent.email, role: 'MEMBER' },
      ],
    }),
  );
  return {
    WORKSPACE_API_PROFILE: 'hosted',
    WORKSPACE_API_TOKEN_STYLE: 'json',
    BFF_WORKSPACE_FILE: workspaceFile,
    BFF_IDENTITIES_FILE: identitiesFile,
  };
}

/**
 * Seeds the demo store once (the API seeds an empty folder on its first start; on this shared
 * machine that takes a minute or more), runs `body` with it, and removes it.
 *
 * @example
 * await withSeededStore(async (store) => withRemoteStack('hosted', store, async (stack) => { ... }));
 */
export async function withSeededStore<T>(body: (store: SeededStore) => Promise<T>): Promise<T> {
  requireWebBuild();
  const fresh = await startFreshApi('remote-seed', {});
  // Keep the folder: stop the process only (PGlite is single-process), remove it at the end.
  await fresh.api.stop();
  try {
    return await body({ dataDir: fresh.dataDir, credentials: fresh.credentials });
  } finally {
    await fresh.stop();
  }
}

/**
 * Starts the API of one profile on the seeded store (its DEFAULT rate limit on), the link, the
 * BFF and Chromium, runs `body`, and stops everything.
 *
 * @example
 * await withRemoteStack('hosted', store, async ({ link, bff, browser }) => { link.setDelay(40); ... });
 */
export async function withRemoteStack<T>(
  profile: Profile,
  store: SeededStore,
  body: (stack: RemoteStack) => Promise<T>,
): Promise<T> {
  // Empty values are "unset" to the API: its own default rate limit (20/s, burst 100) applies.
  const api = await startApi(`remote-${profile}-api`, {
    DATA_DIR: store.dataDir,
    API_PROFILE: profile,
    RATE_LIMIT_RPS: '',
    RATE_LIMIT_BURST: '',
  });
  const files = await tempDir(`remote-${profile}`);
  try {
    const link = await startDelayLink(api.url);
    try {
      const env =
        profile === 'hosted'
          ? await hostedBffEnv(files.dir, store.credentials)
          : { WORKSPACE_API_PROFILE: 'extended' };
      const bff = await startBff(`remote-${profile}-bff`, link.url, env);
      try {
        const browser = await launchChromium();
        try {
          return await body({ profile, api, credentials: store.credentials, link, bff, browser });
        } finally {
          await browser.close();
        }
      } finally {
        await bff.stop();
      }
    } finally {
      await link.close();
    }
  } finally {
    await files.remove();
    await api.stop();
  }
}
