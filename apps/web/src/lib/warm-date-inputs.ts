// Chromium builds a date or date-time input's inner editor from the locale's date formats the
// first time one is laid out in a document: 15-60 ms on this project's machines, paid by the
// first record panel opened (its form has date fields). Laying out one of each, hidden, while
// the page is idle moves that cost out of the user's way; later inputs are built at once.

/** The input types whose first layout is slow. */
const WARMED_TYPES = ['date', 'datetime-local'] as const;

/**
 * Lays out one hidden input of each date type and removes them again (call when idle).
 *
 * @example
 * useEffect(() => whenIdle(warmDateInputs), []);
 */
export function warmDateInputs(): void {
  const holder = document.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.cssText =
    'position:fixed;top:0;left:0;visibility:hidden;pointer-events:none;contain:strict;width:0;height:0;overflow:hidden';
  for (const type of WARMED_TYPES) {
    const input = document.createElement('input');
    input.type = type;
    input.tabIndex = -1;
    holder.append(input);
  }
  document.body.append(holder);
  // Reading a size lays the page, and so the inputs, out now, while nothing waits.
  holder.getBoundingClientRect();
  holder.remove();
}
