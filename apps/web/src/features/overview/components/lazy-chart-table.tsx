import { lazy, Suspense } from 'react';

import type { ChartTable as ChartTableComponent } from './chart-table.tsx';

// The tables load when first asked for ("Show as table"): the Overview's first view stays small.
const ChartTable = lazy(() =>
  import('./chart-table.tsx').then((module) => ({ default: module.ChartTable })),
);

/** {@link ChartTableComponent}, loaded on first use. */
export function LazyChartTable(props: React.ComponentProps<typeof ChartTableComponent>) {
  return (
    <Suspense fallback={<p className="text-muted-foreground text-sm">Loading the table…</p>}>
      <ChartTable {...props} />
    </Suspense>
  );
}
