import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Lock } from 'lucide-react';
import { useMemo, useState } from 'react';

import type { Definition, RecordType } from '@wsc/api-client';
import { isApiError } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import { useCapabilities } from '@/lib/capabilities.ts';
import { formatCount } from '@/lib/format.ts';
import { recordCountQueryOptions } from '@/queries/records.ts';

import {
  createdField,
  lastDays,
  openFilter,
  severityField,
  statusField,
} from '../lib/overview-model.ts';
import { CreatedChart } from './created-chart.tsx';
import { FieldChart } from './field-chart.tsx';
import { OldestOpen } from './oldest-open.tsx';

/** Whether the Overview has anything to draw for a definition. */
function chartable(definition: Definition): boolean {
  return (
    statusField(definition) !== undefined ||
    severityField(definition) !== undefined ||
    createdField(definition) !== undefined
  );
}

/** One definition's charts: counts by status and severity, created per day, oldest open. */
function DefinitionOverview({ definition, now }: { definition: Definition; now: Date }) {
  const { sort } = useCapabilities();
  const [asTable, setAsTable] = useState(false);
  const recordType = definition.recordType as RecordType;
  const total = useQuery(recordCountQueryOptions(recordType, definition.alias));
  const status = statusField(definition);
  const severity = severityField(definition);
  const created = createdField(definition);
  const open = status ? openFilter(status) : undefined;
  const days = useMemo(() => lastDays(now), [now]);
  const headingId = `overview-${definition.recordType}-${definition.alias}`.replace(/[^\w-]/g, '_');

  let body: React.ReactNode;
  if (total.isPending) {
    body = <p className="text-muted-foreground text-sm">Counting…</p>;
  } else if (total.isError) {
    body =
      isApiError(total.error) && total.error.status === 403 ? (
        <p className="text-muted-foreground flex items-center gap-2 text-sm">
          <Lock aria-hidden="true" className="size-3.5" />
          You do not have access to these records.
        </p>
      ) : (
        <p className="text-muted-foreground text-sm">The records could not be counted.</p>
      );
  } else {
    body = (
      <div className="grid gap-6 md:grid-cols-2">
        {status ? (
          <FieldChart
            definition={definition}
            field={status}
            total={total.data}
            status
            asTable={asTable}
          />
        ) : null}
        {severity ? (
          <FieldChart
            definition={definition}
            field={severity}
            total={total.data}
            status={false}
            asTable={asTable}
          />
        ) : null}
        {created ? (
          <CreatedChart
            definition={definition}
            field={created.name}
            days={days}
            asTable={asTable}
          />
        ) : null}
        {created && open ? (
          <OldestOpen
            definition={definition}
            createdField={created.name}
            openFilter={open}
            serverSort={sort}
          />
        ) : null}
      </div>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="bg-card grid gap-4 rounded-lg border p-4 shadow-xs"
      data-testid="definition-overview"
      data-alias={definition.alias}
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id={headingId} className="font-medium">
          <Link
            to="/records/$recordType/$alias"
            params={{ recordType, alias: definition.alias }}
            search={{}}
            className="underline-offset-4 hover:underline"
          >
            {definition.name}
          </Link>
        </h2>
        {typeof total.data === 'number' ? (
          <span className="text-muted-foreground text-sm tabular-nums">
            {formatCount(total.data)} records
          </span>
        ) : null}
        <Button
          variant="outline"
          size="xs"
          className="ml-auto"
          aria-pressed={asTable}
          onClick={() => setAsTable((value) => !value)}
        >
          Show as table
        </Button>
      </div>
      {body}
    </section>
  );
}

/**
 * The Overview's charts, one card per definition the user may see that has a status or severity
 * picklist or a created date. Definitions the server cannot list (hosted elements) are named with
 * the reason.
 */
export function OverviewCharts({ definitions }: { definitions: Definition[] }) {
  // The 30 days end today: fixed when the page opens, so the charts' queries keep their keys.
  const [now] = useState(() => new Date());
  const shown = definitions.filter((d) => d.listable !== false && chartable(d));
  const unlisted = definitions.filter((d) => d.listable === false && chartable(d));
  if (shown.length === 0 && unlisted.length === 0) return null;
  return (
    <div className="grid gap-4" data-testid="overview-charts">
      {shown.map((definition) => (
        <DefinitionOverview
          key={`${definition.recordType}/${definition.alias}`}
          definition={definition}
          now={now}
        />
      ))}
      {unlisted.length > 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="overview-unlisted">
          No charts for {unlisted.map((d) => d.name).join(', ')}: this service cannot list{' '}
          {unlisted.length === 1 ? 'its records' : 'their records'}, only open them by handle.
        </p>
      ) : null}
    </div>
  );
}
