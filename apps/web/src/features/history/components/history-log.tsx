import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Download, Eraser } from 'lucide-react';
import { useId, useState } from 'react';

import type { RecordType } from '@wsc/api-client';

import { Button, buttonVariants } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { isoToLocalInput, localInputToIso } from '@/lib/format.ts';
import { definitionsQueryOptions } from '@/queries/definitions.ts';

import type { HistoryFilters } from '../api/history.ts';
import { historyExportUrl, historyLogQueryOptions } from '../api/history.ts';
import { EraseDialog } from './erase-dialog.tsx';
import { HistoryList } from './history-list.tsx';
import { PeopleSelect } from './people-select.tsx';

/** The filters a submitted form names (an empty field is no filter). */
function filtersOf(form: FormData): HistoryFilters {
  const value = (name: string) => {
    const raw = form.get(name);
    return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
  };
  const [recordType, alias] = value('definition')?.split('/') ?? [];
  const time = (name: string) => {
    const local = value(name);
    return local ? localInputToIso(local) || undefined : undefined;
  };
  return {
    user: value('user'),
    recordType: recordType as RecordType | undefined,
    alias,
    from: time('from'),
    to: time('to'),
  };
}

/**
 * The administrators' view of the region's record history: filters (a person picked by id, record
 * type, time), the changes newest first, "Load more", the same selection as CSV, and the erase.
 */
export function HistoryLog({
  filters,
  onFiltersChange,
}: {
  filters: HistoryFilters;
  onFiltersChange: (filters: HistoryFilters) => void;
}) {
  const query = useInfiniteQuery(historyLogQueryOptions(filters));
  const definitions = useQuery(definitionsQueryOptions());
  const id = useId();
  const [erasing, setErasing] = useState(false);
  const definition =
    filters.recordType && filters.alias ? `${filters.recordType}/${filters.alias}` : '';

  return (
    <div className="grid min-h-0 flex-1 content-start gap-4 overflow-y-auto px-6 pb-6">
      <p className="text-muted-foreground text-sm">
        Every change made through the console in this region. Changes made outside the console are
        not listed. A name marked unverified is an email its user typed at sign-in; people are
        filtered by who they are, not by the name shown.
      </p>
      <form
        aria-label="Filter history"
        // A new selection gives the fields the URL's values again.
        key={JSON.stringify(filters)}
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          onFiltersChange(filtersOf(new FormData(event.currentTarget)));
        }}
      >
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-user`}>User</Label>
          <PeopleSelect id={`${id}-user`} defaultValue={filters.user} className="w-72" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-definition`}>Record type</Label>
          <NativeSelect
            id={`${id}-definition`}
            name="definition"
            defaultValue={definition}
            className="w-48"
          >
            <option value="">All</option>
            {definitions.data?.items.map((d) => (
              <option key={`${d.recordType}/${d.alias}`} value={`${d.recordType}/${d.alias}`}>
                {d.name}
              </option>
            ))}
            {/* A selection from the URL shows even before (or without) the definitions. */}
            {definition &&
              !definitions.data?.items.some((d) => `${d.recordType}/${d.alias}` === definition) && (
                <option value={definition}>{filters.alias}</option>
              )}
          </NativeSelect>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input
            id={`${id}-from`}
            name="from"
            type="datetime-local"
            defaultValue={filters.from ? isoToLocalInput(filters.from) : ''}
            className="w-52"
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input
            id={`${id}-to`}
            name="to"
            type="datetime-local"
            defaultValue={filters.to ? isoToLocalInput(filters.to) : ''}
            className="w-52"
          />
        </div>
        <Button type="submit">Apply filters</Button>
        <a
          href={historyExportUrl(filters)}
          download="history.csv"
          className={buttonVariants({ variant: 'outline' })}
        >
          <Download aria-hidden="true" />
          Export CSV
        </a>
        <Button type="button" variant="outline" onClick={() => setErasing(true)}>
          <Eraser aria-hidden="true" />
          Erase…
        </Button>
      </form>
      {erasing && (
        <EraseDialog
          definitions={definitions.data?.items ?? []}
          person={filters.user}
          onClose={() => setErasing(false)}
        />
      )}
      <HistoryList
        query={query}
        empty="No changes match these filters."
        more="Load more"
        showRecord
      />
    </div>
  );
}
