import { queryOptions } from '@tanstack/react-query';

import { api } from '@/lib/api.ts';

/**
 * Quotes a value for RSQL so that user input can never change the filter's structure.
 *
 * @example
 * rsqlQuote("O'Brien"); // "'O\\'Brien'"
 */
export function rsqlQuote(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * Active users matching a search term (email, first or last name), for user pickers.
 *
 * @example
 * const { data } = useQuery(userSearchQueryOptions('ada'));
 */
export function userSearchQueryOptions(term: string) {
  const trimmed = term.trim();
  const like = rsqlQuote(trimmed);
  const filter = trimmed
    ? `status==ACTIVE;(email=lki=${like},firstName=lki=${like},lastName=lki=${like})`
    : 'status==ACTIVE';
  return queryOptions({
    queryKey: ['users', 'search', trimmed],
    queryFn: ({ signal }) => api.listUsers({ filter, first: 20, signal }),
    staleTime: 60_000,
  });
}
