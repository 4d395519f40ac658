import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';

import type { HistoryFilters } from '@/features/history/api/history.ts';
import { isAdministrator } from '@/features/auth/api/session.ts';
import { HistoryLog } from '@/features/history/components/history-log.tsx';

import { RouteError } from '../-components/route-error.tsx';

// No search params: the route's config is in the first load, and the filters need no link to
// share; they live in the page (the BFF checks each, and the page shows its 400 naming the field).
export const Route = createFileRoute('/_auth/history')({
  head: () => ({ meta: [{ title: 'History · Workspace Console' }] }),
  errorComponent: RouteError,
  component: HistoryPage,
});

function HistoryPage() {
  const { session } = Route.useRouteContext();
  const [filters, setFilters] = useState<HistoryFilters>({});
  return (
    <>
      <div className="flex items-center gap-3 px-6 pt-4 pb-2">
        <h1 className="text-lg font-semibold tracking-tight">History</h1>
      </div>
      {isAdministrator(session.user) ? (
        <HistoryLog filters={filters} onFiltersChange={setFilters} />
      ) : (
        <p className="text-muted-foreground px-6 text-sm">
          Only administrators can read the whole history. A record&apos;s own changes are on its
          History tab.
        </p>
      )}
    </>
  );
}
