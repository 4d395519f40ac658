import { TriangleAlert } from 'lucide-react';

/**
 * Says that some items of a list could not be shown because the service sent them without what
 * the console needs (an id to link by), and why: the rest of the list still works.
 *
 * @example
 * <SkippedNote pages={query.data?.pages} noun="user" />
 */
export function SkippedNote({
  pages,
  noun,
  className,
}: {
  pages: { skipped: number; skippedReason?: string }[] | undefined;
  noun: string;
  className?: string;
}) {
  const skipped = pages?.reduce((sum, page) => sum + page.skipped, 0) ?? 0;
  if (skipped === 0) return null;
  const reason = pages?.find((page) => page.skippedReason)?.skippedReason;
  return (
    <p
      className={`text-muted-foreground flex items-center gap-1.5 text-xs ${className ?? ''}`}
      data-testid="skipped-note"
      title={reason}
    >
      <TriangleAlert aria-hidden="true" className="size-3.5 shrink-0" />
      {skipped === 1 ? `1 ${noun} could not be shown` : `${skipped} ${noun}s could not be shown`}:
      the service sent {skipped === 1 ? 'it' : 'them'} without an id{reason ? ` (${reason})` : ''}.
    </p>
  );
}
