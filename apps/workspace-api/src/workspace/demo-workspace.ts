// The built-in demo workspace: a realistic support desk. Used when WORKSPACE_FILE is not set.
// `hostedFields` name where the hosted profile publishes handles and audit values; the defaults
// (`Created on`, `Created by`, `Updated on`, `Updated by`) serve for the audit values.
import type { WorkspaceFile } from './definitions.ts';

export const DEMO_GROUPS = {
  admins: 'Administrators',
  tier1: 'Support Tier 1',
  tier2: 'Support Tier 2',
  billing: 'Billing',
  engineering: 'Engineering',
  success: 'Customer Success',
} as const;

export const demoWorkspace: WorkspaceFile = {
  groups: [
    { name: DEMO_GROUPS.admins, assignable: false, mentionable: true, managed: true },
    { name: DEMO_GROUPS.tier1, domains: [{ domain: 'example.com' }] },
    { name: DEMO_GROUPS.tier2 },
    { name: DEMO_GROUPS.billing },
    { name: DEMO_GROUPS.engineering },
    { name: DEMO_GROUPS.success, watchable: false },
  ],
  definitions: [
    {
      recordType: 'apps',
      alias: 'support-tickets',
      name: 'Support Tickets',
      handle: 'SUP',
      hostedFields: { handle: 'Ticket ID' },
      titleField: 'Title',
      groups: [DEMO_GROUPS.tier1, DEMO_GROUPS.tier2, DEMO_GROUPS.engineering, DEMO_GROUPS.success],
      fields: [
        { name: 'Title', type: 'TEXT', required: true },
        { name: 'Description', type: 'TEXT' },
        {
          name: 'Status',
          type: 'PICKLIST',
          required: true,
          values: ['New', 'Open', 'Pending', 'On Hold', 'Resolved', 'Closed'],
        },
        { name: 'Severity', type: 'PICKLIST', values: ['Low', 'Medium', 'High', 'Critical'] },
        { name: 'Priority', type: 'NUMBER' },
        { name: 'Assignee', type: 'USER_ID' },
        { name: 'Due Date', type: 'DATE' },
        { name: 'Customer', type: 'TEXT' },
        {
          name: 'Category',
          type: 'PICKLIST',
          values: ['Billing', 'Technical', 'Account', 'Feature Request', 'Bug', 'Other'],
        },
        { name: 'Resolved At', type: 'DATETIME' },
        {
          name: 'Tags',
          type: 'MULTI_PICKLIST',
          values: ['urgent', 'vip', 'regression', 'documentation', 'security', 'onboarding'],
        },
        { name: 'Billable', type: 'BOOLEAN' },
      ],
    },
    {
      recordType: 'elements',
      alias: 'customers',
      name: 'Customers',
      handle: 'CUS',
      hostedFields: { handle: 'Customer ID' },
      titleField: 'Name',
      groups: [DEMO_GROUPS.tier1, DEMO_GROUPS.tier2, DEMO_GROUPS.billing, DEMO_GROUPS.success],
      fields: [
        { name: 'Name', type: 'TEXT', required: true },
        { name: 'Domain', type: 'TEXT' },
        {
          name: 'Plan',
          type: 'PICKLIST',
          required: true,
          values: ['Free', 'Starter', 'Business', 'Enterprise'],
        },
        {
          name: 'Region',
          type: 'PICKLIST',
          values: ['North America', 'Europe', 'Asia Pacific', 'Latin America'],
        },
        { name: 'Account Manager', type: 'USER_ID' },
        { name: 'Seats', type: 'NUMBER' },
        { name: 'Customer Since', type: 'DATE' },
      ],
    },
    {
      recordType: 'tasks',
      alias: 'tasks',
      name: 'Tasks',
      handle: 'TSK',
      hostedFields: { handle: 'Task Key' },
      titleField: 'Title',
      groups: [DEMO_GROUPS.tier1, DEMO_GROUPS.tier2, DEMO_GROUPS.engineering],
      fields: [
        { name: 'Title', type: 'TEXT', required: true },
        {
          name: 'Status',
          type: 'PICKLIST',
          required: true,
          values: ['To Do', 'In Progress', 'Blocked', 'Done'],
        },
        { name: 'Assignee', type: 'USER_ID' },
        { name: 'Due Date', type: 'DATE' },
        { name: 'Estimate Hours', type: 'NUMBER' },
        { name: 'Notes', type: 'TEXT' },
      ],
    },
    {
      recordType: 'transactions',
      alias: 'refunds',
      name: 'Refunds',
      handle: 'REF',
      // No handle field: in the hosted profile refunds are listed but cannot be opened by handle.
      hostedFields: { handle: null },
      titleField: 'Reason',
      groups: [DEMO_GROUPS.billing],
      fields: [
        { name: 'Reason', type: 'TEXT', required: true },
        { name: 'Amount', type: 'NUMBER', required: true },
        { name: 'Currency', type: 'PICKLIST', required: true, values: ['USD', 'EUR', 'GBP'] },
        {
          name: 'Status',
          type: 'PICKLIST',
          required: true,
          values: ['Requested', 'Approved', 'Rejected', 'Paid'],
        },
        { name: 'Customer', type: 'TEXT' },
        { name: 'Approved By', type: 'USER_ID' },
        { name: 'Processed At', type: 'DATETIME' },
      ],
    },
  ],
};
