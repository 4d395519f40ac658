import { queryOptions } from '@tanstack/react-query';

import { and, eq, ilike, or, serialize } from '@wsc/rsql';

import { api } from '@/lib/api.ts';

/**
 * Active users matching a search term (email, first or last name), for user pickers.
 *
 * @example
 * const { data } = useQuery(userSearchQueryOptions('ada'));
 */
export function userSearchQueryOptions(term: string) {
  const trimmed = term.trim();
  // Built with the RSQL builder, so whatever the user types stays a value and never changes the
  // filter's structure.
  const active = eq('status', 'ACTIVE');
  const filter = serialize(
    trimmed
      ? and(
          active,
          or(ilike('email', trimmed), ilike('firstName', trimmed), ilike('lastName', trimmed)),
        )
      : active,
  );
  return queryOptions({
    queryKey: ['users', 'search', trimmed],
    queryFn: ({ signal }) => api.listUsers({ filter, first: 20, signal }),
    staleTime: 60_000,
  });
}
