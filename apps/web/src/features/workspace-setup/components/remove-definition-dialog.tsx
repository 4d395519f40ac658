import { useMutation } from '@tanstack/react-query';
import { AlertCircle, Loader2, Trash2 } from 'lucide-react';
import { useRef } from 'react';

import type { WorkspaceEntry } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';

import { removeDefinition } from '../api/remove-definition.ts';
import { entryKey } from '../lib/entries.ts';

/**
 * Confirms removing a stored definition, saying what that means: the records stay in the service,
 * but the console stops listing them and forgets the corrections made here. Radix traps focus in
 * the dialog and starts it on Cancel, the safe choice; `onCloseAutoFocus` lets the page put focus
 * somewhere that still exists once the entry is gone.
 */
export function RemoveDefinitionDialog({
  entry,
  onOpenChange,
  onRemoved,
  onCloseAutoFocus,
}: {
  /** The entry to remove; `null` closes the dialog. */
  entry: WorkspaceEntry | null;
  onOpenChange: (open: boolean) => void;
  onRemoved: (entry: WorkspaceEntry) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  const remove = useMutation({
    mutationFn: (target: WorkspaceEntry) =>
      removeDefinition(target.definition.recordType, target.definition.alias),
    onSuccess: (_, target) => onRemoved(target),
  });
  const failure = remove.error ? describeError(remove.error) : null;
  const name = entry?.definition.name ?? '';

  return (
    <Dialog
      open={entry !== null}
      onOpenChange={(open) => {
        if (remove.isPending) return;
        if (!open) remove.reset();
        onOpenChange(open);
      }}
    >
      <DialogContent
        onOpenAutoFocus={(event) => {
          // Start on Cancel: Enter straight after opening must not remove anything.
          event.preventDefault();
          cancel.current?.focus();
        }}
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <DialogHeader>
          <DialogTitle>Remove {name}?</DialogTitle>
          <DialogDescription>
            The console will stop listing {name}
            {entry && <> ({entryKey(entry.definition)})</>} and forget the fields described here.
            Its records stay in the service; you can add it again by sampling.
          </DialogDescription>
        </DialogHeader>
        {failure && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>{failure.title}</AlertTitle>
            <AlertDescription>{failure.description}</AlertDescription>
          </Alert>
        )}
        <DialogFooter>
          <Button
            ref={cancel}
            variant="outline"
            disabled={remove.isPending}
            onClick={() => onOpenChange(false)}
          >
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={remove.isPending || entry === null}
            onClick={() => entry && remove.mutate(entry)}
          >
            {remove.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <Trash2 aria-hidden="true" />
            )}
            Remove
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
