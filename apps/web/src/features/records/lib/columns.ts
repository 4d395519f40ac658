import type { Definition, Field } from '@wsc/api-client';

/**
 * Every field a record of this definition has, as the definition describes them: our API lists
 * its system fields (`id`, `Created At`, ...) as read-only fields, and a workspace description for
 * the hosted service lists the handle and audit fields under the names that tenant uses.
 *
 * @example
 * allFields(definition).map((f) => f.name); // ['id', 'Title', ..., 'Updated By']
 */
export function allFields(definition: Definition): Field[] {
  return definition.fields;
}

/**
 * Fields the user edits: every field but the read-only ones (system, handle and audit fields).
 *
 * @example
 * editableFields(definition).every((f) => !f.readOnly); // true
 */
export function editableFields(definition: Definition): Field[] {
  return definition.fields.filter((f) => !f.readOnly && f.name !== definition.handleField);
}

/** The read-only date-time field that tells when a record last changed (`Updated At` in our API). */
function updatedField(definition: Definition): string | undefined {
  const stamps = definition.fields.filter((f) => f.readOnly && f.type === 'DATETIME');
  return (stamps.find((f) => /updated|modified|changed/i.test(f.name)) ?? stamps.at(-1))?.name;
}

/**
 * The columns shown when the URL names none: the handle, the title, then the first short fields
 * and the last update, so that a table fits at 1280 px.
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
  const updated = updatedField(definition);
  return [
    ...(definition.handleField ? [definition.handleField] : []),
    ...(title ? [title] : []),
    ...rest,
    ...(updated ? [updated] : []),
  ];
}

/**
 * The header of a column: `ID` for our API's `id`, else the field's own name.
 *
 * @example
 * columnHeader('id'); // 'ID'
 */
export function columnHeader(name: string): string {
  return name === 'id' ? 'ID' : name;
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
