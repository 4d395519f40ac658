// Someone else's name as the console shows it wherever a person is named for what they did (the
// history, the administrators' log, shared views): the name, and for an email typed at sign-in a
// visible "unverified" mark; the hover text says how verified the name is (ADR 0026).
import type * as React from 'react';

import type { IdentityKind } from '@/lib/person-label.ts';
import { UNVERIFIED } from '@/lib/person-label.ts';
import { cn } from '@/lib/utils.ts';

/**
 * A name without the "(unverified)" mark (for initials, and where the mark is shown apart).
 *
 * @example
 * bareName('ana@x.example (unverified)'); // 'ana@x.example'
 */
export function bareName(name: string): string {
  return name.endsWith(UNVERIFIED) ? name.slice(0, -UNVERIFIED.length) : name;
}

/**
 * What an identity kind means, in words: the hover text of a name, and what the people filter
 * shows next to each name.
 *
 * @example
 * identityKindLabel('self'); // 'unverified: an email typed at sign-in'
 */
export function identityKindLabel(identity: IdentityKind | undefined): string {
  switch (identity) {
    case 'api':
      return 'verified by the service';
    case 'operator':
      return 'named by the operator';
    case 'none':
      return 'an API client nobody named';
    default:
      return 'unverified: an email typed at sign-in';
  }
}

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
