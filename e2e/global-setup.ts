// Builds the console if needed, starts the stack of the run's profile (E2E_PROFILE: extended, the
// default, or hosted) once for the whole run, and hands its address and demo credentials to the
// workers through the environment (inherited by worker processes). In the hosted run the teardown
// fails the run when Prism reported any request or reply outside the published contract.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { ROOT, runProfile, startStack, WEB_DIST } from './stack.ts';

export default async function globalSetup() {
  const profile = runProfile();
  // An already running stack (e.g. `npm start`): E2E_BASE_URL, E2E_API_URL and E2E_DATA_DIR name it.
  const external = process.env.E2E_BASE_URL && process.env.E2E_API_URL && process.env.E2E_DATA_DIR;
  if (external) {
    const file = path.join(process.env.E2E_DATA_DIR ?? '', 'demo-credentials.json');
    process.env.E2E_CREDENTIALS = fs.readFileSync(file, 'utf8');
    process.env.E2E_UPSTREAM_URL ??= process.env.E2E_API_URL;
    return async () => undefined;
  }
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    execFileSync('pnpm', ['--filter', 'web', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const stack = await startStack({ name: 'main', profile, unlistedCredential: true });
  process.env.E2E_PROFILE = profile;
  process.env.E2E_BASE_URL = stack.baseURL;
  process.env.E2E_API_URL = stack.apiURL;
  process.env.E2E_UPSTREAM_URL = stack.upstreamURL;
  process.env.E2E_CREDENTIALS = JSON.stringify(stack.credentials);
  if (stack.workspaceFile) process.env.E2E_WORKSPACE_FILE = stack.workspaceFile;
  if (stack.identitiesFile) process.env.E2E_IDENTITIES_FILE = stack.identitiesFile;
  return async () => {
    await stack.stop();
    if (profile !== 'hosted') return;
    const violations = stack.violations();
    console.log(
      `Prism: ${violations.length} contract violation(s); ${stack.binaryBypassed()} binary upload(s) and download(s) sent around it (log: ${path.relative(ROOT, stack.prismLog ?? '')})`,
    );
    if (violations.length > 0) {
      throw new Error(
        `Prism reported ${violations.length} request(s) or reply(ies) outside the published contract:\n${violations.join('\n')}`,
      );
    }
  };
}
