import type { Definition } from '@wsc/api-client';

/**
 * A record handle typed into the palette (`SUP-42`, `sup 42`, `sup-42`) and the definition its
 * prefix names, or undefined.
 *
 * @example
 * parseRecordId('sup-42', definitions); // { id: 'SUP-42', definition: supportTickets }
 */
export function parseRecordId(
  term: string,
  definitions: readonly Definition[],
): { id: string; definition: Definition } | undefined {
  const match = /^\s*([A-Za-z]+)[-\s]?(\d+)\s*$/.exec(term);
  if (!match?.[1] || !match[2]) return undefined;
  const handle = match[1].toUpperCase();
  const definition = definitions.find((d) => d.handle.toUpperCase() === handle);
  if (!definition) return undefined;
  return { id: `${definition.handle}-${Number(match[2])}`, definition };
}

/**
 * Whether every word of the search term occurs in one of the texts (case-insensitive).
 *
 * @example
 * matchesTerm('open tick', ['Open tickets']); // true
 */
export function matchesTerm(term: string, texts: readonly (string | undefined)[]): boolean {
  const words = term.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = texts.filter(Boolean).join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}
