import type { ClassValue } from 'clsx';
import { clsx } from 'clsx';
import { createTailwindMerge } from 'tailwind-merge';

import {
  classGroups,
  conflictingClassGroups,
  orderSensitiveModifiers,
} from './tw-merge-config.gen.ts';

/**
 * tailwind-merge with only the classes this console writes (generated, ADR 0022): the same merges
 * as the default `twMerge` on every class in use, without shipping its whole default configuration.
 */
const twMerge = createTailwindMerge(() => ({
  cacheSize: 500,
  theme: {},
  classGroups,
  conflictingClassGroups,
  conflictingClassGroupModifiers: {},
  orderSensitiveModifiers,
}));

/**
 * Joins class names and lets later Tailwind utilities win over earlier conflicting ones.
 *
 * @example
 * cn('px-2 text-sm', isActive && 'bg-accent', className); // className last so callers override
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
