// Builds the console if needed, starts the stack once for the whole run, and hands its address
// and demo credentials to the workers through the environment (inherited by worker processes).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { ROOT, startStack, WEB_DIST } from './stack.ts';

export default async function globalSetup() {
  // An already running stack (e.g. `npm start`): E2E_BASE_URL, E2E_API_URL and E2E_DATA_DIR name it.
  const external = process.env.E2E_BASE_URL && process.env.E2E_API_URL && process.env.E2E_DATA_DIR;
  if (external) {
    const file = path.join(process.env.E2E_DATA_DIR ?? '', 'demo-credentials.json');
    process.env.E2E_CREDENTIALS = fs.readFileSync(file, 'utf8');
    return async () => undefined;
  }
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    execFileSync('pnpm', ['--filter', 'web', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const stack = await startStack({ name: 'main' });
  process.env.E2E_BASE_URL = stack.baseURL;
  process.env.E2E_API_URL = stack.apiURL;
  process.env.E2E_CREDENTIALS = JSON.stringify(stack.credentials);
  return async () => {
    await stack.stop();
  };
}
