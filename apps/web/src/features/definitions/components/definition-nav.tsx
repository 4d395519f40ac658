import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Lock } from 'lucide-react';

import type { Definition, RecordType } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { formatCount } from '@/lib/format.ts';
import { RECORD_TYPE_LABELS } from '@/queries/definitions.ts';
import { recordCountQueryOptions } from '@/queries/records.ts';

/**
 * The record count beside a definition. Nothing while loading, for definitions the server cannot
 * list, or when it gives no total; a lock when the service refuses this credential (403), since
 * with the hosted service the BFF cannot know in advance what each person may read.
 */
function Count({ definition }: { definition: Definition }) {
  const query = useQuery({
    ...recordCountQueryOptions(definition.recordType as RecordType, definition.alias),
    enabled: definition.listable !== false,
  });
  if (query.isError && isApiError(query.error) && query.error.status === 403) {
    return (
      <span
        className="text-muted-foreground ml-auto"
        title="You do not have access to these records"
      >
        <Lock aria-hidden="true" className="size-3.5" />
        <span className="sr-only">(no access)</span>
      </span>
    );
  }
  if (query.data === undefined || query.data === null) return null;
  return (
    <span
      className="text-muted-foreground ml-auto text-xs tabular-nums"
      data-testid="definition-count"
    >
      {formatCount(query.data)}
      <span className="sr-only"> records</span>
    </span>
  );
}

/**
 * The sidebar: definitions grouped by record type, each with its record count.
 */
export function DefinitionNav({ definitions }: { definitions: Definition[] }) {
  const types = (Object.keys(RECORD_TYPE_LABELS) as RecordType[]).filter((type) =>
    definitions.some((d) => d.recordType === type),
  );
  if (types.length === 0) {
    return (
      <p className="text-muted-foreground px-2 text-sm">No record types are shared with you yet.</p>
    );
  }
  return (
    <div className="grid gap-4">
      {types.map((type) => (
        <section key={type} aria-labelledby={`nav-${type}`}>
          <h2 id={`nav-${type}`} className="text-muted-foreground px-2 pb-1 text-xs font-medium">
            {RECORD_TYPE_LABELS[type]}
          </h2>
          <ul className="grid gap-0.5">
            {definitions
              .filter((d) => d.recordType === type)
              .map((definition) => (
                <li key={definition.alias}>
                  <Link
                    to="/records/$recordType/$alias"
                    params={{ recordType: definition.recordType, alias: definition.alias }}
                    search={{}}
                    activeOptions={{ includeSearch: false }}
                    className="hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-ring/50 aria-[current=page]:bg-sidebar-accent aria-[current=page]:text-sidebar-accent-foreground flex items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none focus-visible:ring-[3px] aria-[current=page]:font-medium"
                  >
                    <span className="bg-secondary text-secondary-foreground flex size-5 items-center justify-center rounded font-mono text-[10px] font-semibold">
                      {definition.handle.slice(0, 2)}
                    </span>
                    <span className="truncate">{definition.name}</span>
                    <Count definition={definition} />
                  </Link>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/**
 * The home page's cards: one per definition with its count, linking to its list.
 */
export function DefinitionCards({ definitions }: { definitions: Definition[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
      {definitions.map((definition) => (
        <li key={`${definition.recordType}/${definition.alias}`}>
          <Link
            to="/records/$recordType/$alias"
            params={{ recordType: definition.recordType, alias: definition.alias }}
            search={{}}
            className="bg-card hover:bg-accent/50 focus-visible:ring-ring/50 flex flex-col gap-2 rounded-lg border p-4 shadow-xs transition-colors outline-none focus-visible:ring-[3px]"
          >
            <span className="flex items-center gap-2">
              <span className="bg-secondary text-secondary-foreground rounded px-1.5 py-0.5 font-mono text-xs font-semibold">
                {definition.handle}
              </span>
              <span className="font-medium">{definition.name}</span>
              <Count definition={definition} />
            </span>
            <span className="text-muted-foreground text-xs">
              {RECORD_TYPE_LABELS[definition.recordType as RecordType]} · {definition.fields.length}{' '}
              fields
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
