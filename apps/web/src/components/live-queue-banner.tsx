import { ArrowUp } from 'lucide-react';

import { Button } from '@/components/ui/button.tsx';

/**
 * "3 new" over the top of a live list (ADR 0025): records created or changed by others that
 * belong among the loaded rows, merged in when the user asks. It floats over the table instead of
 * pushing it down, so showing and hiding it never moves a row. The region is always rendered, so
 * that screen readers announce the count when it appears (aria-live polite).
 *
 * @example
 * <LiveQueueBanner count={live.freshCount} noun="record" onMerge={live.merge} top={44} />
 */
export function LiveQueueBanner({
  count,
  noun,
  onMerge,
  top,
}: {
  count: number;
  noun: string;
  onMerge: () => void;
  /** How far below the list's top edge it floats, in pixels (below a table's header row). */
  top: number;
}) {
  return (
    <div
      aria-live="polite"
      // An inline offset rather than one more class: the class map cn() carries is in the first
      // load (ADR 0022).
      className="pointer-events-none absolute inset-x-0 z-40 flex justify-center"
      style={{ top }}
      data-testid="live-queue-banner"
    >
      {count > 0 && (
        <Button
          size="sm"
          className="pointer-events-auto rounded-full shadow-md"
          onClick={onMerge}
          aria-label={`${count} new ${count === 1 ? noun : `${noun}s`}: show ${count === 1 ? 'it' : 'them'} in the list`}
        >
          <ArrowUp aria-hidden="true" />
          {count} new
        </Button>
      )}
    </div>
  );
}
