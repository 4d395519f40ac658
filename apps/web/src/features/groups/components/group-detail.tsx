import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { AlertCircle, ChevronRight, Loader2, Undo2, UserMinus } from 'lucide-react';
import { useMemo, useState } from 'react';

import type { Group, User } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { ExportButton } from '@/components/export-button.tsx';
import { RoleNote } from '@/components/role-note.tsx';
import { SkippedNote } from '@/components/skipped-note.tsx';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { api } from '@/lib/api.ts';
import { userExportSource } from '@/lib/export/users.ts';
import { formatCount } from '@/lib/format.ts';
import { personName, statusLabel } from '@/lib/people.ts';
import { groupKeys, groupMembersQueryOptions } from '@/queries/groups.ts';

import type { MembershipChange } from '../api/groups.ts';
import { addMembers, removeMembers } from '../api/groups.ts';
import { AddMembers } from './add-members.tsx';
import { GroupFlags } from './group-flags.tsx';

const plural = (n: number) => `${formatCount(n)} ${n === 1 ? 'member' : 'members'}`;

/**
 * The sentence that reports a membership change.
 *
 * @example
 * describeChange({ kind: 'added', changed: [ada, grace], unchanged: [] }); // 'Added 2 members'
 */
export function describeChange(change: MembershipChange): string {
  const done =
    change.kind === 'added'
      ? change.changed.length === 0
        ? 'Nobody was added'
        : `Added ${plural(change.changed.length)}`
      : `Removed ${plural(change.changed.length)}`;
  const skipped = change.unchanged.length;
  if (skipped === 0) return done;
  return `${done} (${formatCount(skipped)} already ${skipped === 1 ? 'was a member' : 'were members'})`;
}

type Operation = { op: 'add' | 'remove'; users: User[] };

/**
 * A group's page: its flags and domains, and its members (paged). Administrators add people
 * (several at once, from the people search) and remove selected members; each change is reported
 * with an Undo that reverts exactly what it did. Dynamic groups (members follow rules) and
 * system-managed groups cannot be changed by hand, so they get no controls.
 */
export function GroupDetail({
  group,
  canManage: mayManage,
  roleKnown = true,
}: {
  group: Group;
  canManage: boolean;
  /** False when the console could not learn the person's role (see RoleNote). */
  roleKnown?: boolean;
}) {
  const fixed = group.dynamic || group.managed;
  const canManage = mayManage && !fixed;
  const queryClient = useQueryClient();
  const members = useInfiniteQuery(groupMembersQueryOptions(group.id));
  const rows = useMemo(
    () => members.data?.pages.flatMap((page) => page.items) ?? [],
    [members.data],
  );
  const total = members.data?.pages[0]?.total;
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [lastChange, setLastChange] = useState<MembershipChange | null>(null);

  const change = useMutation({
    mutationFn: ({ op, users }: Operation) =>
      op === 'add' ? addMembers(group.id, users) : removeMembers(group.id, users),
    onSuccess: (result) => {
      setLastChange(result);
      setSelected(new Set());
    },
    // Refresh members, the group, and the "groups" list on people's pages, success or not.
    onSettled: () => queryClient.invalidateQueries({ queryKey: groupKeys.all }),
  });

  const chosenUsers = rows.filter((user) => selected.has(user.id));
  const allSelected = rows.length > 0 && rows.every((user) => selected.has(user.id));
  const undo = () => {
    if (!lastChange || lastChange.changed.length === 0) return;
    change.mutate({
      op: lastChange.kind === 'added' ? 'remove' : 'add',
      users: lastChange.changed,
    });
  };
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className="mx-auto grid w-full max-w-5xl gap-6 p-6">
        <nav
          aria-label="Breadcrumb"
          className="text-muted-foreground flex items-center gap-1 text-sm"
        >
          <Link to="/groups" className="hover:text-foreground">
            Groups
          </Link>
          <ChevronRight className="size-3.5" aria-hidden="true" />
          <span aria-current="page" className="text-foreground">
            {group.name}
          </span>
        </nav>

        <header className="grid gap-3">
          <h1 className="text-xl font-semibold tracking-tight">{group.name}</h1>
          <GroupFlags group={group} />
          {group.domains.length > 0 && (
            <p className="text-muted-foreground text-sm">
              Domains:{' '}
              {group.domains
                .map((d) => d.domain)
                .filter(Boolean)
                .join(', ')}
            </p>
          )}
        </header>

        <section aria-labelledby="members-heading" className="grid gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="members-heading" className="text-sm font-semibold">
              Members
            </h2>
            {total !== undefined && (
              <span className="text-muted-foreground text-xs" data-testid="members-total">
                {plural(total)}
              </span>
            )}
            <span className="ml-auto">
              <ExportButton
                title={`members of ${group.name}`}
                fileStem="group-members"
                total={total}
                createSource={() =>
                  userExportSource((first, after, signal) =>
                    api.listGroupMembers(group.id, { first, after, signal }),
                  )
                }
                description={
                  <>
                    Every member of this group, in the order they were added, with the table&apos;s
                    columns (name, email, job title, status).
                  </>
                }
              />
            </span>
            {canManage && (
              <Button
                variant="outline"
                size="sm"
                disabled={chosenUsers.length === 0 || change.isPending}
                onClick={() => change.mutate({ op: 'remove', users: chosenUsers })}
              >
                <UserMinus aria-hidden="true" />
                {chosenUsers.length > 0
                  ? `Remove ${plural(chosenUsers.length)}`
                  : 'Remove selected'}
              </Button>
            )}
          </div>

          {mayManage && fixed && (
            <p className="text-muted-foreground text-sm" data-testid="membership-fixed">
              {group.dynamic
                ? 'Members of a dynamic group follow its rules; they cannot be added or removed by hand.'
                : 'This group is managed by the system; its members cannot be changed here.'}
            </p>
          )}
          {canManage && !roleKnown && <RoleNote />}
          {canManage && (
            <AddMembers
              pending={change.isPending}
              onAdd={(users) => change.mutateAsync({ op: 'add', users })}
            />
          )}

          <div role="status" aria-live="polite" className="empty:hidden">
            {lastChange && !change.isPending && !change.isError && (
              <div
                className="bg-muted/50 flex items-center gap-3 rounded-md border px-3 py-2 text-sm"
                data-testid="membership-result"
              >
                <span>{describeChange(lastChange)}</span>
                {lastChange.changed.length > 0 && (
                  <Button variant="outline" size="xs" className="ml-auto" onClick={undo}>
                    <Undo2 aria-hidden="true" />
                    Undo
                  </Button>
                )}
              </div>
            )}
          </div>
          {change.isError && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>{describeError(change.error).title}</AlertTitle>
              <AlertDescription>{describeError(change.error).description}</AlertDescription>
            </Alert>
          )}

          {members.isPending ? (
            <div className="grid gap-2" role="status" aria-busy="true" aria-label="Loading members">
              {Array.from({ length: 5 }, (_, i) => (
                <Skeleton key={i} className="h-9 w-full" />
              ))}
            </div>
          ) : members.isError && rows.length === 0 ? (
            <ErrorPanel error={members.error} onRetry={() => void members.refetch()} />
          ) : rows.length === 0 ? (
            <p className="text-muted-foreground rounded-lg border border-dashed p-6 text-center text-sm">
              This group has no members yet.
            </p>
          ) : (
            <div className="overflow-x-auto rounded-lg border">
              <Table aria-label={`Members of ${group.name}`}>
                <TableHeader>
                  <TableRow>
                    {canManage && (
                      <TableHead scope="col" className="w-10">
                        <input
                          type="checkbox"
                          aria-label="Select all shown members"
                          className="accent-primary size-4 align-middle"
                          checked={allSelected}
                          onChange={() =>
                            setSelected(allSelected ? new Set() : new Set(rows.map((u) => u.id)))
                          }
                        />
                      </TableHead>
                    )}
                    <TableHead scope="col">Name</TableHead>
                    <TableHead scope="col">Email</TableHead>
                    <TableHead scope="col">Job title</TableHead>
                    <TableHead scope="col">Status</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {rows.map((user) => {
                    const name = personName(user);
                    const checked = selected.has(user.id);
                    return (
                      <TableRow key={user.id} data-state={checked ? 'selected' : undefined}>
                        {canManage && (
                          <TableCell className="py-2">
                            <input
                              type="checkbox"
                              aria-label={`Select ${name}`}
                              className="accent-primary size-4 align-middle"
                              checked={checked}
                              onChange={() => toggle(user.id)}
                            />
                          </TableCell>
                        )}
                        <TableCell className="py-2 font-medium">
                          <Link
                            to="/users/$userId"
                            params={{ userId: user.id }}
                            className="focus-visible:ring-ring/50 rounded-sm outline-none hover:underline focus-visible:ring-[3px]"
                          >
                            {name}
                          </Link>
                        </TableCell>
                        <TableCell className="text-muted-foreground py-2">{user.email}</TableCell>
                        <TableCell className="py-2">{user.jobTitle || '—'}</TableCell>
                        <TableCell className="py-2">{statusLabel(user.status)}</TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </div>
          )}
          <SkippedNote pages={members.data?.pages} noun="member" />
          {members.isError && rows.length > 0 && (
            <ErrorPanel compact error={members.error} onRetry={() => void members.refetch()} />
          )}
          {members.hasNextPage && (
            <Button
              variant="outline"
              size="sm"
              className="justify-self-start"
              onClick={() => void members.fetchNextPage()}
              disabled={members.isFetchingNextPage}
            >
              {members.isFetchingNextPage && (
                <Loader2 className="animate-spin" aria-hidden="true" />
              )}
              Load more members
            </Button>
          )}
        </section>
      </div>
    </div>
  );
}
