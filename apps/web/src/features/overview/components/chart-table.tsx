import { Link } from '@tanstack/react-router';

import type { Definition, RecordType } from '@wsc/api-client';

import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table.tsx';
import { formatCount } from '@/lib/format.ts';

/** A row of a chart's table: what it counts, its count, and the list filter it opens. */
export interface ChartTableRow {
  key: string;
  label: string;
  count: number | null | undefined;
  filter: string;
}

/**
 * A chart as a table ("Show as table"), for screen readers and anyone who would rather read the
 * numbers: every count links to the records list filtered like the chart's segment.
 */
export function ChartTable({
  caption,
  columns,
  rows,
  definition,
}: {
  caption: string;
  columns: [string, string];
  rows: ChartTableRow[];
  definition: Definition;
}) {
  return (
    <Table className="max-w-md">
      <caption className="sr-only">{caption}</caption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{columns[0]}</TableHead>
          <TableHead scope="col" className="text-right">
            {columns[1]}
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.key}>
            <TableCell>{row.label}</TableCell>
            <TableCell className="text-right tabular-nums">
              {row.count === undefined || row.count === null ? (
                '…'
              ) : (
                <Link
                  preload={false}
                  to="/records/$recordType/$alias"
                  params={{
                    recordType: definition.recordType as RecordType,
                    alias: definition.alias,
                  }}
                  search={{ filter: row.filter }}
                  data-testid="table-count"
                  data-filter={row.filter}
                  className="text-primary inline-flex min-h-6 min-w-6 items-center justify-end underline-offset-4 hover:underline"
                >
                  {formatCount(row.count)}
                  <span className="sr-only"> {row.label} records</span>
                </Link>
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
