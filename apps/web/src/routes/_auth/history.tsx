import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { z } from 'zod';

import { RecordTypeSchema } from '@wsc/api-client';

import type { HistoryFilters } from '@/features/history/api/history.ts';
import { isAdministrator } from '@/features/auth/api/session.ts';
import { HistoryLog } from '@/features/history/components/history-log.tsx';

import { RouteError } from '../-components/route-error.tsx';

const text = z.string().min(1).max(200).optional().catch(undefined);

/** The log's filters live in the URL, so a filtered view can be shared and reloaded. */
const HistorySearchSchema = z.object({
  user: text,
  recordType: RecordTypeSchema.optional().catch(undefined),
  alias: text,
  from: z.iso.datetime().optional().catch(undefined),
  to: z.iso.datetime().optional().catch(undefined),
});

export const Route = createFileRoute('/_auth/history')({
  validateSearch: HistorySearchSchema,
  head: () => ({ meta: [{ title: 'History · Workspace Console' }] }),
  errorComponent: RouteError,
  component: HistoryPage,
});

function HistoryPage() {
  const { session } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const onFiltersChange = useCallback(
    (filters: HistoryFilters) => void navigate({ search: filters }),
    [navigate],
  );
  return (
    <>
      <div className="flex items-center gap-3 px-6 pt-4 pb-2">
        <h1 className="text-lg font-semibold tracking-tight">History</h1>
      </div>
      {isAdministrator(session.user) ? (
        <HistoryLog filters={search} onFiltersChange={onFiltersChange} />
      ) : (
        <p className="text-muted-foreground px-6 text-sm">
          Only administrators can read the whole history. A record&apos;s own changes are on its
          History tab.
        </p>
      )}
    </>
  );
}
