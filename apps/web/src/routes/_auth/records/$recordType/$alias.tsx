import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import {
  createFileRoute,
  Link,
  notFound,
  Outlet,
  useNavigate,
  useParams,
} from '@tanstack/react-router';
import { ChevronRight } from 'lucide-react';

import type { RecordType } from '@wsc/api-client';
import { RecordTypeSchema } from '@wsc/api-client';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import {
  definitionsQueryOptions,
  findDefinition,
  RECORD_TYPE_LABELS,
  recordCountQueryOptions,
} from '@/features/definitions/api/get-definitions.ts';
import { recordSearchQueryOptions } from '@/features/records/api/records.ts';
import { RecordsView } from '@/features/records/components/records-view.tsx';
import { RecordListSearchSchema } from '@/features/records/lib/search-params.ts';

import { RouteError } from '../../../-components/route-error.tsx';

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
  loaderDeps: ({ search }) => ({ filter: search.filter, sort: search.sort, cursor: search.cursor }),
  loader: async ({ context, params, deps }) => {
    const { items } = await context.queryClient.ensureQueryData(definitionsQueryOptions());
    const definition = findDefinition(items, params.recordType, params.alias);
    // Warm the first page while the route chunk renders; the view reads the same cache entry.
    if (definition) {
      void context.queryClient.prefetchInfiniteQuery(
        recordSearchQueryOptions(params.recordType, params.alias, deps),
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
  const definitions = useSuspenseQuery(definitionsQueryOptions()).data.items;
  const definition = findDefinition(definitions, recordType, alias);
  // The child route's `$id` param, when a record is open in the side panel.
  const activeId = useParams({ strict: false }).id;

  if (!definition) return <UnknownDefinition recordType={recordType} alias={alias} />;

  return (
    <>
      <div className="flex items-center gap-3 px-6 pt-4 pb-2">
        <nav
          aria-label="Breadcrumb"
          className="text-muted-foreground flex items-center gap-1 text-sm"
        >
          <Link to="/" className="hover:text-foreground">
            {RECORD_TYPE_LABELS[recordType]}
          </Link>
          <ChevronRight className="size-3.5" aria-hidden="true" />
        </nav>
        <h1 className="text-lg font-semibold tracking-tight">{definition.name}</h1>
        <span className="bg-secondary text-secondary-foreground rounded px-1.5 py-0.5 font-mono text-xs">
          {definition.handle}
        </span>
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
