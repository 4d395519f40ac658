import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';

import type { Definition, Field, RecordType } from '@wsc/api-client';

import { formatCount } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { filteredCountQueryOptions, filteredCountsQueryOptions } from '@/queries/record-counts.ts';

import type { Bar } from '../lib/overview-model.ts';
import {
  fieldBars,
  isClosedStatus,
  MAX_BARS,
  openFilter,
  openStatuses,
} from '../lib/overview-model.ts';
import { LazyChartTable } from './lazy-chart-table.tsx';

/** A bar and its count, once known. */
interface CountedBar extends Bar {
  count: number | null | undefined;
  closed: boolean;
}

/**
 * Counts of a definition's records per value of a picklist field, as horizontal bars; each bar
 * links to the records list filtered to that value. "Not set" is asked only when the values
 * leave records out of the definition's `total`.
 */
export function FieldChart({
  definition,
  field,
  total,
  status,
  asTable,
}: {
  definition: Definition;
  field: Field;
  /** The definition's record count (`null`: the server sends no totals). */
  total: number | null;
  /** A status field: closed values are drawn muted and open ones counted. */
  status: boolean;
  asTable: boolean;
}) {
  const recordType = definition.recordType as RecordType;
  const bars = fieldBars(field);
  const valueBars = bars.filter((bar) => !bar.unset);
  const unsetBar = bars.find((bar) => bar.unset);
  const counts = useQuery(
    filteredCountsQueryOptions(
      recordType,
      definition.alias,
      valueBars.map((bar) => bar.filter),
    ),
  );
  const known = counts.data?.every((count) => typeof count === 'number') ?? false;
  const sum = counts.data?.reduce<number>((acc, count) => acc + (count ?? 0), 0) ?? 0;
  const missing = known && total !== null ? total - sum : 0;
  const unset = useQuery({
    ...filteredCountQueryOptions(recordType, definition.alias, unsetBar?.filter ?? ''),
    enabled: unsetBar !== undefined && missing > 0,
  });

  const rows: CountedBar[] = valueBars.map((bar, index) => ({
    ...bar,
    count: counts.data?.[index],
    closed: status && isClosedStatus(bar.label),
  }));
  if (unsetBar && missing > 0) rows.push({ ...unsetBar, count: unset.data, closed: false });
  const openValues = status ? openStatuses(field) : [];
  // Exact only while every open value has its own bar (no "Other values").
  const openFilterText =
    status && (field.values?.length ?? 0) <= MAX_BARS ? openFilter(field) : undefined;
  const open =
    openFilterText === undefined
      ? undefined
      : {
          filter: openFilterText,
          values: openValues,
          count: rows
            .filter((row) => !row.unset && openValues.includes(row.label))
            .reduce((acc, row) => acc + (row.count ?? 0), 0),
        };
  const failed = counts.isError || unset.isError;
  const noTotals = counts.data?.some((count) => count === null) ?? false;
  const max = Math.max(1, ...rows.map((row) => row.count ?? 0));
  const captionId = `chart-${definition.recordType}-${definition.alias}-${field.name}`.replace(
    /[^\w-]/g,
    '_',
  );
  const caption = `${definition.name} by ${field.name}`;

  let body: React.ReactNode;
  if (failed) {
    body = <p className="text-muted-foreground text-sm">The counts could not be read.</p>;
  } else if (noTotals) {
    body = (
      <p className="text-muted-foreground text-sm">
        This service sends no totals, so there is nothing to count.
      </p>
    );
  } else if (asTable) {
    body = (
      <LazyChartTable
        caption={caption}
        columns={[field.name, 'Records']}
        rows={rows.map((row) => ({
          key: row.label,
          label: row.closed ? `${row.label} (closed)` : row.label,
          count: row.count,
          filter: row.filter,
        }))}
        definition={definition}
      />
    );
  } else {
    body = (
      <ul className="grid content-start gap-1" aria-labelledby={captionId}>
        {rows.map((row) => (
          <li key={row.label}>
            {/* No preload on hover: a pointer crossing the bars would load a 100-record page per bar. */}
            <Link
              preload={false}
              to="/records/$recordType/$alias"
              params={{ recordType, alias: definition.alias }}
              search={{ filter: row.filter }}
              data-testid="chart-bar"
              data-filter={row.filter}
              data-count={row.count ?? undefined}
              className="hover:bg-accent/60 focus-visible:ring-ring/50 grid grid-cols-[7rem_1fr_3.5rem] items-center gap-2 rounded-sm px-1 py-0.5 text-sm outline-none focus-visible:ring-[3px]"
            >
              <span className="truncate">
                {row.label}
                {row.closed ? <span className="sr-only"> (closed)</span> : null}
              </span>
              <svg
                aria-hidden="true"
                viewBox="0 0 100 10"
                preserveAspectRatio="none"
                className="h-3 w-full"
              >
                <rect className="fill-muted" x="0" y="0" width="100" height="10" rx="1" />
                <rect
                  className={cn(
                    row.unset
                      ? 'fill-muted-foreground/40'
                      : row.closed
                        ? 'fill-primary/35'
                        : 'fill-primary',
                  )}
                  x="0"
                  y="0"
                  width={Math.max(0, (100 * (row.count ?? 0)) / max)}
                  height="10"
                  rx="1"
                />
              </svg>
              <span className="text-right tabular-nums">
                {row.count === undefined || row.count === null ? '…' : formatCount(row.count)}
                <span className="sr-only"> records</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <figure
      className="grid content-start gap-2"
      aria-labelledby={captionId}
      aria-busy={counts.isPending || unset.isLoading || undefined}
    >
      <figcaption id={captionId} className="text-muted-foreground text-xs font-medium">
        <span className="sr-only">{definition.name}: </span>By {field.name.toLowerCase()}
        {status ? <span className="sr-only"> (closed values drawn lighter)</span> : null}
      </figcaption>
      {body}
      {status && open !== undefined && known && !failed && !noTotals ? (
        <p className="text-sm">
          <Link
            preload={false}
            to="/records/$recordType/$alias"
            params={{ recordType, alias: definition.alias }}
            search={{ filter: open.filter }}
            data-testid="open-count"
            data-filter={open.filter}
            data-count={open.count}
            className="text-primary font-medium underline-offset-4 hover:underline"
          >
            {formatCount(open.count)} open
          </Link>
          <span className="text-muted-foreground"> ({open.values.join(', ')})</span>
        </p>
      ) : null}
    </figure>
  );
}
