// Parse options and their defaults, apart from the parser so that building and serializing a
// filter (the console's first load) does not carry the parser.

/**
 * Which RSQL the text must be written in. `extended`: everything this package reads (our API's
 * dialect). `hosted`: only what the hosted API's published contract shows: the operators
 * `== != =gt= =ge= =lt= =le= =bt= !bt= =in= !in= =lk= !lk= =lki= !lki=`, lists as `a:b`, `;` and
 * `,` between comparisons, no grouping parentheses and no `and` / `or` keywords (see ADR 0011).
 */
export type Dialect = 'extended' | 'hosted';

export interface ParseOptions {
  /** The dialect to accept; default `extended`. */
  dialect?: Dialect;
  /** Longest accepted input in UTF-8 bytes; default 4096. */
  maxLength?: number;
  /** Deepest accepted nesting of grouping parentheses; default 10. */
  maxDepth?: number;
  /** Most comparisons accepted in one filter; default 100. */
  maxComparisons?: number;
}

export const DEFAULT_PARSE_OPTIONS: Readonly<Required<ParseOptions>> = Object.freeze({
  dialect: 'extended',
  maxLength: 4096,
  maxDepth: 10,
  maxComparisons: 100,
});
