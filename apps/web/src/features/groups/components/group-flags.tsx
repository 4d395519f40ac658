import { Check, Minus } from 'lucide-react';

import type { Group } from '@wsc/api-client';

import { cn } from '@/lib/utils.ts';

/** The group flags, in the order the console shows them, with what each one means. */
export const GROUP_FLAGS = [
  { key: 'assignable', label: 'Assignable', hint: 'Records can be assigned to the group' },
  { key: 'watchable', label: 'Watchable', hint: 'The group can watch records' },
  { key: 'mentionable', label: 'Mentionable', hint: 'The group can be @mentioned' },
  { key: 'managed', label: 'Managed', hint: 'Managed by the workspace file' },
  { key: 'dynamic', label: 'Dynamic', hint: 'Membership follows rules, not hand-picked' },
] as const satisfies readonly { key: keyof Group; label: string; hint: string }[];

/**
 * One flag, on or off: the state is in the words ("Assignable" / "Not assignable") and the icon,
 * never in colour alone.
 *
 * @example
 * <GroupFlag label="Assignable" on={group.assignable} />
 */
export function GroupFlag({ label, on, hint }: { label: string; on: boolean; hint?: string }) {
  const Icon = on ? Check : Minus;
  return (
    <span
      title={hint}
      className={cn(
        'inline-flex items-center gap-1 rounded-md border px-1.5 py-0.5 text-xs font-medium whitespace-nowrap',
        on ? 'text-foreground' : 'text-muted-foreground border-dashed',
      )}
    >
      <Icon aria-hidden="true" className="size-3" />
      {on ? label : `Not ${label.toLowerCase()}`}
    </span>
  );
}

/**
 * Every flag of a group as a list.
 *
 * @example
 * <GroupFlags group={group} />
 */
export function GroupFlags({ group, only }: { group: Group; only?: 'on' }) {
  const flags = GROUP_FLAGS.filter((flag) => only !== 'on' || group[flag.key]);
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Flags">
      {flags.map((flag) => (
        <li key={flag.key}>
          <GroupFlag label={flag.label} on={group[flag.key]} hint={flag.hint} />
        </li>
      ))}
    </ul>
  );
}
