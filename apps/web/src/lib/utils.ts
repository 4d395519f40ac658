import type { ClassValue } from 'clsx';
import { clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names and lets later Tailwind utilities win over earlier conflicting ones.
 *
 * @example
 * cn('px-2 text-sm', isActive && 'bg-accent', className); // className last so callers override
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
