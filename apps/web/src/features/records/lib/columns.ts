import type { Definition, Field } from '@wsc/api-client';

/** The always-present id column (the handle, e.g. SUP-42). */
export const ID_FIELD: Field = { name: 'id', type: 'HANDLE', required: false, readOnly: true };

const SYSTEM: Field[] = [
  ID_FIELD,
  { name: 'Created At', type: 'DATETIME', required: false, readOnly: true },
  { name: 'Created By', type: 'USER_ID', required: false, readOnly: true },
  { name: 'Updated At', type: 'DATETIME', required: false, readOnly: true },
  { name: 'Updated By', type: 'USER_ID', required: false, readOnly: true },
];

/**
 * Every field a record of this definition has: its own fields plus the system fields, whether or
 * not the API lists the latter in the definition.
 *
 * @example
 * allFields(definition).map((f) => f.name); // ['id', 'Title', ..., 'Updated By']
 */
export function allFields(definition: Definition): Field[] {
  const own = definition.fields;
  const names = new Set(own.map((f) => f.name));
  const id = names.has('id') ? [] : [ID_FIELD];
  return [...id, ...own, ...SYSTEM.filter((f) => f.name !== 'id' && !names.has(f.name))];
}

/**
 * Fields the user edits (not the system ones).
 *
 * @example
 * editableFields(definition).every((f) => !f.readOnly); // true
 */
export function editableFields(definition: Definition): Field[] {
  const system = new Set(SYSTEM.map((f) => f.name));
  return definition.fields.filter((f) => !f.readOnly && !system.has(f.name));
}

/**
 * The columns shown when the URL names none: id, the title, then the first short fields and the
 * last update, so that a table fits at 1280 px.
 *
 * @example
 * defaultColumns(supportTickets); // ['id', 'Title', 'Status', 'Severity', 'Priority', 'Assignee', 'Due Date', 'Updated At']
 */
export function defaultColumns(definition: Definition): string[] {
  const title = definition.titleField;
  const rest = editableFields(definition)
    .filter((f) => f.name !== title && f.name !== 'Description' && f.type !== 'MULTI_PICKLIST')
    .slice(0, 5)
    .map((f) => f.name);
  return ['id', ...(title ? [title] : []), ...rest, 'Updated At'];
}

/**
 * Pixel width of a column by field type.
 *
 * @example
 * columnWidth({ name: 'Due Date', type: 'DATE', required: false }, undefined); // 130
 */
export function columnWidth(field: Field, titleField: string | undefined): number {
  if (field.name === titleField) return 340;
  switch (field.type) {
    case 'HANDLE':
      return 110;
    case 'PICKLIST':
      return 140;
    case 'BOOLEAN':
      return 100;
    case 'NUMBER':
    case 'DECIMAL':
      return 110;
    case 'DATE':
      return 130;
    case 'DATETIME':
      return 190;
    case 'USER_ID':
      return 220;
    case 'MULTI_PICKLIST':
      return 220;
    default:
      return 220;
  }
}
