import type { UserStatus } from '@wsc/api-client';

import { Badge } from '@/components/ui/badge.tsx';
import { cn } from '@/lib/utils.ts';

/**
 * A user's status as a badge: a filled dot for ACTIVE, muted for INACTIVE. The word is always
 * written out, so the colour is never the only signal.
 *
 * @example
 * <UserStatusBadge status="INACTIVE" />
 */
export function UserStatusBadge({ status }: { status: UserStatus }) {
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
      {active ? 'Active' : 'Inactive'}
    </Badge>
  );
}
