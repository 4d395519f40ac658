import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, Info } from 'lucide-react';
import { Suspense, useEffect, useRef, useState } from 'react';

import type { Capabilities, WorkspaceEntry } from '@wsc/api-client';

import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toast.tsx';

import type { EditorSession } from './definition-editor.tsx';
import { workspaceQueryOptions } from '../api/get-workspace.ts';
import { sampleDefinition } from '../api/sample-definition.ts';
import { mergeResample, toDraft } from '../lib/draft.ts';
import { entryKey } from '../lib/entries.ts';
import { DefinitionEditor } from './definition-editor.tsx';
import { DefinitionList } from './definition-list.tsx';
import { RemoveDefinitionDialog } from './remove-definition-dialog.tsx';
import { SAMPLE_FOCUS_KEY, SampleForm } from './sample-form.tsx';

/** Where focus goes when the editor closes: the button that opened it, or a heading. */
type FocusReturn = { focusKey: string } | { heading: 'list' };

function focusTarget(target: FocusReturn): HTMLElement | null {
  if ('heading' in target) return document.getElementById(`workspace-${target.heading}-heading`);
  const buttons = document.querySelectorAll<HTMLElement>('[data-focus-key]');
  return [...buttons].find((button) => button.dataset['focusKey'] === target.focusKey) ?? null;
}

/**
 * The region's description and everything done to it: the add form, the grouped list, the editor
 * (which takes the page's place while open, one task at a time) and the remove confirmation.
 */
function WorkspaceDescription({ onDescriptionChanged }: { onDescriptionChanged: () => void }) {
  const queryClient = useQueryClient();
  const { data: workspace } = useSuspenseQuery(workspaceQueryOptions());
  const [editor, setEditor] = useState<EditorSession | null>(null);
  const [removing, setRemoving] = useState<WorkspaceEntry | null>(null);
  const [focusReturn, setFocusReturn] = useState<FocusReturn | null>(null);
  const removed = useRef(false);
  // Each editor gets a fresh instance: its draft state must not leak from one opening to the next.
  const editorKey = useRef(0);

  useEffect(() => {
    if (editor || !focusReturn) return;
    focusTarget(focusReturn)?.focus();
    setFocusReturn(null);
  }, [editor, focusReturn]);

  const open = (session: EditorSession) => {
    editorKey.current += 1;
    setEditor(session);
  };
  const close = (target: FocusReturn) => {
    setEditor(null);
    setFocusReturn(target);
  };
  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: workspaceQueryOptions().queryKey });
    onDescriptionChanged();
  };

  const resample = useMutation({
    mutationFn: (entry: WorkspaceEntry) =>
      sampleDefinition({ recordType: entry.definition.recordType, alias: entry.definition.alias }),
    onSuccess: (result, entry) => {
      const { draft, changes } = mergeResample(entry.definition, result.definition);
      open({
        mode: 'resample',
        draft,
        changes,
        sample: {
          proposal: result.definition,
          notes: result.notes,
          sampled: result.sampled,
          total: result.total,
        },
      });
    },
  });
  const resampling = resample.isPending ? resample.variables : undefined;
  const resampleFailed = resample.isError ? resample.variables : undefined;

  if (editor) {
    const cancelTarget: FocusReturn =
      editor.mode === 'add'
        ? { focusKey: SAMPLE_FOCUS_KEY }
        : { focusKey: `${entryKey(editor.draft)}:${editor.mode === 'edit' ? 'edit' : 'resample'}` };
    return (
      <DefinitionEditor
        key={editorKey.current}
        session={editor}
        onCancel={() => close(cancelTarget)}
        onSaved={(entry) => {
          toast({
            message: `Saved ${entry.definition.name}. The console now shows its records with these fields.`,
          });
          changed();
          close({ heading: 'list' });
        }}
      />
    );
  }

  return (
    <>
      {workspace.editable ? (
        <SampleForm
          existing={workspace.items}
          onProposal={(_, result) => {
            resample.reset();
            open({
              mode: 'add',
              draft: toDraft(result.definition),
              sample: {
                proposal: result.definition,
                notes: result.notes,
                sampled: result.sampled,
                total: result.total,
              },
            });
          }}
        />
      ) : (
        <p
          className="bg-muted/40 flex items-start gap-2 rounded-lg border p-4 text-sm"
          data-testid="workspace-read-only"
        >
          <Info aria-hidden="true" className="text-muted-foreground mt-0.5 size-4 shrink-0" />
          <span>
            You can read this description but not change it.{' '}
            {workspace.reason ?? 'Ask an administrator to add or correct record types.'}
          </span>
        </p>
      )}

      <section aria-labelledby="workspace-list-heading" className="grid gap-4">
        <h2
          id="workspace-list-heading"
          tabIndex={-1}
          className="text-base font-semibold outline-none"
        >
          Described record types
        </h2>
        <DefinitionList
          items={workspace.items}
          editable={workspace.editable}
          resampling={resampling && entryKey(resampling.definition)}
          resampleError={
            resampleFailed && { key: entryKey(resampleFailed.definition), error: resample.error }
          }
          onEdit={(entry) => {
            resample.reset();
            open({ mode: 'edit', draft: toDraft(entry.definition) });
          }}
          onResample={(entry) => resample.mutate(entry)}
          onRemove={(entry) => {
            removed.current = false;
            setRemoving(entry);
          }}
        />
      </section>

      <RemoveDefinitionDialog
        entry={removing}
        onOpenChange={(isOpen) => !isOpen && setRemoving(null)}
        onRemoved={(entry) => {
          removed.current = true;
          toast({ message: `Removed ${entry.definition.name} from the description.` });
          changed();
          setRemoving(null);
        }}
        onCloseAutoFocus={(event) => {
          // The Remove button that opened the dialog is gone with its entry.
          if (!removed.current) return;
          event.preventDefault();
          document.getElementById('workspace-list-heading')?.focus();
        }}
      />
    </>
  );
}

/**
 * The Workspace setup page. Against the hosted service, whose API does not describe its record
 * types, the administrator describes them here (sample, correct, save); against our own API the
 * definitions come from the API, so the page only says so.
 *
 * @example
 * <WorkspaceSetup
 *   definitions={session.capabilities.definitions}
 *   region={session.region}
 *   onDescriptionChanged={() => queryClient.invalidateQueries({ queryKey: definitionsQueryOptions().queryKey })}
 * />
 */
export function WorkspaceSetup({
  definitions,
  region,
  onDescriptionChanged,
}: {
  definitions: Capabilities['definitions'];
  region?: string;
  /** After a save or removal: the caller refreshes what reads the definitions (the sidebar). */
  onDescriptionChanged: () => void;
}) {
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className="mx-auto grid w-full max-w-5xl gap-6 p-6">
        <header className="grid gap-2">
          <h1 className="text-xl font-semibold tracking-tight">Workspace setup</h1>
          {definitions === 'upstream' ? (
            <div className="grid justify-items-start gap-3" data-testid="workspace-upstream">
              <p className="text-muted-foreground max-w-prose text-sm">
                In this region the workspace API describes its own record types and fields, and the
                console reads them from it. There is nothing to set up here.
              </p>
              <Link
                to="/"
                className="text-primary inline-flex items-center gap-1.5 text-sm font-medium underline-offset-4 hover:underline"
              >
                <ArrowLeft aria-hidden="true" className="size-4" />
                Back to the overview
              </Link>
            </div>
          ) : (
            <p className="text-muted-foreground max-w-prose text-sm">
              The hosted service does not describe its record types, so the console keeps a
              description of them{region ? ` for the ${region} region` : ''}: which fields each one
              has and their types, which field is a record&apos;s title, and where its handle is.
            </p>
          )}
        </header>
        {definitions === 'workspace' && (
          <Suspense
            fallback={
              <div
                className="grid gap-3"
                role="status"
                aria-busy="true"
                aria-label="Loading the description"
              >
                <Skeleton className="h-28 w-full" />
                <Skeleton className="h-24 w-full" />
                <Skeleton className="h-24 w-full" />
              </div>
            }
          >
            <WorkspaceDescription onDescriptionChanged={onDescriptionChanged} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
