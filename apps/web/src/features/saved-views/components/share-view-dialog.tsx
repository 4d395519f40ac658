import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';

import type { SavedView } from '@wsc/api-client';
import { isApiError, MAX_VIEW_SHARE_GROUPS } from '@wsc/api-client';

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
import { toast } from '@/components/ui/toast.tsx';
import {
  isShared,
  sharedViewsQueryOptions,
  shareSavedView,
  unshareSavedView,
} from '@/lib/saved-views.ts';
import { groupsListQueryOptions } from '@/queries/groups.ts';

/**
 * Who else may read an own view: everyone signed in to the region and/or some groups. Others get
 * it read-only (they can save a copy). Where the BFF cannot tell this session's group membership
 * (a hosted service without the operator naming this client), groups are not offered and a note
 * says why. "Stop sharing" makes the view private again.
 */
export function ShareViewDialog({
  view,
  onClose,
  onChanged,
}: {
  view: SavedView;
  onClose: () => void;
  onChanged: () => Promise<void>;
}) {
  const [everyone, setEveryone] = useState(view.shares?.everyone ?? false);
  const [groups, setGroups] = useState<Map<string, string>>(
    () => new Map((view.shares?.groups ?? []).map((g) => [g.id, g.name])),
  );
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const descriptionId = useId();
  const sharing = useQuery(sharedViewsQueryOptions()).data?.groupSharing;
  const groupsAvailable = sharing?.available === true;
  const list = useInfiniteQuery({ ...groupsListQueryOptions(), enabled: groupsAvailable });
  const offered = list.data?.pages.flatMap((page) => page.items) ?? [];
  // Groups already shared with stay listed even when not on the loaded pages.
  const shown = [
    ...offered.map((g) => ({ id: g.id, name: g.name ?? g.id })),
    ...[...groups]
      .filter(([id]) => !offered.some((g) => g.id === id))
      .map(([id, name]) => ({ id, name })),
  ];

  function toggle(id: string, name: string) {
    setError(undefined);
    setGroups((before) => {
      const next = new Map(before);
      if (next.has(id)) next.delete(id);
      else next.set(id, name);
      return next;
    });
  }

  async function run(action: () => Promise<SavedView>, message: string) {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      await onChanged();
      toast({ message });
      onClose();
    } catch (caught) {
      setError(
        isApiError(caught) && caught.errors.length > 0
          ? caught.errors.map((e) => e.message).join('; ')
          : describeError(caught).title,
      );
    } finally {
      setBusy(false);
    }
  }

  const tooMany = groups.size > MAX_VIEW_SHARE_GROUPS;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (tooMany) return setError(`Choose at most ${MAX_VIEW_SHARE_GROUPS} groups.`);
            const input = { everyone, groups: [...groups.keys()] };
            void run(
              () => shareSavedView(view.id, input),
              everyone || groups.size > 0 ? `Shared “${view.name}”` : `“${view.name}” is private`,
            );
          }}
        >
          <DialogHeader>
            <DialogTitle>Share “{view.name}”</DialogTitle>
            <DialogDescription id={descriptionId}>
              People you share with see this view under “Shared with me”, read-only, with your name;
              they can save a copy. They still see only the records they may see.
            </DialogDescription>
          </DialogHeader>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={everyone}
              onChange={(event) => {
                setEveryone(event.target.checked);
                setError(undefined);
              }}
            />
            Everyone in this region
          </label>
          {groupsAvailable ? (
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Groups</legend>
              {list.isPending && <p className="text-muted-foreground text-sm">Loading groups…</p>}
              {list.isError && (
                <p role="alert" className="text-destructive text-sm">
                  {describeError(list.error).title}
                </p>
              )}
              <div className="grid max-h-56 gap-1 overflow-y-auto">
                {shown.map((group) => (
                  <label key={group.id} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={groups.has(group.id)}
                      onChange={() => toggle(group.id, group.name)}
                    />
                    {group.name}
                  </label>
                ))}
              </div>
              {list.hasNextPage && (
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  disabled={list.isFetchingNextPage}
                  onClick={() => void list.fetchNextPage()}
                >
                  More groups
                </Button>
              )}
            </fieldset>
          ) : (
            <p className="text-muted-foreground text-sm" data-testid="group-sharing-unavailable">
              {sharing?.reason ?? 'Checking whether groups can be offered…'} Sharing with groups is
              not offered.
            </p>
          )}
          {error && (
            <p role="alert" className="text-destructive text-sm">
              {error}
            </p>
          )}
          <DialogFooter>
            {isShared(view) && (
              <Button
                type="button"
                variant="outline"
                disabled={busy}
                className="sm:mr-auto"
                onClick={() =>
                  void run(() => unshareSavedView(view.id), `“${view.name}” is private`)
                }
              >
                Stop sharing
              </Button>
            )}
            <Button type="button" variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              Share
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
