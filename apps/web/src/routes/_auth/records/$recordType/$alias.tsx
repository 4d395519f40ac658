import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import {
  createFileRoute,
  Link,
  notFound,
  Outlet,
  redirect,
  useNavigate,
  useParams,
  useRouter,
} from '@tanstack/react-router';
import { ChevronRight, ListChecks } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';

import type { RecordType } from '@wsc/api-client';
import { RecordTypeSchema } from '@wsc/api-client';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { buttonVariants } from '@/components/ui/button.tsx';
import { BulkBar } from '@/features/bulk-changes/components/bulk-bar.tsx';
import { RecentBulkRuns } from '@/features/bulk-changes/components/recent-bulk-runs.tsx';
import { OpenByHandle } from '@/features/records/components/open-by-handle.tsx';
import { RecordsView } from '@/features/records/components/records-view.tsx';
import { RecordListSearchSchema } from '@/features/records/lib/search-params.ts';
import { ViewControls } from '@/features/saved-views/components/view-controls.tsx';
import { usePageActions } from '@/lib/page-actions.ts';
import { savedViewsQueryOptions, viewSearch } from '@/lib/saved-views.ts';
import { useLiveEvents } from '@/lib/use-live-presence.ts';
import { warmDateInputs } from '@/lib/warm-date-inputs.ts';
import { whenIdle } from '@/lib/when-idle.ts';
import {
  definitionsQueryOptions,
  findDefinition,
  RECORD_TYPE_LABELS,
} from '@/queries/definitions.ts';
import {
  recordCountQueryOptions,
  recordKeys,
  recordQueryOptions,
  recordSearchQueryOptions,
} from '@/queries/records.ts';
import { requestFilter } from '@/queries/request-filter.ts';

import { RouteError } from '../../../-components/route-error.tsx';
import { keepHandedFirstPage, startFirstPageEarly } from './$alias/-components/first-page.ts';

export const Route = createFileRoute('/_auth/records/$recordType/$alias')({
  params: {
    parse: (raw) => {
      const recordType = RecordTypeSchema.safeParse(raw.recordType);
      if (!recordType.success) throw notFound();
      return { recordType: recordType.data, alias: raw.alias };
    },
    stringify: (params) => params,
  },
  validateSearch: RecordListSearchSchema,
  // Entering a definition's plain list opens the user's default view for it, if they have one.
  // Only on entering (not when the list is cleared in place), and never blocking on the BFF.
  beforeLoad: async ({ context, params, search, cause }) => {
    // Right after sign-in, the first page it brought along (issue 27): no request of its own.
    keepHandedFirstPage(context.queryClient, context.session.capabilities);
    if (cause !== 'enter' || Object.values(search).some((v) => v !== undefined)) return;
    // The plain first page travels alongside the views rather than after them (after sign-in
    // both are on their way at once); it is wasted only when a default view redirects.
    startFirstPageEarly(context.queryClient, context.session.capabilities, params, {
      filter: undefined,
      sort: undefined,
      cursor: undefined,
    });
    const views = await context.queryClient
      .ensureQueryData(savedViewsQueryOptions())
      .catch(() => []);
    const preferred = views.find(
      (v) => v.isDefault && v.recordType === params.recordType && v.alias === params.alias,
    );
    if (preferred) {
      throw redirect({
        to: '/records/$recordType/$alias',
        params,
        search: viewSearch(preferred),
        replace: true,
      });
    }
  },
  loaderDeps: ({ search }) => ({ filter: search.filter, sort: search.sort, cursor: search.cursor }),
  loader: async ({ context, params, deps }) => {
    const { queryClient, session } = context;
    // Warm the first page while the route chunk renders; the view reads the same cache entry.
    // With the definitions not loaded yet (a page load), ask for the page alongside them.
    const early = startFirstPageEarly(queryClient, session.capabilities, params, deps);
    const { items } = await queryClient.ensureQueryData(definitionsQueryOptions());
    const definition = findDefinition(items, params.recordType, params.alias);
    if (!early && definition && definition.listable !== false) {
      void queryClient.prefetchInfiniteQuery(
        recordSearchQueryOptions(
          params.recordType,
          params.alias,
          deps,
          session.capabilities.sort,
          definition.fields,
        ),
      );
    }
    return { title: definition?.name ?? 'Records' };
  },
  head: ({ loaderData }) => ({
    meta: [{ title: `${loaderData?.title ?? 'Records'} · Workspace Console` }],
  }),
  errorComponent: RouteError,
  component: RecordsPage,
});

function RecordsPage() {
  const { recordType, alias } = Route.useParams();
  const search = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const queryClient = useQueryClient();
  const router = useRouter();
  const definitions = useSuspenseQuery(definitionsQueryOptions()).data.items;
  const definition = findDefinition(definitions, recordType, alias);
  // The record panel's code arrives while the list sits idle, and the browser builds its date
  // inputs' editors then, so the first record opened from it shows as fast as the next (its data
  // comes from the row or the hover's read).
  useEffect(
    () =>
      whenIdle(() => {
        void router.loadRouteChunk(router.routesById['/_auth/records/$recordType/$alias/$id']);
        warmDateInputs();
      }),
    [router],
  );
  // The child route's `$id` param, when a record is open in the side panel.
  const activeId = useParams({ strict: false }).id;
  // Bulk selection: checked ids of loaded rows, or "all matching" (the filter decides, not ids).
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [allMatching, setAllMatching] = useState(false);
  const clearSelection = useCallback(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, []);
  useEffect(clearSelection, [search.filter, recordType, alias, clearSelection]);
  const listable = definition?.listable !== false;
  // Presence on the rows and in the record panel: the stream lives while the list is shown.
  useLiveEvents();
  // What the command palette offers on this page.
  usePageActions(
    useMemo(
      () => [
        {
          id: 'new-record',
          label: 'New record',
          run: () =>
            void navigate({
              to: '/records/$recordType/$alias/new',
              params: { recordType, alias },
              search: (prev) => prev,
            }),
        },
        // Triage works a list: none for what the service cannot list (hosted elements).
        ...(listable
          ? [
              {
                id: 'enter-triage',
                label: 'Enter triage',
                run: () =>
                  void navigate({
                    to: '/records/$recordType/$alias/triage',
                    params: { recordType, alias },
                    search: { filter: search.filter, sort: search.sort, view: search.view },
                  }),
              },
            ]
          : []),
        ...(search.filter
          ? [
              {
                id: 'clear-filter',
                label: 'Clear filter',
                run: () =>
                  void navigate({
                    search: (prev) => ({ ...prev, filter: undefined, cursor: undefined }),
                  }),
              },
            ]
          : []),
      ],
      [navigate, recordType, alias, listable, search.filter, search.sort, search.view],
    ),
  );

  if (!definition) return <UnknownDefinition recordType={recordType} alias={alias} />;
  // The hosted API cannot list elements (`GET /elements/{alias}` is getElement there): they open
  // by handle, and the open record's panel (the child route) still renders below.
  if (definition.listable === false) {
    return (
      <>
        <OpenByHandle
          definition={definition}
          onOpen={(id) =>
            void navigate({
              to: '/records/$recordType/$alias/$id',
              params: { recordType, alias, id },
              search: (prev) => prev,
            })
          }
        />
        <Outlet />
      </>
    );
  }

  return (
    <>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 px-6 pt-4 pb-2">
        <nav
          aria-label="Breadcrumb"
          className="text-muted-foreground flex items-center gap-1 text-sm"
        >
          <Link to="/" className="hover:text-foreground">
            {RECORD_TYPE_LABELS[recordType]}
          </Link>
          <ChevronRight className="size-3.5" aria-hidden="true" />
        </nav>
        <h1 className="text-lg font-semibold tracking-tight whitespace-nowrap">
          {definition.name}
        </h1>
        <span className="bg-secondary text-secondary-foreground rounded px-1.5 py-0.5 font-mono text-xs">
          {definition.handle}
        </span>
        <div className="ml-auto flex flex-wrap items-center justify-end gap-2">
          <ViewControls
            recordType={recordType}
            alias={alias}
            search={search}
            onViewChange={(view) => void navigate({ search: (prev) => ({ ...prev, view }) })}
          />
          <Link
            to="/records/$recordType/$alias/triage"
            params={{ recordType, alias }}
            search={{ filter: search.filter, sort: search.sort, view: search.view }}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            <ListChecks aria-hidden="true" /> Triage
          </Link>
          <RecentBulkRuns
            definition={definition}
            onApplied={() => {
              void queryClient.invalidateQueries({ queryKey: recordKeys.lists(recordType, alias) });
              void queryClient.invalidateQueries({
                queryKey: recordKeys.details(recordType, alias),
              });
            }}
          />
        </div>
      </div>
      <RecordsView
        definition={definition}
        search={search}
        onSearchChange={(patch) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })}
        onOpen={(id) =>
          void navigate({
            to: '/records/$recordType/$alias/$id',
            params: { recordType, alias, id },
            search: (prev) => prev,
          })
        }
        // A row the pointer rests on is read before the click: the panel opens from the row at
        // once either way, and the full record is then usually there too.
        onIntent={(id) => void queryClient.prefetchQuery(recordQueryOptions(recordType, alias, id))}
        onCreate={() =>
          void navigate({
            to: '/records/$recordType/$alias/new',
            params: { recordType, alias },
            search: (prev) => prev,
          })
        }
        recordHref={(id) =>
          `/records/${encodeURIComponent(recordType)}/${encodeURIComponent(alias)}/${encodeURIComponent(id)}${window.location.search}`
        }
        activeId={activeId}
        selection={{
          selected,
          onToggle: (id) => {
            setAllMatching(false);
            setSelected((current) => {
              const next = new Set(current);
              if (next.has(id)) next.delete(id);
              else next.add(id);
              return next;
            });
          },
          onToggleAll: (ids) => {
            setAllMatching(false);
            setSelected((current) =>
              ids.length > 0 && ids.every((id) => current.has(id)) ? new Set() : new Set(ids),
            );
          },
        }}
        renderSelectionBar={({ rows, total }) => (
          <BulkBar
            definition={definition}
            rows={rows}
            selected={selected}
            allMatching={allMatching}
            total={total}
            // "All matching" runs on the dates the filter means now (relative dates resolved).
            filter={requestFilter(search.filter, definition.fields)}
            onSelectAllMatching={() => setAllMatching(true)}
            onClear={clearSelection}
            onApplied={() => {
              clearSelection();
              void queryClient.invalidateQueries({ queryKey: recordKeys.lists(recordType, alias) });
              void queryClient.invalidateQueries({
                queryKey: recordKeys.details(recordType, alias),
              });
            }}
          />
        )}
      />
      <Outlet />
    </>
  );
}

/**
 * A definition missing from the caller's list: ask the API, so that "no access" (403) and
 * "does not exist" (404) are told apart rather than guessed.
 */
function UnknownDefinition({ recordType, alias }: { recordType: RecordType; alias: string }) {
  const probe = useQuery({ ...recordCountQueryOptions(recordType, alias), retry: false });
  if (probe.isPending) return null;
  if (probe.isError) return <ErrorPanel error={probe.error} className="flex-1" />;
  return (
    <ErrorPanel
      className="flex-1"
      error={new Error(`No definition named ${alias} is shared with you.`)}
    />
  );
}
