// Reads the workspace the API serves: a JSON workspace file (WORKSPACE_FILE) or the built-in demo.
// Apart from definitions.ts so that the demo, which is typed by definitions.ts, is not imported back.
import fs from 'node:fs/promises';

import { Workspace, WorkspaceFileSchema } from './definitions.ts';
import { demoWorkspace } from './demo-workspace.ts';

/**
 * Loads and validates a workspace file, or the built-in demo workspace when no path is given.
 *
 * @example
 * const workspace = await loadWorkspace(config.workspaceFile);
 */
export async function loadWorkspace(file?: string): Promise<Workspace> {
  const raw: unknown = file ? JSON.parse(await fs.readFile(file, 'utf8')) : demoWorkspace;
  const result = WorkspaceFileSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid workspace ${file ?? '(demo)'}: ${problems.join('; ')}`);
  }
  return new Workspace(result.data);
}
