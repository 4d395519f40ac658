// The triage keyboard map, as pure functions: which key does what, and when keys are ignored.

export type TriageAction =
  | { type: 'next' }
  | { type: 'prev' }
  | { type: 'status'; index: number }
  | { type: 'severity'; index: number }
  | { type: 'assign' }
  | { type: 'edit' }
  | { type: 'comment' }
  | { type: 'save-next' }
  | { type: 'undo' }
  | { type: 'help' };

/** The parts of a KeyboardEvent the map reads (so tests can pass plain objects). */
export interface KeyLike {
  key: string;
  code: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** Every shortcut, for the `?` dialog: one row per line, in the order shown. */
export const TRIAGE_SHORTCUTS: { keys: string[]; label: string }[] = [
  { keys: ['j', '↓'], label: 'Next record' },
  { keys: ['k', '↑'], label: 'Previous record' },
  { keys: ['1', '…', '9'], label: 'Set status (in the order listed)' },
  { keys: ['Shift', '1', '…', '9'], label: 'Set severity (in the order listed)' },
  { keys: ['a'], label: 'Assign: type a name, Enter to pick' },
  { keys: ['e'], label: 'Edit fields (Escape leaves the editor)' },
  { keys: ['c'], label: 'Comment (Ctrl/⌘ + Enter posts it)' },
  { keys: ['n'], label: 'Save edits and go to the next record' },
  {
    keys: ['Shift', 'Enter'],
    label: 'Save edits and go to the next record (also inside the editor)',
  },
  { keys: ['u'], label: 'Undo the last change' },
  { keys: ['?'], label: 'Show these shortcuts' },
  { keys: ['Ctrl/⌘', 'K'], label: 'Command palette' },
];

/**
 * Whether a key event comes from somewhere the user types: inputs, textareas, selects and
 * contenteditable regions never trigger single-key shortcuts.
 *
 * @example
 * isTypingTarget(document.createElement('textarea')); // true
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return (
    element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !==
    null
  );
}

/** `Digit1`..`Digit9` -> 0..8 (the physical key, so Shift+1 on any layout still reads as 1). */
function digitIndex(event: KeyLike): number | undefined {
  const match = /^(?:Digit|Numpad)([1-9])$/.exec(event.code);
  if (match?.[1]) return Number(match[1]) - 1;
  if (!event.shiftKey && /^[1-9]$/.test(event.key)) return Number(event.key) - 1;
  return undefined;
}

/**
 * The triage action of a key press, or null for keys triage leaves alone (anything with Ctrl,
 * Meta or Alt, so browser and palette shortcuts keep working).
 *
 * @example
 * triageActionFor({ key: 'j', code: 'KeyJ', shiftKey: false, ctrlKey: false, metaKey: false, altKey: false });
 * // { type: 'next' }
 */
export function triageActionFor(event: KeyLike): TriageAction | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (event.key === 'Enter') return event.shiftKey ? { type: 'save-next' } : null;
  if (event.key === '?') return { type: 'help' };
  const digit = digitIndex(event);
  if (digit !== undefined) {
    return event.shiftKey ? { type: 'severity', index: digit } : { type: 'status', index: digit };
  }
  if (event.shiftKey) return null;
  switch (event.key) {
    case 'j':
    case 'ArrowDown':
      return { type: 'next' };
    case 'k':
    case 'ArrowUp':
      return { type: 'prev' };
    case 'a':
      return { type: 'assign' };
    case 'e':
      return { type: 'edit' };
    case 'c':
      return { type: 'comment' };
    case 'n':
      return { type: 'save-next' };
    case 'u':
      return { type: 'undo' };
    default:
      return null;
  }
}

/**
 * Whether a dialog, menu or listbox popup is open: then keys belong to it, not to triage.
 *
 * @example
 * if (overlayOpen(document)) return;
 */
export function overlayOpen(doc: Document): boolean {
  return doc.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"]') !== null;
}
