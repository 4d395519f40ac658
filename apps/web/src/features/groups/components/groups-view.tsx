import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Loader2, UsersRound } from 'lucide-react';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { SkippedNote } from '@/components/skipped-note.tsx';
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
import { formatCount } from '@/lib/format.ts';
import { groupsListQueryOptions } from '@/queries/groups.ts';

import { GroupFlags } from './group-flags.tsx';

/**
 * The groups list: each group with the flags it has on, linking to its page.
 */
export function GroupsView() {
  const query = useInfiniteQuery(groupsListQueryOptions());
  const groups = query.data?.pages.flatMap((page) => page.items) ?? [];
  const total = query.data?.pages[0]?.total;

  if (query.isPending) {
    return (
      <div
        className="grid gap-2 px-6 py-4"
        role="status"
        aria-busy="true"
        aria-label="Loading groups"
      >
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} className="h-9 w-full" />
        ))}
      </div>
    );
  }
  if (query.isError && groups.length === 0) {
    return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (groups.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 p-10 text-center">
        <span className="bg-muted text-muted-foreground flex size-10 items-center justify-center rounded-full">
          <UsersRound className="size-5" aria-hidden="true" />
        </span>
        <h2 className="text-base font-semibold">No groups yet</h2>
        <p className="text-muted-foreground text-sm">Groups come from the workspace file.</p>
      </div>
    );
  }

  return (
    <div className="min-h-0 flex-1 overflow-auto px-6 pb-6">
      <SkippedNote pages={query.data?.pages} noun="group" className="pb-2" />
      <div className="overflow-hidden rounded-lg border">
        <Table aria-label="Groups">
          <TableHeader>
            <TableRow>
              <TableHead scope="col" className="w-64">
                Name
              </TableHead>
              <TableHead scope="col">Flags</TableHead>
              <TableHead scope="col">Domains</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {groups.map((group) => (
              <TableRow key={group.id}>
                <TableCell className="py-2 font-medium">
                  <Link
                    to="/groups/$groupId"
                    params={{ groupId: group.id }}
                    className="focus-visible:ring-ring/50 rounded-sm outline-none hover:underline focus-visible:ring-[3px]"
                  >
                    {group.name}
                  </Link>
                </TableCell>
                <TableCell className="py-2 whitespace-normal">
                  <GroupFlags group={group} only="on" />
                </TableCell>
                <TableCell className="text-muted-foreground py-2 text-xs">
                  {group.domains
                    .map((d) => d.domain)
                    .filter(Boolean)
                    .join(', ') || '—'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      <div className="text-muted-foreground flex items-center gap-3 pt-3 text-xs">
        <span role="status" data-testid="groups-status">
          {total === undefined ? '' : `${formatCount(total)} ${total === 1 ? 'group' : 'groups'}`}
        </span>
        {query.hasNextPage && (
          <Button
            variant="outline"
            size="xs"
            className="ml-auto"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
          >
            {query.isFetchingNextPage && <Loader2 className="animate-spin" aria-hidden="true" />}
            Load more
          </Button>
        )}
      </div>
    </div>
  );
}
