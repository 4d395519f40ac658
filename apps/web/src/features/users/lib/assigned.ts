import type { Definition } from '@wsc/api-client';
import { and, eq, outList, serialize } from '@wsc/rsql';

/** The field that names who works on a record, by convention of the workspace's definitions. */
export const ASSIGNEE_FIELD = 'Assignee';

/**
 * Status values that mean "finished". Workspaces name their end states differently (the demo's
 * tickets end in Resolved or Closed, its tasks in Done), and a definition says nothing about which
 * of its Status values are final, so the console recognises the usual names of end states. A
 * definition whose Status picklist has none of them has no closed state: all its records count
 * as open, which errs on the side of showing the administrator too much rather than too little.
 */
const CLOSED_STATE_NAMES = new Set([
  'resolved',
  'closed',
  'done',
  'completed',
  'complete',
  'cancelled',
  'canceled',
]);

/**
 * The definitions whose records can be assigned to a person: those with a USER_ID field named
 * Assignee, that the server can search.
 *
 * @example
 * assignableDefinitions(definitions).map((d) => d.handle); // ['SUP', 'TSK']
 */
export function assignableDefinitions(definitions: Definition[]): Definition[] {
  return definitions.filter(
    (definition) =>
      definition.listable !== false &&
      definition.fields.some((f) => f.name === ASSIGNEE_FIELD && f.type === 'USER_ID'),
  );
}

/**
 * The read-only date-time field that tells when a record last changed: `Updated At` in our API,
 * the tenant's own name in a hosted workspace description.
 *
 * @example
 * updatedField(tickets); // 'Updated At'
 */
export function updatedField(definition: Definition): string | undefined {
  const stamps = definition.fields.filter((f) => f.readOnly && f.type === 'DATETIME');
  return (stamps.find((f) => /updated|modified|changed/i.test(f.name)) ?? stamps.at(-1))?.name;
}

/**
 * The closed states of a definition: its Status picklist values that name an end state.
 *
 * @example
 * closedStates(tickets); // ['Resolved', 'Closed']
 */
export function closedStates(definition: Definition): string[] {
  const status = definition.fields.find((f) => f.name === 'Status' && f.type === 'PICKLIST');
  return (status?.values ?? []).filter((value) => CLOSED_STATE_NAMES.has(value.toLowerCase()));
}

/**
 * RSQL for the records assigned to a person; with `openOnly`, only those not in a closed state.
 * Built with the RSQL builder, so an email is always a value and never changes the filter.
 *
 * @example
 * assignedFilter(tickets, 'ada@example.com', true); // 'Assignee==ada@example.com;Status=out=(Resolved,Closed)'
 */
export function assignedFilter(definition: Definition, email: string, openOnly: boolean): string {
  const assignee = eq(ASSIGNEE_FIELD, email);
  const closed = closedStates(definition);
  if (!openOnly || closed.length === 0) return serialize(assignee);
  return serialize(and(assignee, outList('Status', closed)));
}
