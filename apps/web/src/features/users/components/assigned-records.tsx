import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';

import type { Definition, RecordType } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatCount } from '@/lib/format.ts';

import type { AssignedRecords, Count } from '../api/assigned-records.ts';
import { assignedFilter } from '../lib/assigned.ts';

/**
 * The open records of one definition assigned to a person, as links to the record panel. Shared
 * by the user page and the deactivation dialog.
 *
 * @example
 * <AssignedRecordLinks data={data} />
 */
export function AssignedRecordLinks({ data }: { data: AssignedRecords }) {
  const { definition, openRows } = data;
  const titleField = definition.titleField;
  if (openRows.length === 0) return null;
  return (
    <ul className="grid gap-1">
      {openRows.map((row, index) => {
        const id = recordHandle(row, definition);
        if (id === undefined) {
          return (
            <li key={`row-${index}`} className="flex min-w-0 items-center gap-2 text-sm">
              <span className="truncate">{titleField ? row[titleField] : ''}</span>
            </li>
          );
        }
        return (
          <li key={id} className="flex min-w-0 items-center gap-2 text-sm">
            <Link
              to="/records/$recordType/$alias/$id"
              params={{
                recordType: definition.recordType as RecordType,
                alias: definition.alias,
                id,
              }}
              search={{}}
              className="text-primary focus-visible:ring-ring/50 shrink-0 rounded-sm font-mono text-xs font-medium outline-none hover:underline focus-visible:ring-[3px]"
            >
              {id}
            </Link>
            <span className="truncate">{titleField ? row[titleField] : ''}</span>
            {row['Status'] && (
              <span className="text-muted-foreground ml-auto shrink-0 rounded-md border px-1.5 py-0.5 text-xs">
                {row['Status']}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A count that may be a lower bound: `12`, or `5+` when the server gave no total. */
function countText(count: Count): string {
  return `${formatCount(count.value)}${count.atLeast ? '+' : ''}`;
}

/**
 * "Records assigned": per definition with an Assignee field, how many records are assigned to the
 * person and how many are open, the first open ones, and a link to all of them in the list.
 */
export function AssignedRecordsSection({
  email,
  definitions,
  queries,
}: {
  email: string;
  definitions: Definition[];
  queries: UseQueryResult<AssignedRecords>[];
}) {
  return (
    <section aria-labelledby="assigned-heading" className="grid content-start gap-3">
      <h2 id="assigned-heading" className="text-sm font-semibold">
        Records assigned
      </h2>
      {definitions.length === 0 && (
        <p className="text-muted-foreground text-sm">No record type has an assignee.</p>
      )}
      <ul className="grid gap-3">
        {definitions.map((definition, index) => {
          const query = queries[index];
          return (
            <li
              key={`${definition.recordType}/${definition.alias}`}
              className="bg-card grid gap-2 rounded-lg border p-3"
              data-testid="assigned-definition"
            >
              <div className="flex flex-wrap items-center gap-2">
                <span className="bg-secondary text-secondary-foreground rounded px-1.5 py-0.5 font-mono text-xs font-semibold">
                  {definition.handle}
                </span>
                <h3 className="text-sm font-medium">{definition.name}</h3>
                {query?.data && (
                  <span className="text-muted-foreground text-xs" data-testid="assigned-counts">
                    {countText(query.data.open)} open · {countText(query.data.total)} in all
                  </span>
                )}
                {query?.data && query.data.total.value > 0 && (
                  <Link
                    to="/records/$recordType/$alias"
                    params={{
                      recordType: definition.recordType as RecordType,
                      alias: definition.alias,
                    }}
                    search={{ filter: assignedFilter(definition, email, false) }}
                    className="text-primary focus-visible:ring-ring/50 ml-auto rounded-sm text-xs outline-none hover:underline focus-visible:ring-[3px]"
                  >
                    View all<span className="sr-only"> {definition.name} assigned</span>
                  </Link>
                )}
              </div>
              {!query || query.isPending ? (
                <div className="grid gap-1.5" role="status" aria-busy="true" aria-label="Loading">
                  <Skeleton className="h-4 w-2/3" />
                  <Skeleton className="h-4 w-1/2" />
                </div>
              ) : query.isError ? (
                <ErrorPanel compact error={query.error} onRetry={() => void query.refetch()} />
              ) : query.data.open.value === 0 ? (
                <p className="text-muted-foreground text-sm">No open records.</p>
              ) : (
                <AssignedRecordLinks data={query.data} />
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
