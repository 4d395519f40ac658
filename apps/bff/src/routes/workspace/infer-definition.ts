// Proposes a definition from sampled records: the hosted API lists records but cannot describe
// their fields, so the setup page starts from what the data looks like and an administrator
// corrects it. Every guess that matters comes with a plain-language note.
import type {
  Aspect,
  Definition,
  Field,
  FieldType,
  RecordData,
  RecordType,
  SampleResult,
} from '@wsc/api-client';

import { DEFINITION_LIMITS } from '../../lib/workspace-definitions.ts';

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const ISO_DATETIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/i;
// No leading zeros: `007` is a code, not a number.
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const BOOLEAN = /^(true|false)$/i;
const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const HANDLE = /^([A-Z][A-Z0-9]*)-\d+$/;

/** At most this many distinct values make a picklist... */
const PICKLIST_MAX_VALUES = 12;
/** ...and only when the values repeat: at least this many filled records per distinct value. */
const PICKLIST_MIN_REPEAT = 2;
/** A title is mostly distinct: at least this share of its values differ. */
const TITLE_MIN_DISTINCT = 0.8;
/** Preferred title field names, best first (case-insensitive, whole name or a word in it). */
const TITLE_NAMES = ['title', 'name', 'subject', 'summary'];
/**
 * A field named exactly like a title (`Title`, `Name`, ...) is the title even when its values
 * repeat more (tasks made from templates): it only needs this share of distinct values.
 */
const NAMED_TITLE_MIN_DISTINCT = 0.2;
/** Audit fields the service sets itself (`Created on`, `Updated by`, ...): never typed. */
const AUDIT_NAME =
  /^(created|updated|modified|changed|last (modified|updated|changed))( (at|on|by|date|time))?$/i;
/** Preferred handle field names when several fields look like handles. */
const HANDLE_NAMES = ['key', 'id', 'handle', 'number'];

/**
 * An alias as a name: `support-tickets` -> `Support Tickets`.
 *
 * @example
 * titleCase('support-tickets'); // 'Support Tickets'
 */
export function titleCase(alias: string): string {
  return (
    alias
      .split(/[-_\s.]+/)
      .filter(Boolean)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ') || alias
  );
}

/** Values in order of frequency, ties in order of first appearance. */
function byFrequency(values: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.keys()].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
}

const every = (values: readonly string[], pattern: RegExp) => values.every((v) => pattern.test(v));

const quoteList = (values: readonly string[], max = 6) =>
  values.slice(0, max).join(', ') +
  (values.length > max ? `, and ${values.length - max} more` : '');

type Column = {
  name: string;
  /** Trimmed values, one per sampled record ('' when absent). */
  values: string[];
  filled: string[];
  distinct: number;
};

type Guess = { type: FieldType; values?: string[]; note?: string };

/** The type of one column from its non-empty values. */
function guessType(column: Column, records: number): Guess {
  const { name, filled } = column;
  if (filled.length === 0) {
    return { type: 'TEXT', note: `"${name}" is empty in every sampled record: proposed as text.` };
  }
  if (every(filled, BOOLEAN)) {
    return { type: 'BOOLEAN', note: `"${name}" holds only true and false: proposed as yes/no.` };
  }
  if (every(filled, ISO_DATE)) {
    return { type: 'DATE', note: `"${name}" holds dates (YYYY-MM-DD): proposed as a date.` };
  }
  if (filled.every((v) => ISO_DATE.test(v) || ISO_DATETIME.test(v))) {
    return {
      type: 'DATETIME',
      note: `"${name}" holds dates with times: proposed as a date and time.`,
    };
  }
  if (every(filled, NUMBER)) {
    return { type: 'NUMBER', note: `"${name}" holds numbers: proposed as a number.` };
  }
  if (every(filled, EMAIL)) {
    return {
      type: 'USER_ID',
      note: `"${name}" holds email addresses: proposed as a person (user) field.`,
    };
  }
  if (filled.some((v) => v.includes(','))) {
    const parts = filled.flatMap((v) =>
      v
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    );
    const options = byFrequency(parts);
    if (
      options.length > 0 &&
      options.length <= PICKLIST_MAX_VALUES &&
      parts.length >= PICKLIST_MIN_REPEAT * options.length
    ) {
      return {
        type: 'MULTI_PICKLIST',
        values: options,
        note: `"${name}" holds comma-separated choices from ${options.length} values (${quoteList(options)}): proposed as a multi-select picklist.`,
      };
    }
  }
  const options = byFrequency(filled);
  if (
    options.length <= PICKLIST_MAX_VALUES &&
    filled.length >= PICKLIST_MIN_REPEAT * options.length
  ) {
    return {
      type: 'PICKLIST',
      values: options,
      note: `"${name}" has ${options.length} distinct value${options.length === 1 ? '' : 's'} over ${records} records (${quoteList(options)}): proposed as a picklist. Values that did not occur in the sample are missing; add them.`,
    };
  }
  return { type: 'TEXT' };
}

/** The one prefix all values share when every value looks like a handle (`SUP-42`), else undefined. */
function handlePrefix(values: readonly string[]): string | undefined {
  let prefix: string | undefined;
  for (const value of values) {
    const match = HANDLE.exec(value);
    if (!match?.[1] || (prefix !== undefined && prefix !== match[1])) return undefined;
    prefix = match[1];
  }
  return prefix;
}

function nameRank(name: string, preferred: readonly string[]): number {
  const lower = name.toLowerCase();
  const exact = preferred.indexOf(lower);
  if (exact !== -1) return exact;
  const words = lower.split(/[^a-z0-9]+/);
  const partial = preferred.findIndex((p) => words.includes(p));
  return partial === -1 ? Number.POSITIVE_INFINITY : preferred.length + partial;
}

/** The best-named candidate, ties (and no preferred name) in column order. */
function pick(candidates: readonly Column[], preferred: readonly string[]): Column | undefined {
  let best: Column | undefined;
  let bestRank = Number.POSITIVE_INFINITY;
  for (const column of candidates) {
    const rank = nameRank(column.name, preferred);
    if (best === undefined || rank < bestRank) {
      best = column;
      bestRank = rank;
    }
  }
  return best;
}

/**
 * A proposed definition for `recordType/alias` from up to 100 sampled records: field types from
 * the values, `required` where every record has a value, the handle field (every value `ABC-123`
 * with one prefix, all distinct), and a title field (a mostly-distinct text field, preferring
 * Title, Name, Subject or Summary).
 *
 * @example
 * const result = inferDefinition({ recordType: 'apps', alias: 'support', records, total: 250 });
 * result.definition.handleField; // 'Ticket ID'
 */
export function inferDefinition(input: {
  recordType: RecordType;
  alias: string;
  records: readonly RecordData[];
  total?: number | undefined;
}): SampleResult {
  const { records } = input;
  const notes: string[] = [];
  const base = {
    recordType: input.recordType,
    alias: input.alias,
    name: titleCase(input.alias),
  };
  const sampled = records.length;
  const total = input.total === undefined ? {} : { total: input.total };
  if (sampled === 0) {
    notes.push(
      `There are no ${input.recordType}/${input.alias} records to sample: add the fields by hand, or sample again once some exist.`,
    );
    return { definition: { ...base, handle: '', fields: [] }, sampled, ...total, notes };
  }
  if (input.total !== undefined && input.total > sampled) {
    notes.push(
      `Proposed from the first ${sampled} of ${input.total} records: values that occur only in later records are not in the picklists.`,
    );
  }

  const names: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    for (const key of Object.keys(record)) {
      if (!seen.has(key)) {
        seen.add(key);
        names.push(key);
      }
    }
  }
  if (names.length > DEFINITION_LIMITS.fields) {
    notes.push(
      `The records have ${names.length} fields; only the first ${DEFINITION_LIMITS.fields} are proposed.`,
    );
    names.length = DEFINITION_LIMITS.fields;
  }
  const columns: Column[] = names.map((name) => {
    const values = records.map((record) => (record[name] ?? '').trim());
    const filled = values.filter((value) => value !== '');
    return { name, values, filled, distinct: new Set(filled).size };
  });

  // The handle: in every record, unique, one prefix.
  const handleCandidates = columns.filter(
    (column) =>
      column.filled.length === sampled &&
      column.distinct === sampled &&
      handlePrefix(column.filled) !== undefined,
  );
  const handleColumn = pick(handleCandidates, HANDLE_NAMES);
  const handle = handleColumn ? (handlePrefix(handleColumn.filled) ?? '') : '';

  const guesses = new Map<string, Guess>();
  for (const column of columns) {
    let guess: Guess = column === handleColumn ? { type: 'HANDLE' } : guessType(column, sampled);
    // A field named like a title is free text, whatever few values the sample shows.
    const titleNamed = TITLE_NAMES.includes(column.name.toLowerCase());
    if (titleNamed && (guess.type === 'PICKLIST' || guess.type === 'MULTI_PICKLIST')) {
      guess = { type: 'TEXT' };
    }
    guesses.set(column.name, guess);
  }

  const titleCandidates = columns.filter((column) => {
    const named = TITLE_NAMES.includes(column.name.toLowerCase());
    const minDistinct = named ? NAMED_TITLE_MIN_DISTINCT : TITLE_MIN_DISTINCT;
    return (
      column !== handleColumn &&
      guesses.get(column.name)?.type === 'TEXT' &&
      column.filled.length * 2 >= sampled &&
      column.distinct > 1 &&
      column.distinct >= minDistinct * column.filled.length
    );
  });
  const audit = columns.filter((column) => column !== handleColumn && AUDIT_NAME.test(column.name));
  const titleColumn = pick(titleCandidates, TITLE_NAMES);

  const fields: Field[] = columns.map((column) => {
    const guess = guesses.get(column.name) ?? { type: 'TEXT' };
    // A handle and the audit fields are given by the service, never typed (nor required).
    const readOnly = column === handleColumn || audit.includes(column);
    const required = !readOnly && column.filled.length === sampled;
    return {
      name: column.name,
      type: guess.type,
      required,
      ...(guess.values ? { values: guess.values } : {}),
      ...(readOnly ? { readOnly: true } : {}),
    };
  });

  if (handleColumn) {
    notes.push(
      `"${handleColumn.name}" holds each record's handle (${quoteList(handleColumn.filled, 3)}): records open by it, and the handle prefix is ${handle}.`,
    );
  } else {
    notes.push(
      'No field holds a handle like ABC-123 in every record: these records will be listed but cannot be opened. If a field does hold the handle, choose it as the handle field.',
    );
  }
  if (audit.length > 0) {
    notes.push(
      `${quoteList(
        audit.map((column) => column.name),
        6,
      )} look like audit fields the service sets itself: proposed read-only.`,
    );
  }
  if (titleColumn) {
    notes.push(`"${titleColumn.name}" is shown as each record's title.`);
  } else {
    notes.push('No text field is distinct enough to serve as a title: choose one by hand.');
  }
  for (const column of columns) {
    const note = guesses.get(column.name)?.note;
    if (note) notes.push(note);
  }
  const required = fields.filter((f) => f.required && f.name !== handleColumn?.name);
  if (required.length > 0) {
    notes.push(
      `Marked required because every sampled record has a value: ${quoteList(
        required.map((f) => f.name),
        12,
      )}. Clear it where a value may be missing.`,
    );
  }

  const definition: Definition = {
    ...base,
    handle,
    ...(handleColumn ? { handleField: handleColumn.name } : {}),
    ...(titleColumn ? { titleField: titleColumn.name } : {}),
    fields,
  };
  return { definition, sampled, ...total, notes };
}

/**
 * The proposal for an element type: the published `GET /elements/{alias}` is getElement (name and
 * handle), and element records cannot be listed, so there is nothing to sample.
 *
 * @example
 * elementProposal('customers', { name: 'Customers', handle: 'CUS' }).definition.listable; // false
 */
export function elementProposal(
  alias: string,
  aspect: Partial<Pick<Aspect, 'name' | 'handle'>>,
): SampleResult {
  const handle = aspect.handle ?? '';
  return {
    definition: {
      recordType: 'elements',
      alias,
      name: aspect.name || titleCase(alias),
      handle,
      listable: false,
      fields: [],
    },
    sampled: 0,
    notes: [
      `Elements cannot be listed through the published API, so no records were read: add the fields by hand.${aspect.name ? ` The name "${aspect.name}" comes from the service.` : ''}`,
      handle
        ? `Element records open by handle (${handle}-…); choose the field that holds it as the handle field once you have added it.`
        : 'The service gave no handle prefix for this element type.',
    ],
  };
}
