// Someone else's name as the console shows it wherever a person is named for what they did (the
// history, the administrators' log, shared views): the name, and for an email typed at sign-in a
// visible "unverified" mark; the hover text says how verified the name is (ADR 0026).
import type * as React from 'react';

import type { IdentityKind } from '@/lib/people.ts';
import { bareName, identityKindLabel } from '@/lib/people.ts';
import { cn } from '@/lib/utils.ts';

/**
 * The name with its identity kind.
 *
 * @example
 * <PersonName name={entry.actor.name} identity={entry.identity} />
 */
export function PersonName({
  name,
  identity,
  className,
  ...props
}: React.ComponentProps<'span'> & { name: string; identity: IdentityKind | undefined }) {
  const unverified = identity === 'self' || identity === undefined;
  return (
    <span
      {...props}
      data-slot="person-name"
      data-identity={identity ?? 'self'}
      title={identityKindLabel(identity)}
      className={cn('inline-flex items-baseline gap-1', className)}
    >
      <span>{bareName(name)}</span>
      {unverified && (
        <>
          {' '}
          <span className="rounded border border-dashed px-1 text-[10px] font-normal uppercase">
            (unverified)
          </span>
        </>
      )}
    </span>
  );
}
