import type { UseQueryResult } from '@tanstack/react-query';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, Loader2, UserX } from 'lucide-react';

import type { User } from '@wsc/api-client';

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
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatCount } from '@/lib/format.ts';
import { personName } from '@/lib/people.ts';
import { userKeys, userQueryOptions } from '@/queries/users.ts';

import type { AssignedRecords } from '../api/assigned-records.ts';
import { deactivateUser } from '../api/users.ts';
import { AssignedRecordLinks } from './assigned-records.tsx';

/**
 * Confirms a deactivation, showing what the person still owns (their open assigned records, with
 * links) so the administrator can reassign first. Confirming deactivates them and refreshes every
 * users query: the list, this page, and the people pickers (which offer only active users).
 */
export function DeactivateUserDialog({
  user,
  assigned,
  open,
  onOpenChange,
}: {
  user: User;
  assigned: UseQueryResult<AssignedRecords>[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => deactivateUser(user.id),
    onSuccess: async (updated) => {
      queryClient.setQueryData(userQueryOptions(user.id).queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      onOpenChange(false);
    },
  });
  const loading = assigned.some((q) => q.isPending);
  const failed = assigned.find((q) => q.isError);
  const owning = assigned.flatMap((q) => (q.data && q.data.open.value > 0 ? [q.data] : []));
  const openTotal = owning.reduce((sum, d) => sum + d.open.value, 0);
  const openAtLeast = owning.some((d) => d.open.atLeast);
  const name = personName(user);

  return (
    <Dialog open={open} onOpenChange={(next) => !mutation.isPending && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Deactivate {name}?</DialogTitle>
          <DialogDescription>
            They will no longer be able to sign in, their credentials stop working at once, and they
            can no longer be picked as an assignee or watcher.
          </DialogDescription>
        </DialogHeader>

        <section aria-labelledby="owned-heading" className="grid gap-2">
          <h3 id="owned-heading" className="text-sm font-semibold">
            What they own
          </h3>
          {loading ? (
            <div
              className="grid gap-1.5"
              role="status"
              aria-busy="true"
              aria-label="Loading their records"
            >
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="h-4 w-1/2" />
            </div>
          ) : failed ? (
            <p className="text-destructive text-sm">
              Their assigned records could not be read: {describeError(failed.error).title}.
            </p>
          ) : openTotal === 0 ? (
            <p className="text-muted-foreground text-sm" data-testid="owned-summary">
              No open records are assigned to them.
            </p>
          ) : (
            <div className="grid gap-3">
              <p className="text-sm" data-testid="owned-summary">
                {formatCount(openTotal)}
                {openAtLeast ? ' or more' : ''} open{' '}
                {openTotal === 1 && !openAtLeast ? 'record is' : 'records are'} assigned to them.
                They stay assigned: reassign them to keep work moving.
              </p>
              {owning.map((data) => (
                <div
                  key={`${data.definition.recordType}/${data.definition.alias}`}
                  className="grid gap-1"
                >
                  <p className="text-muted-foreground text-xs font-medium">
                    {data.definition.name}: {formatCount(data.open.value)}
                    {data.open.atLeast ? '+' : ''} open
                    {(data.open.atLeast || data.open.value > data.openRows.length) &&
                      ` (first ${formatCount(data.openRows.length)} shown)`}
                  </p>
                  <AssignedRecordLinks data={data} />
                </div>
              ))}
            </div>
          )}
        </section>

        {mutation.isError && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>{describeError(mutation.error).title}</AlertTitle>
            <AlertDescription>{describeError(mutation.error).description}</AlertDescription>
          </Alert>
        )}

        <DialogFooter>
          <Button
            variant="outline"
            onClick={() => onOpenChange(false)}
            disabled={mutation.isPending}
          >
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => mutation.mutate()}
            disabled={mutation.isPending}
          >
            {mutation.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <UserX aria-hidden="true" />
            )}
            Deactivate
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
