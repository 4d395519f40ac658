// Workspace definitions: which record types exist, their fields, and which groups may use them.
// Loaded from a JSON workspace file (WORKSPACE_FILE) or the built-in demo support desk.
import fs from 'node:fs/promises';
import { z } from 'zod';

import type { Definition, Field, FieldType, RecordType } from '@wsc/api-client';
import { DefinitionSchema, FieldTypeSchema, RecordTypeSchema } from '@wsc/api-client';

import { demoWorkspace } from './demo-workspace.ts';

/** System fields every record carries; read-only, filterable and sortable. */
export const SYSTEM_FIELDS: readonly Field[] = [
  { name: 'id', type: 'HANDLE', required: false, readOnly: true },
  { name: 'Created At', type: 'DATETIME', required: false, readOnly: true },
  { name: 'Created By', type: 'USER_ID', required: false, readOnly: true },
  { name: 'Updated At', type: 'DATETIME', required: false, readOnly: true },
  { name: 'Updated By', type: 'USER_ID', required: false, readOnly: true },
];
export const SYSTEM_FIELD_NAMES = new Set(SYSTEM_FIELDS.map((field) => field.name));

/** Field types a workspace file may use for user fields (the rest of AspectFieldType is not stored). */
const WritableFieldTypeSchema = FieldTypeSchema.extract([
  'TEXT',
  'NUMBER',
  'DATE',
  'DATETIME',
  'PICKLIST',
  'MULTI_PICKLIST',
  'USER_ID',
  'BOOLEAN',
]);

const FieldFileSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(100)
      .regex(/^\S(.*\S)?$/, 'No leading or trailing spaces')
      .refine((name) => !SYSTEM_FIELD_NAMES.has(name), 'Reserved system field name')
      .refine(
        (name) => ![...name].some((char) => char.charCodeAt(0) < 32),
        'No control characters',
      ),
    type: WritableFieldTypeSchema,
    required: z.boolean().default(false),
    values: z.array(z.string().min(1).max(200)).min(1).optional(),
  })
  .superRefine((field, ctx) => {
    const needsValues = field.type === 'PICKLIST' || field.type === 'MULTI_PICKLIST';
    if (needsValues !== (field.values !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: `values is ${needsValues ? 'required' : 'only allowed'} for picklists`,
      });
    }
    // Multi-picklist values are stored comma-separated, so a value may not contain a comma.
    if (field.type === 'MULTI_PICKLIST' && field.values?.some((value) => value.includes(','))) {
      ctx.addIssue({ code: 'custom', message: 'MULTI_PICKLIST values may not contain commas' });
    }
  });

const GroupFileSchema = z.object({
  name: z.string().min(1).max(200),
  assignable: z.boolean().default(true),
  watchable: z.boolean().default(true),
  mentionable: z.boolean().default(true),
  managed: z.boolean().default(false),
  dynamic: z.boolean().default(false),
  domains: z
    .array(z.object({ id: z.string().optional(), domain: z.string().optional() }))
    .default([]),
});
export type WorkspaceGroup = z.infer<typeof GroupFileSchema>;

const DefinitionFileSchema = z.object({
  recordType: RecordTypeSchema,
  alias: z.string().regex(/^[a-z][a-z0-9-]{0,62}$/, 'lowercase letters, digits and dashes'),
  name: z.string().min(1).max(200),
  handle: z.string().regex(/^[A-Z][A-Z0-9]{0,9}$/, 'uppercase letters and digits'),
  titleField: z.string().optional(),
  fields: z.array(FieldFileSchema).min(1),
  /** Names of the groups whose members may read and write these records (ADMINs always may). */
  groups: z.array(z.string()).default([]),
});

export const WorkspaceFileSchema = z
  .object({
    groups: z.array(GroupFileSchema).default([]),
    definitions: z.array(DefinitionFileSchema).min(1),
  })
  .superRefine((file, ctx) => {
    const unique = (values: string[], what: string) => {
      const seen = new Set<string>();
      for (const value of values) {
        if (seen.has(value))
          ctx.addIssue({ code: 'custom', message: `Duplicate ${what}: ${value}` });
        seen.add(value);
      }
    };
    unique(
      file.groups.map((group) => group.name),
      'group name',
    );
    unique(
      file.definitions.map((definition) => definition.alias),
      'alias',
    );
    unique(
      file.definitions.map((definition) => definition.handle),
      'handle',
    );
    const groupNames = new Set(file.groups.map((group) => group.name));
    for (const definition of file.definitions) {
      unique(
        definition.fields.map((field) => field.name),
        `field in ${definition.alias}`,
      );
      for (const group of definition.groups) {
        if (!groupNames.has(group)) {
          ctx.addIssue({ code: 'custom', message: `${definition.alias}: unknown group ${group}` });
        }
      }
      if (
        definition.titleField &&
        !definition.fields.some((field) => field.name === definition.titleField)
      ) {
        ctx.addIssue({ code: 'custom', message: `${definition.alias}: unknown titleField` });
      }
    }
  });
export type WorkspaceFile = z.input<typeof WorkspaceFileSchema>;

/** A loaded definition: the public shape plus the groups it is open to and a field index. */
export type WorkspaceDefinition = Definition & {
  groups: string[];
  /** User (writable) fields by name. */
  fieldsByName: Map<string, Field>;
};

/** The loaded workspace: definitions and groups, with lookups. */
export class Workspace {
  readonly definitions: WorkspaceDefinition[];
  readonly groups: WorkspaceGroup[];
  readonly #byKey = new Map<string, WorkspaceDefinition>();
  readonly #byHandle = new Map<string, WorkspaceDefinition>();

  constructor(file: z.output<typeof WorkspaceFileSchema>) {
    this.groups = file.groups;
    this.definitions = file.definitions.map((definition) => {
      const fields: Field[] = definition.fields.map((field) => ({
        name: field.name,
        type: field.type,
        required: field.required,
        ...(field.values ? { values: field.values } : {}),
      }));
      return {
        recordType: definition.recordType,
        alias: definition.alias,
        name: definition.name,
        handle: definition.handle,
        titleField: definition.titleField ?? fields[0]?.name,
        fields,
        groups: definition.groups,
        fieldsByName: new Map(fields.map((field) => [field.name, field])),
      };
    });
    for (const definition of this.definitions) {
      this.#byKey.set(`${definition.recordType}/${definition.alias}`, definition);
      this.#byHandle.set(definition.handle, definition);
    }
  }

  /**
   * The definition for a URL's `{recordType}/{alias}`, or undefined.
   *
   * @example
   * workspace.find('apps', 'support-tickets')?.handle; // 'SUP'
   */
  find(recordType: string, alias: string): WorkspaceDefinition | undefined {
    return this.#byKey.get(`${recordType}/${alias}`);
  }

  /**
   * The definition owning a record id (`SUP-42` -> support tickets), or undefined.
   *
   * @example
   * workspace.findByRecordId('SUP-42')?.alias; // 'support-tickets'
   */
  findByRecordId(id: string): WorkspaceDefinition | undefined {
    const match = /^([A-Z][A-Z0-9]*)-[1-9]\d*$/.exec(id);
    return match?.[1] ? this.#byHandle.get(match[1]) : undefined;
  }
}

/**
 * The public shape of a definition (`GET /v1/definitions`), system fields included as read-only.
 *
 * @example
 * DefinitionSchema.parse(toPublicDefinition(definition));
 */
export function toPublicDefinition(definition: WorkspaceDefinition): Definition {
  const [idField, ...auditFields] = SYSTEM_FIELDS;
  return DefinitionSchema.parse({
    recordType: definition.recordType,
    alias: definition.alias,
    name: definition.name,
    handle: definition.handle,
    titleField: definition.titleField,
    fields: [...(idField ? [idField] : []), ...definition.fields, ...auditFields],
  });
}

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

export type { FieldType, RecordType };
