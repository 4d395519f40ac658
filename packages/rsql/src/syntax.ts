/**
 * Lexical rules shared by the parser and the serializer, so that what one writes unquoted the other
 * reads back identically.
 *
 * Unquoted selectors and values are runs of "plain" characters: anything except whitespace (the
 * JavaScript `\s` set), control characters (Unicode Cc) and the reserved characters
 *
 *     "  '  (  )  ;  ,  \  =  !  <  >  ~
 *
 * So `*` (like wildcards), `@ . - + :` (emails, numbers, dates, times), `/ % # & ? $ [ ] { } | ^`
 * and every non-ASCII character may appear unquoted. `=`, `!`, `<`, `>`, `~` are reserved to keep
 * typos such as `a===b` or `a>=1` errors rather than odd values; a backslash is reserved because
 * outside quotes it would look like an escape but not be one.
 *
 * - An unquoted selector may also hold whitespace between plain characters (`Created At`); it is
 *   trimmed.
 * - In a `:`-separated list (only after `=bt=`, `!bt=`, `=nbt=`, `=in=`, `=out=`, `!in=`, and only
 *   outside parentheses) `:` separates values, except inside an ISO timestamp matched greedily at
 *   the start of each element (`TIMESTAMP`), which keeps its own colons. Elsewhere `:` is plain:
 *   `Time==10:30` is one value, `=in=(a:b,c)` two.
 * - Quoted text uses `'` or `"`; a backslash makes the next character literal (`\'`, `\"`, `\\`,
 *   `\x` is `x`). Quoted text may contain anything, newlines included.
 * - The unquoted word `null` is the null value; `and` / `or` (lower case, whitespace before, and
 *   whitespace, `(` or the end after) are logical keywords where a `;` / `,` could stand.
 */

const RESERVED_CODES = new Set([...`"'();,\\=!<>~`].map((c) => c.charCodeAt(0)));

/** Exactly JavaScript's `\s` (WhiteSpace and LineTerminator), by code unit. */
export function isWhitespaceCode(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isReservedCode(c: number): boolean {
  return RESERVED_CODES.has(c);
}

/** Unicode category Cc: C0 controls, DEL and C1 controls. */
function isControlCode(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/** A character that may appear in an unquoted selector or value. */
export function isPlainCode(c: number): boolean {
  return !isControlCode(c) && !isWhitespaceCode(c) && !isReservedCode(c);
}

/** Characters that may start a comparison operator; an unquoted selector ends at the first one. */
export function isOperatorStartCode(c: number): boolean {
  return c === 0x3d || c === 0x21 || c === 0x3c || c === 0x3e || c === 0x7e; // = ! < > ~
}

/** Words that are not plain values (`null`) or could be read as logical keywords. */
export const KEYWORDS: ReadonlySet<string> = new Set(['null', 'and', 'or']);

/**
 * Sticky: an ISO timestamp whose colons do not separate list elements. The longest match that ends
 * where an element can end (before `:`, a non-plain character or the end) wins, so that
 * `2024-01-01T10:00:2024-01-01T11:00` is two times rather than `...10:00:20` plus `24-01-...`.
 */
export const TIMESTAMP =
  /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?(?![^\s"'();,\\=!<>~:\p{Cc}])/uy;

/** Wraps text in single quotes, escaping `'` and `\`. */
export function quote(text: string): string {
  return `'${text.replace(/['\\]/g, '\\$&')}'`;
}
