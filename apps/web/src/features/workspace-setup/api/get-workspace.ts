import { queryOptions } from '@tanstack/react-query';

import { bff } from '@/lib/bff.ts';

/**
 * `GET /bff/workspace`: the region's workspace description as the setup page shows it (every
 * definition with its source, and whether this session may change it). Only offered in the
 * hosted profile: the extended profile answers 409, so callers ask only when the session's
 * `capabilities.definitions` is `workspace`.
 *
 * @example
 * const { data: workspace } = useSuspenseQuery(workspaceQueryOptions());
 */
export function workspaceQueryOptions() {
  return queryOptions({
    queryKey: ['workspace'],
    queryFn: ({ signal }) => bff.workspace.get({ signal }),
  });
}
