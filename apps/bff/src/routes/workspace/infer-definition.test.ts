// The definition proposal over realistic samples: records as the hosted API lists them (every
// value text, no `id`, the handle in an ordinary field, audit fields by other names).
import { describe, expect, it } from 'vitest';

import type { RecordData } from '@wsc/api-client';
import { SampleResultSchema } from '@wsc/api-client';

import { elementProposal, inferDefinition, titleCase } from './infer-definition.ts';

const STATUSES = ['New', 'Open', 'Pending', 'Resolved', 'Closed'];
const SEVERITIES = ['Low', 'Medium', 'High', 'Critical'];
const AGENTS = ['ada@example.com', 'bob@example.com', 'carol@example.com'];
const CUSTOMERS = ['Acme Corp', 'Globex', 'Initech', 'Umbrella', 'Hooli'];
const TAGS = ['urgent', 'vip', 'regression', 'security'];
const TITLES = [
  'Printer on fire',
  'Cannot log in after password reset',
  'Invoice shows the wrong VAT rate',
  'Export to CSV drops accents',
  'Dark mode makes links invisible',
  'Webhook retries never stop',
  'SSO login loops back to start',
  'Search ignores the last word',
];

/** 40 support tickets: the demo support desk as the hosted profile lists it. */
function tickets(count = 40): RecordData[] {
  return Array.from({ length: count }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    const resolved = i % 3 === 0;
    return {
      'Ticket ID': `SUP-${i + 1}`,
      Title: `${TITLES[i % TITLES.length] ?? 'Ticket'} (#${i + 1})`,
      Description: i % 4 === 0 ? '' : `Reported by phone, case ${i * 7}. Steps attached.`,
      Status: STATUSES[i % STATUSES.length] ?? 'New',
      Severity: SEVERITIES[i % SEVERITIES.length] ?? 'Low',
      Priority: String((i % 3) + 1),
      Assignee: AGENTS[i % AGENTS.length] ?? '',
      'Due Date': `2025-04-${day}`,
      Customer: CUSTOMERS[i % CUSTOMERS.length] ?? '',
      'Resolved At': resolved ? `2025-03-${day}T10:15:00.000Z` : '',
      Tags: i % 2 === 0 ? `${TAGS[i % 4]},${TAGS[(i + 1) % 4]}` : (TAGS[i % 4] ?? ''),
      Billable: i % 2 === 0 ? 'true' : 'false',
      'Created on': `2025-02-${day}T08:00:00.000Z`,
      'Created by': AGENTS[(i + 1) % AGENTS.length] ?? '',
    };
  });
}

describe('inferDefinition', () => {
  it('proposes types, picklists, required, the handle and the title of a support desk', () => {
    const result = inferDefinition({
      recordType: 'apps',
      alias: 'support-tickets',
      records: tickets(),
      total: 40,
    });
    expect(SampleResultSchema.parse(result)).toEqual(result);
    const { definition } = result;
    expect(definition).toMatchObject({
      recordType: 'apps',
      alias: 'support-tickets',
      name: 'Support Tickets',
      handle: 'SUP',
      handleField: 'Ticket ID',
      titleField: 'Title',
    });
    const byName = Object.fromEntries(definition.fields.map((f) => [f.name, f]));
    // The service gives the handle: read-only, so never required of the person typing.
    expect(byName['Ticket ID']).toEqual({
      name: 'Ticket ID',
      type: 'HANDLE',
      required: false,
      readOnly: true,
    });
    expect(byName['Title']).toMatchObject({ type: 'TEXT', required: true });
    expect(byName['Description']).toMatchObject({ type: 'TEXT', required: false });
    expect(byName['Status']).toMatchObject({ type: 'PICKLIST', required: true });
    expect([...(byName['Status']?.values ?? [])].sort()).toEqual([...STATUSES].sort());
    expect(byName['Severity']?.values).toHaveLength(4);
    expect(byName['Priority']).toMatchObject({ type: 'NUMBER' });
    expect(byName['Assignee']).toMatchObject({ type: 'USER_ID', required: true });
    expect(byName['Created by']).toMatchObject({ type: 'USER_ID' });
    expect(byName['Due Date']).toMatchObject({ type: 'DATE' });
    expect(byName['Resolved At']).toMatchObject({ type: 'DATETIME', required: false });
    expect(byName['Created on']).toMatchObject({ type: 'DATETIME' });
    expect(byName['Customer']).toMatchObject({ type: 'PICKLIST' });
    expect(byName['Tags']).toMatchObject({ type: 'MULTI_PICKLIST' });
    expect([...(byName['Tags']?.values ?? [])].sort()).toEqual([...TAGS].sort());
    expect(byName['Billable']).toMatchObject({ type: 'BOOLEAN' });
    // Field order is the records' own.
    expect(definition.fields[0]?.name).toBe('Ticket ID');

    const notes = result.notes.join('\n');
    expect(notes).toContain('"Ticket ID" holds each record\'s handle');
    expect(notes).toContain('"Title" is shown as each record\'s title');
    expect(notes).toMatch(/"Status" has 5 distinct values over 40 records .*picklist/);
    expect(notes).toMatch(/"Tags" holds comma-separated choices/);
    expect(notes).toMatch(/"Assignee" holds email addresses/);
    expect(notes).toMatch(/Marked required .*Title/);
    expect(result).toMatchObject({ sampled: 40, total: 40 });
  });

  it('says when the sample is only the first page', () => {
    const result = inferDefinition({
      recordType: 'apps',
      alias: 'support-tickets',
      records: tickets(),
      total: 1234,
    });
    expect(result.notes[0]).toBe(
      'Proposed from the first 40 of 1234 records: values that occur only in later records are not in the picklists.',
    );
  });

  it('proposes no handle when no field has one prefix, unique, in every record', () => {
    const records = tickets(20).map((record, i) => {
      const { 'Ticket ID': _id, ...rest } = record;
      // Mixed prefixes, a repeated handle, and one missing: none is this record's own handle.
      return {
        ...rest,
        Reference: i % 2 === 0 ? `SUP-${i}` : `INC-${i}`,
        Parent: 'SUP-1',
        Duplicate: i === 3 ? '' : `SUP-${i + 100}`,
      };
    });
    const result = inferDefinition({ recordType: 'tasks', alias: 'follow-ups', records });
    expect(result.definition.handleField).toBeUndefined();
    expect(result.definition.handle).toBe('');
    expect(result.definition.fields.some((f) => f.type === 'HANDLE')).toBe(false);
    expect(result.notes).toContain(
      'No field holds a handle like ABC-123 in every record: these records will be listed but cannot be opened. If a field does hold the handle, choose it as the handle field.',
    );
  });

  it('prefers a Title, Name, Subject or Summary field as the title, and a key-like handle', () => {
    const records = Array.from({ length: 10 }, (_, i) => ({
      Number: `CHG-${i + 1}`,
      Key: `CHG-${i + 1}`,
      Notes: `Free text ${i}`,
      'Change Subject': `Move server ${i}`,
    }));
    const result = inferDefinition({ recordType: 'apps', alias: 'changes', records });
    expect(result.definition.handleField).toBe('Key');
    expect(result.definition.titleField).toBe('Change Subject');
    // The other handle-looking field stays an ordinary field.
    expect(result.definition.fields.find((f) => f.name === 'Number')?.type).toBe('TEXT');
  });

  it('takes a field named Title as the title even when template titles repeat', () => {
    const records = Array.from({ length: 20 }, (_, i) => ({
      'Task Key': `TSK-${i + 1}`,
      Title: ['Call the customer', 'Send the invoice', 'Review logs', 'Close out'][i % 4] ?? '',
      Notes: `Note ${i}`,
    }));
    const result = inferDefinition({ recordType: 'tasks', alias: 'tasks', records });
    expect(result.definition.titleField).toBe('Title');
  });

  it('proposes audit fields the service sets as read-only, never required', () => {
    const result = inferDefinition({ recordType: 'apps', alias: 'tickets', records: tickets() });
    const created = result.definition.fields.filter((f) => f.name.startsWith('Created'));
    expect(created.map((f) => [f.name, f.readOnly, f.required])).toEqual([
      ['Created on', true, false],
      ['Created by', true, false],
    ]);
    expect(result.notes.join('\n')).toMatch(/audit fields the service sets itself/);
  });

  it('proposes no title when no text field is distinct enough', () => {
    const records = Array.from({ length: 10 }, (_, i) => ({
      Key: `K-${i + 1}`,
      Team: i % 2 === 0 ? 'Red' : 'Blue',
      Count: String(i),
    }));
    const result = inferDefinition({ recordType: 'apps', alias: 'teams', records });
    expect(result.definition.titleField).toBeUndefined();
    expect(result.notes).toContain(
      'No text field is distinct enough to serve as a title: choose one by hand.',
    );
  });

  it('keeps values that do not repeat as text, not a picklist', () => {
    const records = [
      { Title: 'Only one', Status: 'Open' },
      { Title: 'Second', Status: 'Closed' },
      { Title: 'Third', Status: 'Pending' },
    ];
    const result = inferDefinition({ recordType: 'apps', alias: 'few', records });
    expect(result.definition.fields.find((f) => f.name === 'Status')?.type).toBe('TEXT');
    // Comma-joined free text is not a multi-picklist either.
    const prose = Array.from({ length: 6 }, (_, i) => ({ Text: `Hello, world ${i}, again ${i}` }));
    expect(
      inferDefinition({ recordType: 'apps', alias: 'prose', records: prose }).definition.fields[0]
        ?.type,
    ).toBe('TEXT');
  });

  it('answers an empty sample with no fields and a note', () => {
    const result = inferDefinition({
      recordType: 'apps',
      alias: 'empty-app',
      records: [],
      total: 0,
    });
    expect(result).toEqual({
      definition: {
        recordType: 'apps',
        alias: 'empty-app',
        name: 'Empty App',
        handle: '',
        fields: [],
      },
      sampled: 0,
      total: 0,
      notes: [
        'There are no apps/empty-app records to sample: add the fields by hand, or sample again once some exist.',
      ],
    });
  });

  it('notes a field that is empty everywhere and reads numbers, dates and booleans strictly', () => {
    const records = Array.from({ length: 4 }, (_, i) => ({
      Empty: '',
      Code: `00${i}`,
      When: i === 0 ? '2025-01-02' : `2025-01-0${i + 1}T10:00:00Z`,
      Flag: i % 2 === 0 ? 'TRUE' : 'false',
      Amount: `${i}.5`,
    }));
    const result = inferDefinition({ recordType: 'apps', alias: 'mixed', records });
    const types = Object.fromEntries(result.definition.fields.map((f) => [f.name, f.type]));
    expect(types).toEqual({
      Empty: 'TEXT',
      Code: 'TEXT',
      When: 'DATETIME',
      Flag: 'BOOLEAN',
      Amount: 'NUMBER',
    });
    expect(result.definition.fields.find((f) => f.name === 'Empty')?.required).toBe(false);
    expect(result.notes).toContain('"Empty" is empty in every sampled record: proposed as text.');
  });
});

describe('elementProposal', () => {
  it('takes name and handle from getElement, proposes no fields and says why', () => {
    const result = elementProposal('customers', { name: 'Customers', handle: 'CUS' });
    expect(SampleResultSchema.parse(result)).toEqual(result);
    expect(result.definition).toEqual({
      recordType: 'elements',
      alias: 'customers',
      name: 'Customers',
      handle: 'CUS',
      listable: false,
      fields: [],
    });
    expect(result.notes[0]).toMatch(/cannot be listed .* add the fields by hand/);
    expect(elementProposal('asset-types', {}).definition.name).toBe('Asset Types');
  });
});

describe('titleCase', () => {
  it('turns an alias into a name', () => {
    expect(titleCase('support-tickets')).toBe('Support Tickets');
    expect(titleCase('crm_accounts.v2')).toBe('Crm Accounts V2');
    expect(titleCase('---')).toBe('---');
  });
});
