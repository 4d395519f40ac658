import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { EditingGuard } from '@/components/live/editing-guard.tsx';
import { PresenceNotice } from '@/components/live/presence-notice.tsx';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { RecordEditor } from '@/features/records/components/record-editor.tsx';
import { useAnnounceViewing, usePresence } from '@/lib/use-live-presence.ts';
import { definitionsQueryOptions, findDefinition } from '@/queries/definitions.ts';
import { recordFromLists } from '@/queries/record-seed.ts';
import { recordQueryOptions } from '@/queries/records.ts';

import { RouteError } from '../../../../-components/route-error.tsx';
import { escapeBelongsOutside } from './-components/panel-escape.ts';
import { RecordPanelSearchSchema } from './-components/record-panel-search.ts';
import { RecordTabs } from './-components/record-tabs.tsx';
import { UnsavedChangesGuard } from './-components/unsaved-changes-guard.tsx';

// The open record lives in the URL (a child of the list, so the list's search params stay too):
// reload, Back/Forward and shared links reopen it over the same list view.
export const Route = createFileRoute('/_auth/records/$recordType/$alias/$id')({
  // The open tab is part of the view: `?tab=comments` reopens the record on its comments.
  validateSearch: RecordPanelSearchSchema,
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(
      recordQueryOptions(params.recordType, params.alias, params.id),
    );
  },
  head: ({ params }) => ({ meta: [{ title: `${params.id} · Workspace Console` }] }),
  errorComponent: RouteError,
  component: RecordPanel,
});

function RecordPanel() {
  const { recordType, alias, id } = Route.useParams();
  const { tab } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  const definitions = useSuspenseQuery(definitionsQueryOptions()).data.items;
  const definition = findDefinition(definitions, recordType, alias);
  const queryClient = useQueryClient();
  // Opens at once from the list's row when a list holds it; the record is read behind it.
  const record = useQuery({
    ...recordQueryOptions(recordType, alias, id),
    placeholderData: () => (definition ? recordFromLists(queryClient, definition, id) : undefined),
  });
  // The others see this tab has the record open; this tab sees who else has (the list route
  // keeps the event stream open).
  useAnnounceViewing({ recordType, alias, recordId: id });
  const others = usePresence(recordType, alias, id);
  const close = () =>
    void navigate({
      to: '/records/$recordType/$alias',
      params: { recordType, alias },
      // The tab belongs to the open record; the list's own params stay.
      search: ({ tab: _tab, ...prev }) => prev,
    });
  // Whether the editor holds unsaved changes: leaving the record asks first.
  const [dirty, setDirty] = useState(false);
  const title = definition?.titleField ? record.data?.record[definition.titleField] : undefined;

  return (
    // Not modal (ADR 0033): the list beside it stays live, so a click on another row opens that
    // record in place. Clicks and focus outside leave it open; Escape and Close close it.
    <Sheet open modal={false} onOpenChange={(open) => !open && close()}>
      <SheetContent
        className="sm:max-w-xl"
        onInteractOutside={(event) => event.preventDefault()}
        onEscapeKeyDown={(event) => {
          if (escapeBelongsOutside(event.target)) event.preventDefault();
        }}
      >
        <SheetHeader>
          <SheetTitle className="flex min-w-0 items-center gap-2">
            <span className="bg-secondary text-secondary-foreground shrink-0 rounded px-1.5 py-0.5 font-mono text-xs">
              {id}
            </span>
            {record.isPending ? (
              <Skeleton className="h-4 w-48" />
            ) : (
              <span className="truncate">{title}</span>
            )}
          </SheetTitle>
          <SheetDescription>{definition?.name ?? 'Record'}</SheetDescription>
          <PresenceNotice entries={others} />
        </SheetHeader>
        <UnsavedChangesGuard dirty={dirty} id={id} />
        {!definition ? (
          <ErrorPanel error={new Error('This record type is not shared with you.')} />
        ) : record.isPending ? (
          <PanelSkeleton />
        ) : record.isError ? (
          <ErrorPanel error={record.error} onRetry={() => void record.refetch()} />
        ) : (
          <RecordTabs
            key={id}
            tab={tab ?? 'details'}
            onTabChange={(next) =>
              void navigate({
                search: (prev) => ({ ...prev, tab: next === 'details' ? undefined : next }),
                replace: true,
              })
            }
            record={{ recordType, alias, id }}
            definitions={definitions}
            details={
              <EditingGuard others={others}>
                <RecordEditor
                  definition={definition}
                  id={id}
                  onClose={close}
                  onDirtyChange={setDirty}
                />
              </EditingGuard>
            }
          />
        )}
      </SheetContent>
    </Sheet>
  );
}

function PanelSkeleton() {
  return (
    <div className="grid gap-5 px-6 py-5" aria-busy="true">
      {Array.from({ length: 7 }, (_, i) => (
        <div key={i} className="grid gap-2">
          <Skeleton className="h-3.5 w-24" />
          <Skeleton className="h-9 w-full" />
        </div>
      ))}
    </div>
  );
}
