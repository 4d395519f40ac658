import { History } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';

import type { Definition } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';

// The list and the undo (scheduler, checks) load when first opened, not with the records page.
const RecentBulkRunsDialog = lazy(() =>
  import('./recent-bulk-runs-dialog.tsx').then((m) => ({ default: m.RecentBulkRunsDialog })),
);

/**
 * "Recent bulk runs" on the records page: opens the list of the user's bulk changes of this
 * record type in the last 7 days, each of which can be undone.
 */
export function RecentBulkRuns({
  definition,
  onApplied,
}: {
  definition: Definition;
  /** After an undo wrote something: the caller refreshes what it shows. */
  onApplied: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <History aria-hidden="true" /> Recent bulk runs
      </Button>
      {open && (
        <Suspense fallback={null}>
          <RecentBulkRunsDialog
            definition={definition}
            onClose={() => setOpen(false)}
            onApplied={onApplied}
          />
        </Suspense>
      )}
    </>
  );
}
