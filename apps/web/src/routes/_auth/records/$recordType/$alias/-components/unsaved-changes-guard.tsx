import { useBlocker } from '@tanstack/react-router';

import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';

/**
 * Asks before the edits of an open record are left behind: opening another row beside it (ADR
 * 0033), closing the panel, Back, a link elsewhere, or reloading the page (the browser's own
 * prompt). Changing the panel's tab stays on the record and is not asked about.
 *
 * @example
 * <UnsavedChangesGuard dirty={Object.keys(changes).length > 0} id="T-42" />
 */
export function UnsavedChangesGuard({ dirty, id }: { dirty: boolean; id: string }) {
  const blocker = useBlocker({
    shouldBlockFn: ({ current, next }) => dirty && current.pathname !== next.pathname,
    enableBeforeUnload: dirty,
    withResolver: true,
  });
  const blocked = blocker.status === 'blocked';
  return (
    <Dialog open={blocked} onOpenChange={(open) => !open && blocker.reset?.()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Discard your changes?</DialogTitle>
          <DialogDescription>
            Your changes to {id} are not saved. Leave them, or stay and save them.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="ghost" onClick={() => blocker.reset?.()}>
            Keep editing
          </Button>
          <Button variant="destructive" onClick={() => blocker.proceed?.()}>
            Discard changes
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
