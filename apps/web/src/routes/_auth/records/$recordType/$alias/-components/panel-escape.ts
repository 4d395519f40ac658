/** Inputs that take typed text; other inputs (checkboxes, buttons, ranges) do nothing on Escape. */
const TEXT_ENTRY =
  'textarea, select, input:not([type="checkbox"], [type="radio"], [type="button"], [type="submit"], [type="reset"], [type="range"], [type="file"], [type="color"])';

/**
 * Whether an Escape pressed in `target` belongs to it rather than to the record panel (ADR 0033):
 * the panel is not modal, so Escape may come from the list beside it, and a text field there
 * (the list's search, an inline editor) clears or cancels on Escape. Anywhere else, and anywhere
 * inside the panel, Escape closes the panel.
 *
 * @example
 * escapeBelongsOutside(listSearchInput); // true: the panel stays open
 * escapeBelongsOutside(rowCheckbox); // false: the panel closes
 */
export function escapeBelongsOutside(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[data-slot="sheet-content"]')) return false;
  return target.isContentEditable || target.matches(TEXT_ENTRY);
}
