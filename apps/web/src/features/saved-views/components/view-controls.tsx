import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Bookmark,
  BookmarkPlus,
  ChevronDown,
  Copy,
  Link2,
  Pencil,
  Save,
  Star,
  Trash2,
  Users,
} from 'lucide-react';
import { useId, useState } from 'react';

import type { RecordType, SavedView } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { toast } from '@/components/ui/toast.tsx';
import {
  createSavedView,
  deleteSavedView,
  savedViewsQueryOptions,
  setDefaultView,
  sharedViewsQueryOptions,
  updateSavedView,
} from '@/lib/saved-views.ts';

import { sameViewState, viewStateOf } from '../lib/view-state.ts';
import { ShareViewDialog } from './share-view-dialog.tsx';
import { ViewsMenu } from './views-menu.tsx';

export interface ViewControlsProps {
  recordType: RecordType;
  alias: string;
  search: {
    filter?: string | undefined;
    sort?: string | undefined;
    cols?: string[] | undefined;
    view?: string | undefined;
  };
  /** Marks the list as showing a view (or none) in the URL. */
  onViewChange: (viewId: string | undefined) => void;
}

type NameDialog =
  | { mode: 'create' }
  | { mode: 'rename'; view: SavedView }
  | { mode: 'copy'; view: SavedView }
  | null;

/**
 * The records page's view controls: which saved view is open (and whether the list has drifted
 * from it), "Save view", and a menu to update, rename, make default, share, copy the link or
 * delete. A view someone shared with the user is read-only: its menu offers "Save a copy…" and
 * the link, and says who shared it.
 */
export function ViewControls({ recordType, alias, search, onViewChange }: ViewControlsProps) {
  const queryClient = useQueryClient();
  const views = useQuery(savedViewsQueryOptions());
  const shared = useQuery(sharedViewsQueryOptions());
  const isCurrent = (v: SavedView) =>
    v.id === search.view && v.recordType === recordType && v.alias === alias;
  const current = views.data?.find(isCurrent) ?? shared.data?.items.find(isCurrent);
  const readOnly = current?.sharedBy !== undefined;
  const [sharing, setSharing] = useState(false);
  const state = viewStateOf(search);
  const modified = current !== undefined && !sameViewState(viewStateOf(current), state);
  const [dialog, setDialog] = useState<NameDialog>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const key = savedViewsQueryOptions().queryKey;
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const save = useMutation({
    mutationFn: () => {
      if (!current) throw new Error('No view is open');
      return updateSavedView(current.id, state);
    },
    onSuccess: (view) => {
      void refresh();
      toast({ message: `Saved “${view.name}”` });
    },
    onError: (error) => toast({ message: describeError(error).title }),
  });
  const makeDefault = useMutation({
    mutationFn: (view: SavedView) => setDefaultView(view.id, !view.isDefault),
    onSuccess: (view) => {
      void refresh();
      toast({
        message: view.isDefault
          ? `“${view.name}” opens by default`
          : `“${view.name}” is no longer the default`,
      });
    },
    onError: (error) => toast({ message: describeError(error).title }),
  });
  const remove = useMutation({
    mutationFn: (view: SavedView) => deleteSavedView(view.id),
    onSuccess: (_, view) => {
      setConfirmDelete(false);
      void refresh();
      onViewChange(undefined);
      toast({ message: `Deleted “${view.name}”` });
    },
  });

  async function copyLink() {
    const href = window.location.href;
    try {
      await navigator.clipboard.writeText(href);
      toast({ message: 'Link copied' });
    } catch {
      // Clipboard access can be refused (permissions, insecure context): show the link instead.
      toast({ message: href, duration: 15_000 });
    }
  }

  return (
    <div className="flex items-center gap-2">
      <ViewsMenu recordType={recordType} alias={alias} />
      {current && (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" aria-label={`View: ${current.name}`}>
              <Bookmark aria-hidden="true" />
              <span className="max-w-[24ch] truncate">{current.name}</span>
              {current.isDefault && <Star aria-hidden="true" className="fill-current" />}
              {readOnly && (
                <span className="text-muted-foreground text-xs">· by {current.sharedBy}</span>
              )}
              {modified && (
                <span className="text-muted-foreground text-xs" data-testid="view-modified">
                  (modified)
                </span>
              )}
              <ChevronDown aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          {readOnly ? (
            <DropdownMenuContent align="end">
              <DropdownMenuLabel className="font-normal" data-testid="view-shared-by">
                Shared by {current.sharedBy} · read-only
              </DropdownMenuLabel>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => setDialog({ mode: 'copy', view: current })}>
                <Copy aria-hidden="true" /> Save a copy…
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => void copyLink()}>
                <Link2 aria-hidden="true" /> Copy link
              </DropdownMenuItem>
            </DropdownMenuContent>
          ) : (
            <DropdownMenuContent align="end">
              <DropdownMenuItem
                disabled={!modified || save.isPending}
                onSelect={() => save.mutate()}
              >
                <Save aria-hidden="true" /> Save changes to view
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setDialog({ mode: 'rename', view: current })}>
                <Pencil aria-hidden="true" /> Rename…
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => makeDefault.mutate(current)}>
                <Star aria-hidden="true" />
                {current.isDefault ? 'Stop opening by default' : 'Open by default'}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setSharing(true)}>
                <Users aria-hidden="true" /> Share…
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => void copyLink()}>
                <Link2 aria-hidden="true" /> Copy link
              </DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => setConfirmDelete(true)}>
                <Trash2 aria-hidden="true" /> Delete view…
              </DropdownMenuItem>
            </DropdownMenuContent>
          )}
        </DropdownMenu>
      )}
      <Button variant="outline" size="sm" onClick={() => setDialog({ mode: 'create' })}>
        <BookmarkPlus aria-hidden="true" />
        {current ? 'Save as new view' : 'Save view'}
      </Button>

      {dialog && (
        <ViewNameDialog
          key={dialog.mode === 'create' ? 'create' : `${dialog.mode}-${dialog.view.id}`}
          title={DIALOG_TITLES[dialog.mode]}
          initialName={
            dialog.mode === 'rename'
              ? dialog.view.name
              : dialog.mode === 'copy'
                ? `${dialog.view.name} (copy)`.slice(0, 80)
                : ''
          }
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            if (dialog.mode === 'rename') {
              await updateSavedView(dialog.view.id, { name });
            } else {
              // A copy keeps what the list shows now: the shared view, with any changes made.
              const view = await createSavedView({ name, recordType, alias, ...state });
              onViewChange(view.id);
            }
            await refresh();
            toast({ message: `Saved “${name}”` });
            setDialog(null);
          }}
        />
      )}

      {sharing && current && !readOnly && (
        <ShareViewDialog view={current} onClose={() => setSharing(false)} onChanged={refresh} />
      )}

      <Dialog open={confirmDelete && current !== undefined} onOpenChange={setConfirmDelete}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete “{current?.name}”?</DialogTitle>
            <DialogDescription>
              The view is removed from your sidebar. Links to it still open the list with their
              filter; the records themselves are not touched.
            </DialogDescription>
          </DialogHeader>
          {remove.isError && (
            <p role="alert" className="text-destructive text-sm">
              {describeError(remove.error).title}
            </p>
          )}
          <DialogFooter>
            <Button variant="ghost" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              disabled={remove.isPending}
              onClick={() => current && remove.mutate(current)}
            >
              Delete view
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}

const DIALOG_TITLES = { create: 'Save view', rename: 'Rename view', copy: 'Save a copy' };

/** Asks for a view's name; a taken name (409) or a bad filter (400) shows under the field. */
function ViewNameDialog({
  title,
  initialName,
  onClose,
  onSubmit,
}: {
  title: string;
  initialName: string;
  onClose: () => void;
  onSubmit: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const errorId = useId();

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return setError('Enter a name.');
    if (trimmed.length > 80) return setError('Use at most 80 characters.');
    setBusy(true);
    try {
      await onSubmit(trimmed);
    } catch (caught) {
      if (isApiError(caught) && caught.status === 409) {
        setError('You already have a view with this name here.');
      } else if (isApiError(caught) && caught.errors.length > 0) {
        setError(caught.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
      } else {
        setError(describeError(caught).title);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              A view keeps this list’s filter, sort and columns. Only you see your views unless you
              share one (Share… in its menu).
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={inputId}>Name</Label>
            <Input
              id={inputId}
              value={name}
              maxLength={80}
              autoFocus
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              onChange={(event) => {
                setName(event.target.value);
                setError(undefined);
              }}
            />
            {error && (
              <p id={errorId} className="text-destructive text-sm">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              Save
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
