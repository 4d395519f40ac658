// A small marker on a list row for a record someone else has open: their initials, named for
// screen readers ("Ana has this open"; a name typed at sign-in marked unverified), in the primary
// colour when one of them is editing.
import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { bareName } from '@/components/person-name.tsx';
import { personLabel } from '@/lib/person-label.ts';
import { cn } from '@/lib/utils.ts';

function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : [name];
  return letters
    .map((w) => w?.[0] ?? '')
    .join('')
    .toUpperCase();
}

/**
 * The marker, or nothing when nobody else has the record open.
 *
 * @example
 * <PresenceMarker entries={open.get(row.id)} />
 */
export function PresenceMarker({ entries }: { entries: readonly PresenceEntry[] | undefined }) {
  if (!entries || entries.length === 0) return null;
  const names = [...new Set(entries.map((e) => personLabel(e.user.name, e.identity)))];
  const editing = entries.some((e) => e.editing);
  const label = `${names.join(', ')} ${names.length > 1 ? 'have' : 'has'} this open${editing ? ' (editing)' : ''}`;
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-testid="presence-marker"
      className={cn(
        'inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full px-1 text-[10px] font-semibold',
        // Theme tokens only: the class merger's table (in the first load) already knows them.
        editing ? 'bg-primary text-primary-foreground' : 'bg-secondary text-secondary-foreground',
      )}
    >
      {names.length > 1
        ? `${initials(bareName(names[0] ?? ''))}+${names.length - 1}`
        : initials(bareName(names[0] ?? ''))}
    </span>
  );
}
