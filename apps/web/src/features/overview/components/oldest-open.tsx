import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';

import type { Definition, RecordType } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import { formatDateTime } from '@/lib/format.ts';

import { oldestOpenQueryOptions } from '../api/overview.ts';

const DAY_MS = 86_400_000;

/** "opened 12 days ago", from a created timestamp. */
function ageOf(created: string | undefined, now: number): string {
  const time = Date.parse(created ?? '');
  if (Number.isNaN(time)) return '';
  const days = Math.floor((now - time) / DAY_MS);
  if (days < 1) return 'today';
  return days === 1 ? '1 day old' : `${days.toLocaleString()} days old`;
}

/**
 * The open records created first, each linking to the record (records without a handle are
 * listed, not linked). Sorted by the server where it can; else here, from one bounded page.
 */
export function OldestOpen({
  definition,
  createdField,
  openFilter,
  serverSort,
}: {
  definition: Definition;
  createdField: string;
  openFilter: string;
  serverSort: boolean;
}) {
  const query = useQuery(oldestOpenQueryOptions(definition, createdField, openFilter, serverSort));
  const recordType = definition.recordType as RecordType;
  const headingId = `oldest-${definition.recordType}-${definition.alias}`.replace(/[^\w-]/g, '_');
  const now = Date.now();

  let body: React.ReactNode;
  if (query.isPending) {
    body = <p className="text-muted-foreground text-sm">Looking…</p>;
  } else if (query.isError) {
    body = <p className="text-muted-foreground text-sm">The open records could not be read.</p>;
  } else if (query.data.kind === 'unavailable') {
    body = (
      <p className="text-muted-foreground text-sm" data-testid="oldest-unavailable">
        {query.data.reason}{' '}
        <Link
          preload={false}
          to="/records/$recordType/$alias"
          params={{ recordType, alias: definition.alias }}
          search={{ filter: openFilter }}
          className="text-primary underline-offset-4 hover:underline"
        >
          See the open records
        </Link>
      </p>
    );
  } else if (query.data.records.length === 0) {
    body = <p className="text-muted-foreground text-sm">Nothing is open.</p>;
  } else {
    const title = definition.titleField;
    body = (
      <>
        <ol className="grid gap-1 text-sm" aria-labelledby={headingId}>
          {query.data.records.map((record, index) => {
            const id = recordHandle(record, definition);
            const created = record[createdField];
            const text = (
              <>
                <span className="font-mono text-xs">{id ?? '(no handle)'}</span>
                <span className="truncate">{title ? record[title] : ''}</span>
                <span
                  className="text-muted-foreground ml-auto shrink-0 text-xs"
                  title={created ? formatDateTime(created) : undefined}
                >
                  {ageOf(created, now)}
                </span>
              </>
            );
            return (
              <li key={id ?? index} data-testid="oldest-open">
                {id ? (
                  <Link
                    preload={false}
                    to="/records/$recordType/$alias/$id"
                    params={{ recordType, alias: definition.alias, id }}
                    search={{}}
                    className="hover:bg-accent/60 focus-visible:ring-ring/50 flex min-w-0 items-center gap-2 rounded-sm px-1 py-0.5 outline-none focus-visible:ring-[3px]"
                  >
                    {text}
                  </Link>
                ) : (
                  <span
                    className="flex min-w-0 items-center gap-2 px-1 py-0.5"
                    title="This record has no handle, so it cannot be opened"
                  >
                    {text}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
        {query.data.sortedHere ? (
          <p className="text-muted-foreground text-xs">
            This service cannot sort: the open records were read and sorted here.
          </p>
        ) : null}
      </>
    );
  }

  return (
    <section className="grid content-start gap-2" aria-labelledby={headingId}>
      <h3 id={headingId} className="text-muted-foreground text-xs font-medium">
        <span className="sr-only">{definition.name}: </span>Oldest open
      </h3>
      {body}
    </section>
  );
}
