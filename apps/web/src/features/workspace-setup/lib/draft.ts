import type { Definition, Field, FieldProblem, FieldType, RecordType } from '@wsc/api-client';

/** One row of the fields table while it is being edited. */
export interface FieldDraft {
  /**
   * Stable identity of the row: the name changes while it is typed, and the title and handle
   * selections, React keys and error messages must follow the row, not the text.
   */
  key: string;
  name: string;
  type: FieldType;
  required: boolean;
  readOnly: boolean;
  /** Kept while the type is switched away from a picklist, so switching back loses nothing. */
  values: string[];
  /** After a re-sample: `new` came from the sample, `unseen` is saved but was not in it. */
  origin?: 'new' | 'unseen';
}

/** A definition being edited; `titleKey` / `handleKey` point at a row (`''`: none). */
export interface DefinitionDraft {
  recordType: RecordType;
  alias: string;
  name: string;
  handle: string;
  titleKey: string;
  handleKey: string;
  listable: boolean | undefined;
  fields: FieldDraft[];
}

/** The parts of a field row a message can be pinned to; `row` is the row as a whole. */
export type FieldPart = 'name' | 'type' | 'required' | 'readOnly' | 'values' | 'row';
/** The definition-level inputs of the editor. */
export type TopPart = 'name' | 'handle' | 'titleField' | 'handleField' | 'fields';

/** Messages for the editor: per input, per field row and part, and what fits nowhere. */
export interface DraftErrors {
  top: Partial<Record<TopPart, string>>;
  fields: Record<string, Partial<Record<FieldPart, string>>>;
  general: string[];
}

export const PICKLIST_TYPES: ReadonlySet<FieldType> = new Set(['PICKLIST', 'MULTI_PICKLIST']);

/** Human names of the record types, in the order the console lists them. */
export const RECORD_TYPE_LABELS: Record<RecordType, string> = {
  apps: 'Apps',
  elements: 'Elements',
  tasks: 'Tasks',
  transactions: 'Transactions',
};

/** What each AspectFieldType means to an administrator choosing one. */
export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  TEXT: 'Text',
  NUMBER: 'Number',
  DECIMAL: 'Decimal',
  DATE: 'Date',
  DATETIME: 'Date and time',
  PICKLIST: 'Picklist',
  MULTI_PICKLIST: 'Multi-picklist',
  BOOLEAN: 'Yes / no',
  USER_ID: 'User',
  GROUP_ID: 'Group',
  HANDLE: 'Handle',
  ATTACHMENT_ID: 'Attachment',
  HTML: 'HTML',
  JSON: 'JSON',
};

let lastKey = 0;
const nextKey = () => `field-${++lastKey}`;

function fieldDraft(field: Field, origin?: FieldDraft['origin']): FieldDraft {
  return {
    key: nextKey(),
    name: field.name,
    type: field.type,
    required: field.required,
    readOnly: field.readOnly ?? false,
    values: field.values ?? [],
    ...(origin ? { origin } : {}),
  };
}

const keyOf = (fields: FieldDraft[], name: string | undefined) =>
  (name && fields.find((field) => field.name === name)?.key) || '';

/**
 * An empty row for "Add field".
 *
 * @example
 * setDraft((d) => ({ ...d, fields: [...d.fields, emptyField()] }));
 */
export function emptyField(): FieldDraft {
  return { key: nextKey(), name: '', type: 'TEXT', required: false, readOnly: false, values: [] };
}

/**
 * A definition (a proposal or a saved one) as an editable draft.
 *
 * @example
 * const draft = toDraft(sample.definition);
 * draft.titleKey === draft.fields[0]?.key; // when the first field is the title
 */
export function toDraft(definition: Definition): DefinitionDraft {
  const fields = definition.fields.map((field) => fieldDraft(field));
  return {
    recordType: definition.recordType,
    alias: definition.alias,
    name: definition.name,
    handle: definition.handle,
    titleKey: keyOf(fields, definition.titleField),
    handleKey: keyOf(fields, definition.handleField),
    listable: definition.listable,
    fields,
  };
}

/**
 * Picklist values as typed or pasted: split on commas and new lines, trimmed, empty and repeated
 * ones dropped. Commas cannot be part of a value: the API sends multi-picklist values comma-joined.
 *
 * @example
 * splitValues('Open, Pending,\nOpen'); // ['Open', 'Pending']
 */
export function splitValues(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((value) => value.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * The draft as the `Definition` the BFF stores: names trimmed, values only on picklists, and the
 * title and handle fields by name. Rows keep their order and none is dropped, so the server's
 * `fields.<i>` errors point at the same rows.
 *
 * @example
 * fromDraft(draft).fields[0]; // { name: 'Title', type: 'TEXT', required: true }
 */
export function fromDraft(draft: DefinitionDraft): Definition {
  const nameOf = (key: string) => draft.fields.find((field) => field.key === key)?.name.trim();
  const titleField = draft.titleKey ? nameOf(draft.titleKey) : undefined;
  const handleField = draft.handleKey ? nameOf(draft.handleKey) : undefined;
  return {
    recordType: draft.recordType,
    alias: draft.alias,
    name: draft.name.trim(),
    handle: draft.handle.trim(),
    ...(handleField ? { handleField } : {}),
    ...(titleField ? { titleField } : {}),
    ...(draft.listable === undefined ? {} : { listable: draft.listable }),
    fields: draft.fields.map((field) => ({
      name: field.name.trim(),
      type: field.type,
      required: field.required,
      ...(PICKLIST_TYPES.has(field.type) ? { values: splitValues(field.values.join('\n')) } : {}),
      ...(field.readOnly ? { readOnly: true } : {}),
    })),
  };
}

const noErrors = (): DraftErrors => ({ top: {}, fields: {}, general: [] });

/**
 * True when there is nothing to show.
 *
 * @example
 * if (hasErrors(validateDraft(draft))) return;
 */
export function hasErrors(errors: DraftErrors): boolean {
  return (
    errors.general.length > 0 ||
    Object.values(errors.top).some(Boolean) ||
    Object.values(errors.fields).some((row) => Object.values(row).some(Boolean))
  );
}

/**
 * The checks the editor can make before sending, so plain mistakes need no round trip. The BFF
 * checks again, and its 422 lands in the same places ({@link problemsToErrors}).
 *
 * @example
 * validateDraft({ ...draft, name: ' ' }).top.name; // 'Enter a name'
 */
export function validateDraft(draft: DefinitionDraft): DraftErrors {
  const errors = noErrors();
  if (!draft.name.trim()) errors.top.name = 'Enter a name';
  if (draft.fields.length === 0) errors.top.fields = 'Add at least one field';
  const seen = new Set<string>();
  for (const field of draft.fields) {
    const row: Partial<Record<FieldPart, string>> = {};
    const name = field.name.trim();
    if (!name) row.name = 'Enter the field name';
    else if (seen.has(name)) row.name = `Another field is already called ${name}`;
    seen.add(name);
    if (PICKLIST_TYPES.has(field.type) && splitValues(field.values.join('\n')).length === 0) {
      row.values = 'A picklist needs at least one value';
    }
    if (Object.keys(row).length > 0) errors.fields[field.key] = row;
  }
  return errors;
}

const TOP_PARTS: ReadonlySet<string> = new Set<TopPart>([
  'name',
  'handle',
  'titleField',
  'handleField',
  'fields',
]);
const FIELD_PARTS: ReadonlySet<string> = new Set<FieldPart>([
  'name',
  'type',
  'required',
  'readOnly',
  'values',
]);

/**
 * Pins the server's field problems (400/422 `errors`) on the editor's inputs. Paths may come as
 * `fields.2.type`, `fields[2].values[0]` or `/fields/2/name`; a bare field name (`Status`) marks
 * that row. Whatever matches nothing is kept in `general`, so no message is lost.
 *
 * @example
 * problemsToErrors([{ field: 'fields.1.values', message: 'Too many values' }], draft)
 *   .fields[draft.fields[1].key]; // { values: 'Too many values' }
 */
export function problemsToErrors(problems: FieldProblem[], draft: DefinitionDraft): DraftErrors {
  const errors = noErrors();
  for (const { field, message } of problems) {
    const path = field
      .replace(/\[(\d+)\]/g, '.$1')
      .replace(/^[/.]+/, '')
      .split(/[./]/)
      .filter(Boolean);
    const [head, index, part] = path;
    // The definition's own keys win over a field that happens to be called `name`.
    if (head && path.length === 1 && TOP_PARTS.has(head)) {
      const top = head as TopPart;
      errors.top[top] = errors.top[top] ? `${errors.top[top]} ${message}` : message;
      continue;
    }
    const row =
      head === 'fields' && index !== undefined && /^\d+$/.test(index)
        ? draft.fields[Number(index)]
        : path.length === 1
          ? draft.fields.find((candidate) => candidate.name.trim() === head)
          : undefined;
    if (row) {
      const where: FieldPart = part && FIELD_PARTS.has(part) ? (part as FieldPart) : 'row';
      const messages = (errors.fields[row.key] ??= {});
      messages[where] = messages[where] ? `${messages[where]} ${message}` : message;
    } else {
      errors.general.push(field && field !== '(body)' ? `${field}: ${message}` : message);
    }
  }
  return errors;
}

/** A re-sample merged into the saved definition, and what the merge did, in words. */
export interface ResampleMerge {
  draft: DefinitionDraft;
  changes: string[];
}

const list = (names: string[]) => names.join(', ');

/**
 * Re-sampling a saved definition: the saved definition is the administrator's word, the sample
 * only adds to it. Saved fields keep their name, type, flags and values in their order; picklists
 * gain values first seen in the sample; fields first seen are appended (marked `new`); saved
 * fields the sample did not see stay (marked `unseen`), because an empty or rare field is simply
 * absent from the sampled records. The name, handle, title and handle fields stay as saved.
 * Each difference is reported so nothing changes silently.
 *
 * @example
 * const { draft, changes } = mergeResample(saved, sample.definition);
 * // changes: ['New field from the sample: Escalation (Text)', ...]
 */
export function mergeResample(saved: Definition, proposal: Definition): ResampleMerge {
  const changes: string[] = [];
  const proposed = new Map(proposal.fields.map((field) => [field.name, field]));
  const savedNames = new Set(saved.fields.map((field) => field.name));
  const unseen: string[] = [];

  const kept = saved.fields.map((field) => {
    const sampled = proposed.get(field.name);
    if (!sampled) {
      unseen.push(field.name);
      return fieldDraft(field, 'unseen');
    }
    const row = fieldDraft(field);
    if (sampled.type !== field.type) {
      changes.push(
        `${field.name}: kept your type ${FIELD_TYPE_LABELS[field.type]} (the sample suggests ${FIELD_TYPE_LABELS[sampled.type]})`,
      );
    }
    if (PICKLIST_TYPES.has(field.type)) {
      const added = (sampled.values ?? []).filter((value) => !row.values.includes(value));
      if (added.length > 0) {
        row.values = [...row.values, ...added];
        changes.push(`${field.name}: new values from the sample added: ${list(added)}`);
      }
    }
    return row;
  });
  const added = proposal.fields
    .filter((field) => !savedNames.has(field.name))
    .map((field) => fieldDraft(field, 'new'));
  for (const row of added) {
    changes.push(`New field from the sample: ${row.name} (${FIELD_TYPE_LABELS[row.type]})`);
  }
  if (unseen.length > 0) {
    changes.push(
      `Not in the sampled records, kept as saved: ${list(unseen)}. Remove ${unseen.length === 1 ? 'it' : 'them'} if ${unseen.length === 1 ? 'it no longer exists' : 'they no longer exist'}.`,
    );
  }

  const fields = [...kept, ...added];
  const suggest = (what: string, mine: string | undefined, theirs: string | undefined) => {
    if (theirs && theirs !== mine) {
      changes.push(`The sample suggests ${theirs} as the ${what}; yours is ${mine ?? 'none'}.`);
    }
  };
  suggest('title field', saved.titleField, proposal.titleField);
  suggest('handle field', saved.handleField, proposal.handleField);
  if (changes.length === 0) changes.push('The sample matches the saved definition.');

  return {
    draft: {
      recordType: saved.recordType,
      alias: saved.alias,
      name: saved.name,
      handle: saved.handle,
      titleKey: keyOf(fields, saved.titleField),
      handleKey: keyOf(fields, saved.handleField),
      listable: saved.listable,
      fields,
    },
    changes,
  };
}
