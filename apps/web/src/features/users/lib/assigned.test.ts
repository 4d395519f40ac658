import { describe, expect, it } from 'vitest';

import type { Definition } from '@wsc/api-client';

import { ticketsDefinition } from '@/testing/render.tsx';

import { assignableDefinitions, assignedFilter, closedStates } from './assigned.ts';

const tasks: Definition = {
  recordType: 'tasks',
  alias: 'tasks',
  name: 'Tasks',
  handle: 'TSK',
  fields: [
    { name: 'Title', type: 'TEXT', required: true },
    {
      name: 'Status',
      type: 'PICKLIST',
      required: true,
      values: ['To Do', 'In Progress', 'Blocked', 'Done'],
    },
    { name: 'Assignee', type: 'USER_ID', required: false },
  ],
};
const customers: Definition = {
  recordType: 'elements',
  alias: 'customers',
  name: 'Customers',
  handle: 'CUS',
  fields: [{ name: 'Account Manager', type: 'USER_ID', required: false }],
};
const noStatus: Definition = {
  ...tasks,
  alias: 'notes',
  fields: [{ name: 'Assignee', type: 'USER_ID', required: false }],
};

describe('assigned records', () => {
  it('finds the definitions with a USER_ID field named Assignee', () => {
    expect(
      assignableDefinitions([ticketsDefinition, customers, tasks]).map((d) => d.handle),
    ).toEqual(['SUP', 'TSK']);
  });

  it('derives the closed states from the Status picklist', () => {
    expect(closedStates(ticketsDefinition)).toEqual(['Resolved', 'Closed']);
    expect(closedStates(tasks)).toEqual(['Done']);
    expect(closedStates(noStatus)).toEqual([]);
  });

  it('builds the RSQL for all and for open assigned records', () => {
    expect(assignedFilter(ticketsDefinition, 'ada@example.com', false)).toBe(
      'Assignee==ada@example.com',
    );
    expect(assignedFilter(ticketsDefinition, 'ada@example.com', true)).toBe(
      'Assignee==ada@example.com;Status=out=(Resolved,Closed)',
    );
    // Without closed states every assigned record is open.
    expect(assignedFilter(noStatus, 'ada@example.com', true)).toBe('Assignee==ada@example.com');
  });

  it('quotes an email with reserved characters', () => {
    expect(assignedFilter(tasks, "o'neil,x@example.com", false)).toMatch(/^Assignee==(["']).*\1$/);
  });
});
