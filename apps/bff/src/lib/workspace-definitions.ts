// The workspace description of a hosted region: the rules every definition must meet (from the
// operator's BFF_WORKSPACE_FILE or saved on the setup page), and the file reader. The hosted API
// cannot list record types or their fields, so the console's definitions come from here.
import { z } from 'zod';

import type { Definition, FieldProblem, RecordType } from '@wsc/api-client';
import { DefinitionSchema } from '@wsc/api-client';

import { ConfigFileError, readJsonFile } from './config-file.ts';

/** Default of `maxStoredDefinitions`: a sidebar of record types, not a data store. */
export const MAX_STORED_DEFINITIONS = 200;

/** Size limits of a definition saved on the setup page (the 1 MiB body limit is the outer one). */
export const DEFINITION_LIMITS = {
  text: 200,
  fields: 500,
  values: 1000,
} as const;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text that PostgreSQL cannot store (NUL) or that is not valid Unicode (a lone surrogate). */
function badText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'Must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'Must not contain unpaired surrogates';
  return undefined;
}

/**
 * Problems of a definition that its schema cannot see: unique field names, `handleField` and
 * `titleField` naming fields, picklists with values, and text the store can keep. With
 * `limits`, also the size limits of {@link DEFINITION_LIMITS} (for definitions sent to the BFF).
 *
 * @example
 * definitionProblems({ ...definition, titleField: 'Nope' });
 * // [{ field: 'titleField', message: 'No field named "Nope"' }]
 */
export function definitionProblems(
  definition: Definition,
  options: { limits?: boolean } = {},
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const text = (field: string, value: string | undefined) => {
    if (value === undefined) return;
    const bad = badText(value);
    if (bad) problems.push({ field, message: bad });
    else if (options.limits && value.length > DEFINITION_LIMITS.text) {
      problems.push({ field, message: `At most ${DEFINITION_LIMITS.text} characters` });
    }
  };
  text('alias', definition.alias);
  text('name', definition.name);
  text('handle', definition.handle);
  text('handleField', definition.handleField);
  text('titleField', definition.titleField);
  if (options.limits && definition.fields.length > DEFINITION_LIMITS.fields) {
    problems.push({ field: 'fields', message: `At most ${DEFINITION_LIMITS.fields} fields` });
  }
  const names = new Set<string>();
  definition.fields.forEach((field, index) => {
    const at = `fields.${index}`;
    text(`${at}.name`, field.name);
    if (names.has(field.name)) {
      problems.push({ field: `${at}.name`, message: `Another field is named "${field.name}"` });
    }
    names.add(field.name);
    const picklist = field.type === 'PICKLIST' || field.type === 'MULTI_PICKLIST';
    if (picklist && (field.values === undefined || field.values.length === 0)) {
      problems.push({ field: `${at}.values`, message: 'A picklist needs at least one value' });
    }
    if (options.limits && (field.values?.length ?? 0) > DEFINITION_LIMITS.values) {
      problems.push({
        field: `${at}.values`,
        message: `At most ${DEFINITION_LIMITS.values} values`,
      });
    }
    const seen = new Set<string>();
    field.values?.forEach((value, v) => {
      text(`${at}.values.${v}`, value);
      if (value.trim() === '') {
        problems.push({ field: `${at}.values.${v}`, message: 'A value cannot be empty' });
      }
      if (seen.has(value)) {
        problems.push({ field: `${at}.values.${v}`, message: `"${value}" is listed twice` });
      }
      seen.add(value);
      // Several values of a multi-picklist travel comma-joined in one field.
      if (field.type === 'MULTI_PICKLIST' && value.includes(',')) {
        problems.push({
          field: `${at}.values.${v}`,
          message: 'A multi-picklist value cannot contain a comma',
        });
      }
    });
  });
  for (const key of ['handleField', 'titleField'] as const) {
    const name = definition[key];
    if (name !== undefined && !names.has(name)) {
      problems.push({ field: key, message: `No field named "${name}"` });
    }
  }
  return problems;
}

/**
 * `recordType/alias`: a definition's key within a region.
 *
 * @example
 * definitionKey('apps', 'support'); // 'apps/support'
 */
export function definitionKey(recordType: RecordType, alias: string): string {
  return `${recordType}/${alias}`;
}

/**
 * A definition as the hosted profile serves it: elements cannot be listed there (the published
 * `GET /elements/{alias}` is getElement), so they open by handle only.
 *
 * @example
 * forHosted({ ...definition, recordType: 'elements' }).listable; // false
 */
export function forHosted(definition: Definition): Definition {
  return definition.recordType === 'elements' ? { ...definition, listable: false } : definition;
}

/**
 * The workspace API's workspace file, read tolerantly: only the definitions' public shape is
 * kept; `groups`, `hostedFields` and other keys are ignored.
 */
const WorkspaceFileSchema = z.object({ definitions: z.array(DefinitionSchema) });

/**
 * Read and check a region's workspace file; throws {@link ConfigFileError} naming every problem.
 *
 * @example
 * const definitions = readWorkspaceFile('BFF_WORKSPACE_FILE', '/etc/bff/workspace.json');
 */
export function readWorkspaceFile(variable: string, file: string): Definition[] {
  const { definitions } = readJsonFile(variable, file, WorkspaceFileSchema);
  const problems: string[] = [];
  const keys = new Set<string>();
  definitions.forEach((definition, index) => {
    const key = definitionKey(definition.recordType, definition.alias);
    if (keys.has(key)) problems.push(`definitions.${index}: ${key} is defined twice`);
    keys.add(key);
    for (const problem of definitionProblems(definition)) {
      problems.push(`definitions.${index}.${problem.field}: ${problem.message}`);
    }
  });
  if (problems.length > 0) throw new ConfigFileError(variable, file, problems);
  return definitions;
}
