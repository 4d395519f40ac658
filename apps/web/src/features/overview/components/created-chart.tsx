import { useQuery } from '@tanstack/react-query';
import { useLinkProps } from '@tanstack/react-router';

import type { Definition, RecordType } from '@wsc/api-client';

import { formatCount } from '@/lib/format.ts';

import type { Day } from '../lib/overview-model.ts';
import { createdPerDayQueryOptions } from '../api/overview.ts';
import { createdBetween } from '../lib/overview-model.ts';
import { LazyChartTable } from './lazy-chart-table.tsx';

const WIDTH = 300;
const HEIGHT = 80;
const PAD = 6;

const dayLabel = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** `YYYY-MM-DD` -> "24 Nov" in the viewer's locale (noon, so no zone can shift the day). */
function labelOf(day: Day): string {
  const [y, m, d] = day.key.split('-').map(Number);
  return dayLabel.format(new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1, 12));
}

/** One day's point: an SVG link to the records created that day. */
function DayPoint({
  definition,
  filter,
  x,
  y,
  label,
  count,
}: {
  definition: Definition;
  filter: string;
  x: number;
  y: number;
  label: string;
  count: number;
}) {
  const { href, onClick } = useLinkProps({
    to: '/records/$recordType/$alias',
    params: { recordType: definition.recordType as RecordType, alias: definition.alias },
    search: { filter },
    preload: false,
  });
  return (
    <a
      href={href}
      onClick={onClick}
      aria-label={`${label}: ${formatCount(count)} created`}
      data-testid="chart-day"
      data-filter={filter}
      data-count={count}
      className="group outline-none"
    >
      {/* A column as wide as the day, so the point is easy to hit. */}
      <rect
        x={x - (WIDTH - 2 * PAD) / 60}
        y={0}
        width={(WIDTH - 2 * PAD) / 30}
        height={HEIGHT}
        className="group-hover:fill-accent group-focus-visible:fill-accent fill-transparent"
      />
      <circle
        cx={x}
        cy={y}
        r={2.5}
        className="fill-primary group-focus-visible:stroke-ring group-focus-visible:stroke-2"
      />
    </a>
  );
}

/**
 * Records created per day over the viewer's last 30 days, as a line; each day's point links to
 * the records list filtered to that day.
 */
export function CreatedChart({
  definition,
  field,
  days,
  asTable,
}: {
  definition: Definition;
  field: string;
  days: Day[];
  asTable: boolean;
}) {
  const query = useQuery(createdPerDayQueryOptions(definition, field, days));
  const captionId = `created-${definition.recordType}-${definition.alias}`.replace(/[^\w-]/g, '_');
  const caption = `${definition.name} created per day, last ${days.length} days`;

  let body: React.ReactNode;
  if (query.isPending) {
    body = <p className="text-muted-foreground text-sm">Counting…</p>;
  } else if (query.isError) {
    body = <p className="text-muted-foreground text-sm">The counts could not be read.</p>;
  } else if (query.data.kind === 'unavailable') {
    body = (
      <p className="text-muted-foreground text-sm" data-testid="created-unavailable">
        {query.data.reason}
      </p>
    );
  } else {
    const { counts } = query.data;
    const rows = days.map((day, index) => ({
      key: day.key,
      label: labelOf(day),
      count: counts[index] ?? 0,
      filter: createdBetween(field, day.start, day.end),
    }));
    if (asTable) {
      body = (
        <LazyChartTable
          caption={caption}
          columns={['Day', 'Created']}
          rows={rows}
          definition={definition}
        />
      );
    } else {
      const peak = Math.max(0, ...rows.map((row) => row.count));
      const max = Math.max(1, peak);
      const step = (WIDTH - 2 * PAD) / Math.max(1, rows.length - 1);
      const points = rows.map((row, index) => ({
        ...row,
        x: PAD + index * step,
        y: HEIGHT - PAD - ((HEIGHT - 2 * PAD) * row.count) / max,
      }));
      body = (
        <div className="grid gap-1">
          <svg
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            role="group"
            aria-labelledby={captionId}
            className="h-auto w-full max-w-xl overflow-visible"
          >
            <line
              x1={PAD}
              x2={WIDTH - PAD}
              y1={HEIGHT - PAD}
              y2={HEIGHT - PAD}
              className="stroke-border"
              strokeWidth={1}
            />
            <polyline
              points={points.map((p) => `${p.x},${p.y}`).join(' ')}
              fill="none"
              strokeWidth={1.5}
              strokeLinejoin="round"
              className="stroke-primary"
            />
            {points.map((point) => (
              <DayPoint
                key={point.key}
                definition={definition}
                filter={point.filter}
                x={point.x}
                y={point.y}
                label={point.label}
                count={point.count}
              />
            ))}
          </svg>
          <div className="text-muted-foreground flex max-w-xl justify-between text-xs">
            <span>{rows[0]?.label}</span>
            <span>Peak {formatCount(peak)} a day</span>
            <span>{rows.at(-1)?.label}</span>
          </div>
        </div>
      );
    }
  }

  return (
    <figure className="grid content-start gap-2" aria-labelledby={captionId}>
      <figcaption id={captionId} className="text-muted-foreground text-xs font-medium">
        <span className="sr-only">{definition.name}: </span>Created per day, last {days.length} days
        {query.data?.kind === 'counts' ? ` (${formatCount(query.data.total)} in all)` : null}
      </figcaption>
      {body}
    </figure>
  );
}
