import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';

import { definitionsQueryOptions } from '@/features/definitions/api/get-definitions.ts';
import { DefinitionCards } from '@/features/definitions/components/definition-nav.tsx';

export const Route = createFileRoute('/_auth/')({
  head: () => ({ meta: [{ title: 'Overview · Workspace Console' }] }),
  component: Overview,
});

function Overview() {
  const { session } = Route.useRouteContext();
  const definitions = useSuspenseQuery(definitionsQueryOptions()).data.items;
  return (
    <div className="mx-auto w-full max-w-5xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold tracking-tight">Welcome, {session.user.firstName}</h1>
      <p className="text-muted-foreground mt-1 mb-6 text-sm">
        Pick a record type to browse, filter and edit.
      </p>
      {definitions.length === 0 ? (
        <p className="text-muted-foreground rounded-lg border border-dashed p-8 text-center text-sm">
          No record types are shared with you yet. Ask an administrator to add you to a group.
        </p>
      ) : (
        <DefinitionCards definitions={definitions} />
      )}
    </div>
  );
}
