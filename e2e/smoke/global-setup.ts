// The smoke against `prism mock -d`: no workspace API at all. Prism answers every call from the
// repo's copy of the published OpenAPI with random data that leaves optional keys out at random
// (derivedSpec's `x-json-schema-faker`), and the BFF runs as an operator would configure it for
// the hosted service: profile hosted, the JSON token request, the described workspace. The console
// must cope with anything the contract allows. The teardown fails the run when Prism reported a
// request of ours outside the contract.
import fs from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { derivedSpec, startPrism } from '@wsc/api-client/testing/prism';

import { describeWorkspace, LOG_DIR, ROOT, startBff, WEB_DIST } from '../stack.ts';

/**
 * The one test-only change to the published document: its AccessTokenResponse makes
 * `access_token` optional, so a mocked token reply would lack it half the time and that sign-in
 * would fail (correctly: the console cannot work without a token). Required and non-empty here,
 * so every run reaches the console; everything else stays as published.
 */
function mockSpec(): Record<string, unknown> {
  const spec = derivedSpec() as {
    components: {
      schemas: Record<string, { required?: string[]; properties?: Record<string, object> }>;
    };
  };
  const token = spec.components.schemas['AccessTokenResponse'];
  if (!token?.properties?.['access_token']) throw new Error('no AccessTokenResponse.access_token');
  token.required = [...new Set([...(token.required ?? []), 'access_token'])];
  token.properties['access_token'] = { type: 'string', minLength: 8 };
  return spec;
}

export default async function globalSetup() {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('The console is not built: run `pnpm --filter web build` first');
  }
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'wsc-e2e-mock-'));
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const prism = await startPrism({
    mode: 'mock',
    spec: mockSpec(),
    logFile: path.join(LOG_DIR, 'smoke-prism.log'),
  });
  const workspaceFile = path.join(tmp, 'workspace.json');
  await writeFile(workspaceFile, await describeWorkspace());
  const bff = await startBff({
    name: 'smoke-mock',
    upstreamURL: prism.origin,
    profile: 'hosted',
    dataDir: path.join(tmp, 'bff'),
    workspaceFile,
  }).catch(async (error: unknown) => {
    await prism.stop();
    throw error;
  });
  process.env.E2E_BASE_URL = bff.baseURL;
  process.env.E2E_PROFILE = 'hosted';
  process.env.E2E_SCREENSHOT_PREFIX = 'mock-';
  return async () => {
    await bff.stop();
    await prism.stop();
    await rm(tmp, { recursive: true, force: true });
    // In mock mode Prism makes the replies itself: a reply it flags (e.g. a token reply without
    // the `grant_type` the document requires but never describes) is Prism's own, not ours.
    const violations = prism.violations().filter((line) => !/Violation: response\b/.test(line));
    console.log(
      `Prism mock: ${violations.length} request(s) outside the published contract (log: ${path.relative(ROOT, prism.logFile)})`,
    );
    if (violations.length > 0) {
      throw new Error(
        `Prism reported ${violations.length} request(s) outside the published contract:\n${violations.join('\n')}`,
      );
    }
  };
}
