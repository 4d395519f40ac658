import { z } from 'zod';

import type { Node } from '@wsc/rsql';
import { and, ilike, or, parse, serialize } from '@wsc/rsql';

import type { FilterField } from '@/components/filter-builder/filter-field.ts';

/** The user fields the API filters on, for the filter builder. */
export const USER_FILTER_FIELDS: FilterField[] = [
  { name: 'email', label: 'Email', type: 'TEXT' },
  { name: 'firstName', label: 'First name', type: 'TEXT' },
  { name: 'lastName', label: 'Last name', type: 'TEXT' },
  { name: 'jobTitle', label: 'Job title', type: 'TEXT' },
  { name: 'status', label: 'Status', type: 'PICKLIST', values: ['ACTIVE', 'INACTIVE'] },
];

/**
 * The users list's URL state; each key falls back rather than failing, so a mangled link still
 * opens the list.
 *
 * - `q`: the search box (email, names, job title; any case).
 * - `filter`: RSQL from the filter builder, as the API takes it.
 */
export const UsersSearchSchema = z.object({
  q: z.string().max(200).optional().catch(undefined),
  filter: z.string().max(4096).optional().catch(undefined),
});
export type UsersSearch = z.infer<typeof UsersSearchSchema>;

/**
 * The search box as RSQL: the term in any of the text fields, any case.
 *
 * @example
 * searchNode('ada'); // email=lki=ada,firstName=lki=ada,lastName=lki=ada,jobTitle=lki=ada
 */
export function searchNode(term: string): Node | null {
  const trimmed = term.trim();
  if (!trimmed) return null;
  return or(
    ilike('email', trimmed),
    ilike('firstName', trimmed),
    ilike('lastName', trimmed),
    ilike('jobTitle', trimmed),
  );
}

/**
 * The one filter the API gets: the search box AND the builder's filter. A filter that does not
 * parse is sent as it is, so that the API's 400 (with its position) is what the user sees.
 *
 * @example
 * usersFilter({ q: 'ada', filter: 'status==ACTIVE' });
 * // '(email=lki=ada,firstName=lki=ada,lastName=lki=ada,jobTitle=lki=ada);status==ACTIVE'
 */
export function usersFilter(search: UsersSearch): string {
  const text = searchNode(search.q ?? '');
  const filter = search.filter?.trim() ?? '';
  if (!text) return filter;
  if (!filter) return serialize(text);
  try {
    return serialize(and(text, parse(filter)));
  } catch {
    return filter;
  }
}
