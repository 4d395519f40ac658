// Operator files named by env variables (identities, workspace descriptions): read once at start
// and validated with zod, so a typo stops the BFF with a message naming the variable, the file
// and the entry, instead of surfacing as odd behaviour at the first sign-in.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';

/** A file named by an env variable could not be read or does not have the expected shape. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
  constructor(
    readonly variable: string,
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${variable} (${file}): ${problems.join('; ')}`);
  }
}

/**
 * Zod issues as `path: message` lines. Messages only: values (emails, secrets pasted by
 * mistake) are never echoed.
 *
 * @example
 * issueLines(result.error.issues); // ['identities.2.role: Invalid option: expected one of "ADMIN"|"MEMBER"']
 */
export function issueLines(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`);
}

/**
 * Read a JSON file and parse it with `schema`; throws {@link ConfigFileError} naming `variable`.
 *
 * @example
 * const file = readJsonFile('BFF_IDENTITIES_FILE', '/etc/bff/identities.json', IdentitiesFileSchema);
 */
export function readJsonFile<S extends z.ZodType>(
  variable: string,
  file: string,
  schema: S,
): z.output<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ConfigFileError(variable, file, [
      code === 'ENOENT' ? 'the file does not exist' : `the file cannot be read (${String(code)})`,
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the error, which may hold anything.
    throw new ConfigFileError(variable, file, ['not valid JSON']);
  }
  const result = schema.safeParse(json);
  if (!result.success) throw new ConfigFileError(variable, file, issueLines(result.error.issues));
  return result.data;
}
