import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Link2, Link2Off, Loader2, Plus, Search, X } from 'lucide-react';
import { useEffect, useId, useState } from 'react';

import type { Definition, RecordData } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import type { RecordRef } from '@/queries/records.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { ErrorPanel } from '@/components/errors/error-panel.tsx';
import { PendingMarker } from '@/components/pending-marker.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useCapabilities } from '@/lib/capabilities.ts';

import type { RelatedChange } from '../hooks/use-related-changes.ts';
import { relatedCandidatesQueryOptions, relatedItemsQueryOptions } from '../api/related-items.ts';
import { useRelatedChanges } from '../hooks/use-related-changes.ts';

/** What the panel's live marker says while changes are pending. */
function describePending(pending: readonly RelatedChange[]): string {
  const last = pending.at(-1);
  if (!last) return 'Saving…';
  return last.kind === 'add' ? `Relating ${last.id}…` : `Removing the relation to ${last.id}…`;
}

/**
 * A record's related items: type, alias and title of each, a link that opens it, an inline picker
 * to relate records of any definition, and remove with a 6 s Undo (which relates them again).
 */
export function RelatedItemsPanel({
  record,
  definitions,
}: {
  record: RecordRef;
  definitions: Definition[];
}) {
  const options = relatedItemsQueryOptions(record.recordType, record.alias, record.id, definitions);
  const query = useQuery(options);
  const [adding, setAdding] = useState(false);
  const headingId = useId();
  const pickerId = useId();
  const { add, remove, pending, addError } = useRelatedChanges(record);
  const pendingIds = new Set(pending.map((c) => c.id));

  return (
    <section aria-labelledby={headingId} className="grid content-start gap-3 px-6 py-4">
      <div className="flex items-center gap-2">
        <h3 id={headingId} className="text-sm font-semibold">
          Related items
          {query.data && (
            <span className="text-muted-foreground ml-1.5 font-normal">{query.data.total}</span>
          )}
        </h3>
        <Button
          variant="outline"
          size="sm"
          className="ml-auto"
          aria-expanded={adding}
          aria-controls={pickerId}
          onClick={() => setAdding((open) => !open)}
        >
          {adding ? <X aria-hidden="true" /> : <Plus aria-hidden="true" />}
          {adding ? 'Done adding' : 'Add related item'}
        </Button>
      </div>
      <PendingMarker pending={pending.length > 0} live label={describePending(pending)} />
      {adding && (
        <RelatedPicker
          id={pickerId}
          record={record}
          definitions={definitions}
          related={new Set(query.data?.rows.map((r) => r.id))}
          onAdd={(definition, handle, title) => void add(definition, handle, title)}
          addError={addError}
        />
      )}
      {query.isPending ? (
        <div
          className="grid gap-2"
          role="status"
          aria-busy="true"
          aria-label="Loading related items"
        >
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-12 w-full" />
          ))}
        </div>
      ) : query.isError ? (
        <ErrorPanel compact error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.rows.length === 0 ? (
        <div className="text-muted-foreground flex flex-col items-center gap-2 rounded-md border border-dashed p-6 text-center text-sm">
          <Link2 className="size-5" aria-hidden="true" />
          No related items yet.
        </div>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Related items">
          {query.data.rows.map((row) => (
            <li key={row.id} className="flex items-center gap-3 px-3 py-2">
              <div className="grid min-w-0 flex-1 gap-0.5">
                {row.recordType && row.alias ? (
                  <Link
                    to="/records/$recordType/$alias/$id"
                    params={{ recordType: row.recordType, alias: row.alias, id: row.id }}
                    search={{}}
                    className="focus-visible:ring-ring/50 flex min-w-0 items-center gap-2 rounded-sm text-sm font-medium outline-none hover:underline focus-visible:ring-[3px]"
                  >
                    <span className="bg-secondary text-secondary-foreground shrink-0 rounded px-1.5 py-0.5 font-mono text-xs">
                      {row.id}
                    </span>
                    <span className="truncate">
                      {row.title ?? (row.definition ? 'Untitled' : '')}
                    </span>
                    <PendingMarker pending={pendingIds.has(row.id)} />
                  </Link>
                ) : (
                  // Neither its type nor its handle names a record type described here.
                  <span
                    className="flex min-w-0 items-center gap-2 text-sm font-medium"
                    title="Its record type is not described in this console, so it cannot be opened here"
                  >
                    <span className="bg-secondary text-secondary-foreground shrink-0 rounded px-1.5 py-0.5 font-mono text-xs">
                      {row.id}
                    </span>
                  </span>
                )}
                <span className="text-muted-foreground text-xs">
                  {[row.definition?.name ?? row.alias, row.type.toLowerCase(), row.alias]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </div>
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Remove relation to ${row.id}`}
                title="Remove relation"
                disabled={pendingIds.has(row.id)}
                onClick={() => void remove(row)}
              >
                <Link2Off aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** Picks records of a chosen definition by title (or exact id) and relates them. */
function RelatedPicker({
  id,
  record,
  definitions: allDefinitions,
  related,
  onAdd,
  addError,
}: {
  id: string;
  record: RecordRef;
  definitions: Definition[];
  related: Set<string>;
  onAdd: (definition: Definition, handle: string, title: string | undefined) => void;
  /** Why the last relation was refused (the relation is gone from the list again). */
  addError: unknown;
}) {
  const fieldId = useId();
  // Only record types the service can search, and whose records have a handle to relate by.
  const definitions = allDefinitions.filter((d) => d.listable !== false && d.handleField);
  const [definitionKey, setDefinitionKey] = useState(() => {
    const first = definitions[0];
    return first ? `${first.recordType}/${first.alias}` : '';
  });
  const definition = definitions.find((d) => `${d.recordType}/${d.alias}` === definitionKey);
  const [term, setTerm] = useState('');
  const debounced = useDebounced(term, 250);
  const { sort: serverSort } = useCapabilities();
  const candidates = useQuery({
    ...relatedCandidatesQueryOptions(
      definition ?? (definitions[0] as Definition),
      debounced,
      serverSort,
    ),
    enabled: definition !== undefined,
  });
  // Only records with a handle can be related (the relation names the other record by it).
  const rows = (candidates.data?.items ?? [])
    .map((item) => ({ data: item.data, handle: definition && recordHandle(item.data, definition) }))
    .filter((row): row is { data: RecordData; handle: string } =>
      Boolean(row.handle && row.handle !== record.id),
    );

  return (
    <div id={id} className="bg-muted/40 grid gap-3 rounded-md border p-3">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,12rem)_1fr]">
        <div className="grid gap-1.5">
          <Label htmlFor={`${fieldId}-type`}>Record type</Label>
          <NativeSelect
            id={`${fieldId}-type`}
            value={definitionKey}
            onChange={(event) => setDefinitionKey(event.target.value)}
          >
            {definitions.map((d) => (
              <option key={`${d.recordType}/${d.alias}`} value={`${d.recordType}/${d.alias}`}>
                {d.name} ({d.handle})
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${fieldId}-term`}>Search by title or id</Label>
          <div className="relative">
            <Search
              aria-hidden="true"
              className="text-muted-foreground pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2"
            />
            <Input
              id={`${fieldId}-term`}
              type="search"
              autoComplete="off"
              className="pl-8"
              placeholder={
                definition ? `${definition.titleField ?? 'Title'} or ${definition.handle}-1` : ''
              }
              value={term}
              onChange={(event) => setTerm(event.target.value)}
            />
          </div>
        </div>
      </div>
      {addError !== null && (
        <p role="alert" className="text-destructive text-sm">
          {describeError(addError).title}: {describeError(addError).description}
        </p>
      )}
      <div aria-live="polite" aria-busy={candidates.isFetching}>
        {candidates.isPending ? (
          <p className="text-muted-foreground flex items-center gap-2 text-sm">
            <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Searching…
          </p>
        ) : candidates.isError ? (
          <ErrorPanel compact error={candidates.error} onRetry={() => void candidates.refetch()} />
        ) : rows.length === 0 ? (
          <p className="text-muted-foreground text-sm">No matching records.</p>
        ) : (
          <ul
            className="bg-background max-h-64 divide-y overflow-y-auto rounded-md border"
            aria-label="Matching records"
          >
            {rows.map(({ data, handle }) => {
              const already = related.has(handle);
              const title = definition?.titleField ? data[definition.titleField] : undefined;
              return (
                <li key={handle} className="flex items-center gap-3 px-3 py-1.5">
                  <span className="bg-secondary text-secondary-foreground shrink-0 rounded px-1.5 py-0.5 font-mono text-xs">
                    {handle}
                  </span>
                  <span className="min-w-0 flex-1 truncate text-sm">{title || 'Untitled'}</span>
                  <Button
                    variant={already ? 'ghost' : 'outline'}
                    size="xs"
                    disabled={already}
                    aria-label={already ? `${handle} is related` : `Relate ${handle}`}
                    onClick={() => definition && onAdd(definition, handle, title)}
                  >
                    {already ? 'Related' : 'Relate'}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
