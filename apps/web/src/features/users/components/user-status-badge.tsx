import { Badge } from '@/components/ui/badge.tsx';
import { statusLabel } from '@/lib/people.ts';
import { cn } from '@/lib/utils.ts';

/**
 * A user's status as a badge: a filled dot for ACTIVE, muted otherwise (INACTIVE, or no status in
 * the reply). The word is always written out, so the colour is never the only signal.
 *
 * @example
 * <UserStatusBadge status="INACTIVE" />
 */
export function UserStatusBadge({ status }: { status: string | undefined }) {
  const active = status === 'ACTIVE';
  return (
    <Badge
      variant={active ? 'outline' : 'secondary'}
      data-testid="user-status"
      className={cn('gap-1.5', !active && 'text-muted-foreground')}
    >
      <span
        aria-hidden="true"
        className={cn('size-1.5 rounded-full', active ? 'bg-success' : 'bg-muted-foreground/60')}
      />
      {statusLabel(status)}
    </Badge>
  );
}
