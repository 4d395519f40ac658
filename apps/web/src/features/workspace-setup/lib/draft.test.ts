import { describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';

import type { DefinitionDraft } from './draft.ts';
import {
  fromDraft,
  hasErrors,
  mergeResample,
  problemsToErrors,
  splitValues,
  toDraft,
  validateDraft,
} from './draft.ts';

const saved: Definition = {
  recordType: 'apps',
  alias: 'support',
  name: 'Support desk',
  handle: 'SUP',
  handleField: 'Ticket ID',
  titleField: 'Title',
  fields: [
    { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
    { name: 'Title', type: 'TEXT', required: true },
    { name: 'Status', type: 'PICKLIST', required: true, values: ['New', 'Open', 'Closed'] },
    { name: 'Priority', type: 'NUMBER', required: false },
    { name: 'Legacy code', type: 'TEXT', required: false },
  ],
};

const sample: Definition = {
  recordType: 'apps',
  alias: 'support',
  name: 'Support',
  handle: 'S',
  handleField: 'Ticket ID',
  titleField: 'Summary',
  fields: [
    { name: 'Ticket ID', type: 'HANDLE', required: true, readOnly: true },
    { name: 'Title', type: 'TEXT', required: false },
    { name: 'Status', type: 'PICKLIST', required: false, values: ['New', 'Escalated', 'Open'] },
    { name: 'Priority', type: 'TEXT', required: false },
    { name: 'Summary', type: 'TEXT', required: false },
  ],
};

const rowNamed = (draft: DefinitionDraft, name: string) => {
  const row = draft.fields.find((field) => field.name === name);
  if (!row) throw new Error(`no row ${name}`);
  return row;
};

describe('toDraft / fromDraft', () => {
  it('round-trips a definition unchanged', () => {
    expect(fromDraft(toDraft(saved))).toEqual(saved);
  });

  it('keeps the title and handle fields on their rows when renamed, and drops them with the row', () => {
    const draft = toDraft(saved);
    const renamed = {
      ...draft,
      fields: draft.fields.map((f) => (f.name === 'Title' ? { ...f, name: ' Subject ' } : f)),
    };
    expect(fromDraft(renamed).titleField).toBe('Subject');
    const removed = { ...draft, fields: draft.fields.filter((f) => f.name !== 'Ticket ID') };
    expect(fromDraft(removed)).not.toHaveProperty('handleField');
  });

  it('sends values only for picklists, trimmed and de-duplicated, and readOnly only when set', () => {
    const draft = toDraft(saved);
    const status = rowNamed(draft, 'Status');
    const priority = rowNamed(draft, 'Priority');
    const edited: DefinitionDraft = {
      ...draft,
      fields: draft.fields.map((f) =>
        f === status
          ? { ...f, values: [' New', 'New', 'Done '] }
          : f === priority
            ? { ...f, values: ['stale'], readOnly: false }
            : f,
      ),
    };
    const fields = fromDraft(edited).fields;
    expect(fields[2]).toEqual({
      name: 'Status',
      type: 'PICKLIST',
      required: true,
      values: ['New', 'Done'],
    });
    expect(fields[3]).toEqual({ name: 'Priority', type: 'NUMBER', required: false });
  });
});

describe('splitValues', () => {
  it('splits on commas and new lines and drops blanks and repeats', () => {
    expect(splitValues(' Open, Pending,,\nOpen ,')).toEqual(['Open', 'Pending']);
  });
});

describe('validateDraft', () => {
  it('asks for a name, field names that differ, and picklist values', () => {
    const draft = toDraft(saved);
    const [first, second, status] = draft.fields;
    const errors = validateDraft({
      ...draft,
      name: '  ',
      fields: draft.fields.map((f) =>
        f === second
          ? { ...f, name: first?.name ?? '' }
          : f === status
            ? { ...f, values: [' '] }
            : f,
      ),
    });
    expect(errors.top.name).toBe('Enter a name');
    expect(errors.fields[second?.key ?? '']?.name).toBe(
      'Another field is already called Ticket ID',
    );
    expect(errors.fields[status?.key ?? '']?.values).toBe('A picklist needs at least one value');
    expect(hasErrors(validateDraft(draft))).toBe(false);
  });
});

describe('problemsToErrors', () => {
  it('pins dotted, bracketed and pointer paths, bare field names and top-level keys', () => {
    const draft = toDraft(saved);
    const errors = problemsToErrors(
      [
        { field: 'fields.2.values', message: 'Too many values' },
        { field: 'fields[3].type', message: 'Unknown type' },
        { field: '/fields/1/name', message: 'Taken' },
        { field: 'Legacy code', message: 'Not in the service' },
        { field: 'name', message: 'Too long' },
        { field: 'fields.9.name', message: 'No such row' },
        { field: '', message: 'Something else' },
      ],
      draft,
    );
    expect(errors.fields[rowNamed(draft, 'Status').key]).toEqual({ values: 'Too many values' });
    expect(errors.fields[rowNamed(draft, 'Priority').key]).toEqual({ type: 'Unknown type' });
    expect(errors.fields[rowNamed(draft, 'Title').key]).toEqual({ name: 'Taken' });
    expect(errors.fields[rowNamed(draft, 'Legacy code').key]).toEqual({
      row: 'Not in the service',
    });
    expect(errors.top).toEqual({ name: 'Too long' });
    expect(errors.general).toEqual(['fields.9.name: No such row', 'Something else']);
  });
});

describe('mergeResample', () => {
  it("keeps the administrator's corrections and adds what the sample found", () => {
    const { draft, changes } = mergeResample(saved, sample);
    const merged = fromDraft(draft);
    // The saved definition-level choices stay.
    expect(merged).toMatchObject({
      name: 'Support desk',
      handle: 'SUP',
      titleField: 'Title',
      handleField: 'Ticket ID',
    });
    expect(merged.fields).toEqual([
      { name: 'Ticket ID', type: 'HANDLE', required: false, readOnly: true },
      { name: 'Title', type: 'TEXT', required: true },
      {
        name: 'Status',
        type: 'PICKLIST',
        required: true,
        values: ['New', 'Open', 'Closed', 'Escalated'],
      },
      { name: 'Priority', type: 'NUMBER', required: false },
      { name: 'Legacy code', type: 'TEXT', required: false },
      { name: 'Summary', type: 'TEXT', required: false },
    ]);
    expect(rowNamed(draft, 'Summary').origin).toBe('new');
    expect(rowNamed(draft, 'Legacy code').origin).toBe('unseen');
    expect(rowNamed(draft, 'Title').origin).toBeUndefined();
    expect(changes).toEqual([
      'Status: new values from the sample added: Escalated',
      'Priority: kept your type Number (the sample suggests Text)',
      'New field from the sample: Summary (Text)',
      'Not in the sampled records, kept as saved: Legacy code. Remove it if it no longer exists.',
      'The sample suggests Summary as the title field; yours is Title.',
    ]);
  });

  it('says so when the sample matches', () => {
    expect(mergeResample(saved, saved).changes).toEqual([
      'The sample matches the saved definition.',
    ]);
  });
});
