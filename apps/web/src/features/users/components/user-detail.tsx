import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ChevronRight, UserX } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';

import type { Definition, User } from '@wsc/api-client';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { RoleNote } from '@/components/role-note.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCapabilities } from '@/lib/capabilities.ts';
import { personName, statusLabel } from '@/lib/people.ts';
import { userGroupsQueryOptions } from '@/queries/groups.ts';

import { assignedRecordsQueryOptions } from '../api/assigned-records.ts';
import { assignableDefinitions } from '../lib/assigned.ts';
import { AssignedRecordsSection } from './assigned-records.tsx';
import { UserStatusBadge } from './user-status-badge.tsx';

// Only administrators open it, and only when they mean to: its own chunk.
const DeactivateUserDialog = lazy(() =>
  import('./deactivate-user-dialog.tsx').then((m) => ({ default: m.DeactivateUserDialog })),
);

/**
 * A user's page: their details, the groups they belong to, the records assigned to them, and (for
 * administrators, while they are active) deactivation.
 */
export function UserDetail({
  user,
  definitions,
  canManage,
  roleKnown = true,
  isSelf,
}: {
  user: User;
  /** The definitions the viewer may see (their Assignee fields are searched). */
  definitions: Definition[];
  canManage: boolean;
  /** False when the console could not learn the viewer's role (see RoleNote). */
  roleKnown?: boolean;
  /** The viewer's own account: they cannot lock themselves out from here. */
  isSelf: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const { sort: serverSort } = useCapabilities();
  const assignable = useMemo(() => assignableDefinitions(definitions), [definitions]);
  const assigned = useQueries({
    queries: assignable.map((definition) =>
      assignedRecordsQueryOptions(definition, user.email, serverSort),
    ),
  });
  const groups = useQuery(userGroupsQueryOptions(user.id));
  const name = personName(user);
  const initials = (
    `${user.firstName.charAt(0)}${user.lastName.charAt(0)}` || name.charAt(0)
  ).toUpperCase();

  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <div className="mx-auto grid w-full max-w-5xl gap-6 p-6">
        <nav
          aria-label="Breadcrumb"
          className="text-muted-foreground flex items-center gap-1 text-sm"
        >
          <Link to="/users" className="hover:text-foreground">
            Users
          </Link>
          <ChevronRight className="size-3.5" aria-hidden="true" />
          <span aria-current="page" className="text-foreground">
            {name}
          </span>
        </nav>

        <header className="flex flex-wrap items-center gap-4">
          <span
            aria-hidden="true"
            className="bg-primary text-primary-foreground flex size-12 items-center justify-center rounded-full text-lg font-semibold"
          >
            {initials}
          </span>
          <div className="grid gap-1">
            <div className="flex items-center gap-2">
              <h1 className="text-xl font-semibold tracking-tight">{name}</h1>
              <UserStatusBadge status={user.status} />
            </div>
            <p className="text-muted-foreground text-sm">
              {user.email}
              {user.jobTitle ? ` · ${user.jobTitle}` : ''}
            </p>
          </div>
          {canManage && user.status !== 'INACTIVE' && !isSelf && (
            <div className="ml-auto grid justify-items-end gap-1">
              <Button variant="outline" onClick={() => setConfirming(true)}>
                <UserX aria-hidden="true" />
                Deactivate
              </Button>
              {!roleKnown && <RoleNote className="max-w-72 text-right" />}
            </div>
          )}
        </header>

        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
          <div className="grid content-start gap-6">
            <section aria-labelledby="details-heading" className="grid gap-3">
              <h2 id="details-heading" className="text-sm font-semibold">
                Details
              </h2>
              <dl className="bg-card grid grid-cols-[8rem_minmax(0,1fr)] gap-x-4 gap-y-2 rounded-lg border p-4 text-sm">
                <dt className="text-muted-foreground">Email</dt>
                <dd className="break-all">{user.email}</dd>
                <dt className="text-muted-foreground">First name</dt>
                <dd>{user.firstName || '—'}</dd>
                <dt className="text-muted-foreground">Last name</dt>
                <dd>{user.lastName || '—'}</dd>
                <dt className="text-muted-foreground">Job title</dt>
                <dd>{user.jobTitle || '—'}</dd>
                <dt className="text-muted-foreground">Status</dt>
                <dd data-testid="detail-status">{statusLabel(user.status)}</dd>
                <dt className="text-muted-foreground">ID</dt>
                <dd className="font-mono text-xs leading-5 break-all">{user.id}</dd>
              </dl>
            </section>

            <section aria-labelledby="groups-heading" className="grid gap-3">
              <h2 id="groups-heading" className="text-sm font-semibold">
                Groups
              </h2>
              {groups.isPending ? (
                <div
                  className="flex gap-2"
                  role="status"
                  aria-busy="true"
                  aria-label="Loading groups"
                >
                  <Skeleton className="h-6 w-24" />
                  <Skeleton className="h-6 w-20" />
                </div>
              ) : groups.isError ? (
                <ErrorPanel compact error={groups.error} onRetry={() => void groups.refetch()} />
              ) : groups.data.length === 0 ? (
                <p className="text-muted-foreground text-sm">Not in any group.</p>
              ) : (
                <ul className="flex flex-wrap gap-2" aria-label="Member of">
                  {groups.data.map((group) => (
                    <li key={group.id}>
                      <Badge variant="outline" className="p-0">
                        <Link
                          to="/groups/$groupId"
                          params={{ groupId: group.id }}
                          className="hover:bg-accent focus-visible:ring-ring/50 rounded-md px-2 py-0.5 outline-none focus-visible:ring-[3px]"
                        >
                          {group.name}
                        </Link>
                      </Badge>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>

          <AssignedRecordsSection email={user.email} definitions={assignable} queries={assigned} />
        </div>
      </div>

      {confirming && (
        <Suspense fallback={null}>
          <DeactivateUserDialog
            user={user}
            assigned={assigned}
            open={confirming}
            onOpenChange={setConfirming}
          />
        </Suspense>
      )}
    </div>
  );
}
