// The mark of a value shown before the server confirmed it (optimistic writes, ADR 0028): a small
// spinner and "Saving…". On a field it is a polite live region, so a screen reader hears that the
// value is being saved (and, when it stops, nothing more: the status line says how it ended); on
// a list row it is quiet text, as a row of a long list must not announce itself.
import { Loader2 } from 'lucide-react';

import { cn } from '@/lib/utils.ts';

/**
 * "Saving…" while `pending`. `live` (a field): the region stays in the page and only its text
 * comes and goes, which is what screen readers announce reliably.
 *
 * @example
 * <PendingMarker pending={pendingFields.has('Status')} live />
 */
export function PendingMarker({
  pending,
  live = false,
  label = 'Saving…',
  className,
}: {
  pending: boolean;
  live?: boolean;
  label?: string;
  className?: string;
}) {
  if (!live && !pending) return null;
  return (
    <span
      role={live ? 'status' : undefined}
      data-pending={pending || undefined}
      className={cn('text-muted-foreground inline-flex items-center gap-1 text-xs', className)}
    >
      {pending && (
        <>
          <Loader2 aria-hidden="true" className="size-3 animate-spin" />
          {label}
        </>
      )}
    </span>
  );
}
