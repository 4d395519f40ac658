import { ArrowUp } from 'lucide-react';

import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/utils.ts';

/**
 * "3 new" over the top of a live list (ADR 0025): records created or changed by others that
 * belong among the loaded rows, merged in when the user asks. It floats over the table instead of
 * pushing it down, so showing and hiding it never moves a row. The region is always rendered, so
 * that screen readers announce the count when it appears (aria-live polite).
 *
 * @example
 * <LiveQueueBanner count={live.freshCount} noun="record" onMerge={live.merge} />
 */
export function LiveQueueBanner({
  count,
  noun,
  onMerge,
  className,
}: {
  count: number;
  noun: string;
  onMerge: () => void;
  /** Where it floats (a `top-*` class): below the table's header row by default. */
  className?: string | undefined;
}) {
  return (
    <div
      aria-live="polite"
      className={cn(
        'pointer-events-none absolute inset-x-0 top-11 z-20 flex justify-center',
        className,
      )}
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
