import { Info } from 'lucide-react';

/**
 * Said beside management controls when nobody could tell the console the signed-in person's role
 * (the hosted service without an identities file): the controls stay, and the service's own
 * answer decides.
 *
 * @example
 * {canManage && !roleKnown && <RoleNote />}
 */
export function RoleNote({ className }: { className?: string }) {
  return (
    <p
      className={`text-muted-foreground flex items-center gap-1.5 text-xs ${className ?? ''}`}
      data-testid="role-note"
    >
      <Info aria-hidden="true" className="size-3.5 shrink-0" />
      Your role is not known to the console, so these controls are shown; the service checks your
      permissions and says so if it refuses.
    </p>
  );
}
