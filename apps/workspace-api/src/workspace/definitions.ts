// Workspace definitions: which record types exist, their fields, and which groups may use them.
// Read by load-workspace.ts from a JSON workspace file (WORKSPACE_FILE) or the built-in demo.
import { z } from 'zod';

import type { FieldType, RecordType } from '@wsc/api-client';
import type { Definition, Field } from '@wsc/api-client/strict';
import { FieldTypeSchema, RecordTypeSchema } from '@wsc/api-client';
import { DefinitionSchema } from '@wsc/api-client/strict';

import type { Profile } from '../env.ts';

/** The `records` columns behind the read-only fields. */
export type SystemColumn = 'id' | 'created_at' | 'created_by' | 'updated_at' | 'updated_by';

/** A read-only field of a profile and the column its value comes from. */
export type SystemField = Field & { column: SystemColumn };

/**
 * Where the hosted profile publishes a record's handle and audit values: under ordinary field
 * names of the definition (the hosted service has no `id` or system fields in records). `handle:
 * null` means its records carry no handle at all.
 */
export type HostedFields = {
  handle: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
};

/** The names used when a definition has no `hostedFields`. */
export const DEFAULT_HOSTED_FIELDS: Readonly<HostedFields> = Object.freeze({
  handle: 'Key',
  createdAt: 'Created on',
  createdBy: 'Created by',
  updatedAt: 'Updated on',
  updatedBy: 'Updated by',
});

/** The read-only fields under some names, handle first (none without a handle name). */
function readOnlyFields(names: HostedFields): SystemField[] {
  const field = (name: string, type: Field['type'], column: SystemColumn): SystemField => ({
    name,
    type,
    required: false,
    readOnly: true,
    column,
  });
  return [
    ...(names.handle === null ? [] : [field(names.handle, 'HANDLE', 'id')]),
    field(names.createdAt, 'DATETIME', 'created_at'),
    field(names.createdBy, 'USER_ID', 'created_by'),
    field(names.updatedAt, 'DATETIME', 'updated_at'),
    field(names.updatedBy, 'USER_ID', 'updated_by'),
  ];
}

/** The extended profile's system fields: the same names in every definition. */
const EXTENDED_SYSTEM_FIELDS: readonly SystemField[] = readOnlyFields({
  handle: 'id',
  createdAt: 'Created At',
  createdBy: 'Created By',
  updatedAt: 'Updated At',
  updatedBy: 'Updated By',
});

/** System fields every record carries (extended profile); read-only, filterable and sortable. */
export const SYSTEM_FIELDS: readonly Field[] = EXTENDED_SYSTEM_FIELDS.map(
  ({ column: _column, ...field }) => field,
);
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

const FieldNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^\S(.*\S)?$/, 'No leading or trailing spaces')
  .refine((name) => ![...name].some((char) => char.charCodeAt(0) < 32), 'No control characters');

const FieldFileSchema = z
  .object({
    name: FieldNameSchema.refine(
      (name) => !SYSTEM_FIELD_NAMES.has(name),
      'Reserved system field name',
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
  /** The field names of the handle and audit values in the hosted profile (see HostedFields). */
  hostedFields: z
    .strictObject({
      handle: FieldNameSchema.nullable().default(DEFAULT_HOSTED_FIELDS.handle),
      createdAt: FieldNameSchema.default(DEFAULT_HOSTED_FIELDS.createdAt),
      createdBy: FieldNameSchema.default(DEFAULT_HOSTED_FIELDS.createdBy),
      updatedAt: FieldNameSchema.default(DEFAULT_HOSTED_FIELDS.updatedAt),
      updatedBy: FieldNameSchema.default(DEFAULT_HOSTED_FIELDS.updatedBy),
    })
    .prefault({}),
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
      // Hosted names sit beside the fields in one flat record: they must not hide one another.
      const hostedNames = Object.values(definition.hostedFields).filter(
        (name): name is string => name !== null,
      );
      unique(hostedNames, `hostedFields name in ${definition.alias}`);
      for (const name of hostedNames) {
        if (definition.fields.some((field) => field.name === name)) {
          ctx.addIssue({
            code: 'custom',
            message: `${definition.alias}: hostedFields name ${name} is also a field`,
          });
        }
      }
    }
  });
export type WorkspaceFile = z.input<typeof WorkspaceFileSchema>;

/** A loaded definition: the public shape plus the groups it is open to and a field index. */
export type WorkspaceDefinition = Definition & {
  groups: string[];
  /** User (writable) fields by name. */
  fieldsByName: Map<string, Field>;
  /** Where the hosted profile publishes the handle and audit values. */
  hostedFields: HostedFields;
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
        hostedFields: definition.hostedFields,
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

const hostedCache = new WeakMap<WorkspaceDefinition, readonly SystemField[]>();

/**
 * The read-only fields of a definition's records in a profile, handle first: `id`, `Created At`,
 * ... in the extended profile; the definition's hostedFields names in the hosted one.
 *
 * @example
 * systemFields(tickets, 'hosted').map((f) => f.name); // ['Ticket ID', 'Created on', ...]
 */
export function systemFields(
  definition: WorkspaceDefinition,
  profile: Profile,
): readonly SystemField[] {
  if (profile === 'extended') return EXTENDED_SYSTEM_FIELDS;
  let fields = hostedCache.get(definition);
  if (!fields) {
    fields = readOnlyFields(definition.hostedFields);
    hostedCache.set(definition, fields);
  }
  return fields;
}

/**
 * The public shape of a definition (`GET /v1/definitions`; in the hosted profile, what it would
 * describe): the read-only fields of the profile around the definition's own, and `handleField`
 * naming the one that holds the handle (absent when the hosted records carry none).
 *
 * @example
 * DefinitionSchema.parse(toPublicDefinition(definition, 'extended')).handleField; // 'id'
 */
export function toPublicDefinition(
  definition: WorkspaceDefinition,
  profile: Profile = 'extended',
): Definition {
  const readOnly = systemFields(definition, profile);
  const handleField = readOnly.find((field) => field.column === 'id');
  const audit = readOnly.filter((field) => field.column !== 'id');
  const bare = ({ column: _column, ...field }: SystemField): Field => field;
  return DefinitionSchema.parse({
    recordType: definition.recordType,
    alias: definition.alias,
    name: definition.name,
    handle: definition.handle,
    ...(handleField ? { handleField: handleField.name } : {}),
    titleField: definition.titleField,
    fields: [...(handleField ? [bare(handleField)] : []), ...definition.fields, ...audit.map(bare)],
  });
}

export type { FieldType, RecordType };
