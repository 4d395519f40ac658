import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Link, notFound, useNavigate } from '@tanstack/react-router';
import { ChevronRight, X } from 'lucide-react';
import { useCallback } from 'react';
import { z } from 'zod';

import { RecordTypeSchema } from '@wsc/api-client';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { buttonVariants } from '@/components/ui/button.tsx';
import { triageQueueQueryOptions } from '@/features/triage/api/triage-queries.ts';
import { TriageView } from '@/features/triage/components/triage-view.tsx';
import { definitionsQueryOptions, findDefinition } from '@/queries/definitions.ts';

import { RouteError } from '../../../-components/route-error.tsx';

/** Triage's URL state: the list's filter and sort, the current record, and the saved view. */
const TriageSearchSchema = z.object({
  filter: z.string().max(4096).optional().catch(undefined),
  sort: z.string().max(1024).optional().catch(undefined),
  id: z.string().max(64).optional().catch(undefined),
  view: z.string().max(64).optional().catch(undefined),
});

// Not nested in the list route (`$alias_`): triage replaces the table rather than sitting on it.
export const Route = createFileRoute('/_auth/records/$recordType/$alias_/triage')({
  params: {
    parse: (raw) => {
      const recordType = RecordTypeSchema.safeParse(raw.recordType);
      if (!recordType.success) throw notFound();
      return { recordType: recordType.data, alias: raw.alias };
    },
    stringify: (params) => params,
  },
  validateSearch: TriageSearchSchema,
  loaderDeps: ({ search }) => ({ filter: search.filter, sort: search.sort }),
  loader: async ({ context, params, deps }) => {
    const { items } = await context.queryClient.ensureQueryData(definitionsQueryOptions());
    const definition = findDefinition(items, params.recordType, params.alias);
    if (definition && definition.listable !== false) {
      void context.queryClient.prefetchInfiniteQuery(
        triageQueueQueryOptions({
          ...params,
          ...deps,
          serverSort: context.session.capabilities.sort,
          fields: definition.fields,
        }),
      );
    }
    return { title: definition?.name ?? 'Records' };
  },
  head: ({ loaderData }) => ({
    meta: [{ title: `Triage · ${loaderData?.title ?? 'Records'} · Workspace Console` }],
  }),
  errorComponent: RouteError,
  component: TriagePage,
});

function TriagePage() {
  const { recordType, alias } = Route.useParams();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const definition = findDefinition(
    useSuspenseQuery(definitionsQueryOptions()).data.items,
    recordType,
    alias,
  );
  // Moving through the queue replaces the entry: Back leaves triage instead of replaying j/k.
  const onCurrentChange = useCallback(
    (id: string) => void navigate({ search: (prev) => ({ ...prev, id }), replace: true }),
    [navigate],
  );
  const listSearch = { filter: search.filter, sort: search.sort, view: search.view };

  if (!definition) {
    return (
      <ErrorPanel
        className="flex-1"
        error={new Error(`No definition named ${alias} is shared with you.`)}
      />
    );
  }
  if (definition.listable === false) {
    // The hosted API cannot list elements (`GET /elements/{alias}` is getElement): no queue.
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-3 p-10 text-center">
        <h1 className="text-base font-semibold">{definition.name} cannot be triaged here</h1>
        <p className="text-muted-foreground max-w-lg text-sm">
          The service&apos;s published API has no way to list {definition.name.toLowerCase()}, so
          there is no queue to work through. Open them one at a time by their handle.
        </p>
        <Link
          to="/records/$recordType/$alias"
          params={{ recordType, alias }}
          search={{}}
          className={buttonVariants({ variant: 'outline', size: 'sm' })}
        >
          Open by handle
        </Link>
      </div>
    );
  }
  return (
    <>
      <div className="flex items-center gap-3 px-6 pt-4 pb-2">
        <nav
          aria-label="Breadcrumb"
          className="text-muted-foreground flex items-center gap-1 text-sm"
        >
          <Link
            to="/records/$recordType/$alias"
            params={{ recordType, alias }}
            search={listSearch}
            className="hover:text-foreground"
          >
            {definition.name}
          </Link>
          <ChevronRight className="size-3.5" aria-hidden="true" />
        </nav>
        <h1 className="text-lg font-semibold tracking-tight">Triage</h1>
      </div>
      <TriageView
        definition={definition}
        filter={search.filter}
        sort={search.sort}
        currentId={search.id}
        onCurrentChange={onCurrentChange}
        actions={
          <Link
            to="/records/$recordType/$alias"
            params={{ recordType, alias }}
            search={listSearch}
            className={buttonVariants({ variant: 'ghost', size: 'sm' })}
          >
            <X aria-hidden="true" /> Exit triage
          </Link>
        }
      />
    </>
  );
}
