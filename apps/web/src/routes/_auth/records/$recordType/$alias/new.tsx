import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet.tsx';
import { RecordCreator } from '@/features/records/components/record-editor.tsx';
import { definitionsQueryOptions, findDefinition } from '@/queries/definitions.ts';

export const Route = createFileRoute('/_auth/records/$recordType/$alias/new')({
  head: () => ({ meta: [{ title: 'New record · Workspace Console' }] }),
  component: NewRecordPanel,
});

function NewRecordPanel() {
  const { recordType, alias } = Route.useParams();
  const navigate = useNavigate({ from: Route.fullPath });
  const definitions = useSuspenseQuery(definitionsQueryOptions()).data.items;
  const definition = findDefinition(definitions, recordType, alias);
  const close = () =>
    void navigate({
      to: '/records/$recordType/$alias',
      params: { recordType, alias },
      search: (prev) => prev,
    });

  return (
    <Sheet open onOpenChange={(open) => !open && close()}>
      <SheetContent className="sm:max-w-xl">
        <SheetHeader>
          <SheetTitle>New {definition?.name ?? 'record'}</SheetTitle>
          <SheetDescription>Fill in the fields and create the record.</SheetDescription>
        </SheetHeader>
        {definition ? (
          <RecordCreator
            definition={definition}
            onClose={close}
            onCreated={(id) =>
              void navigate({
                to: '/records/$recordType/$alias/$id',
                params: { recordType, alias, id },
                search: (prev) => prev,
                replace: true,
              })
            }
          />
        ) : (
          <ErrorPanel error={new Error('This record type is not shared with you.')} />
        )}
      </SheetContent>
    </Sheet>
  );
}
