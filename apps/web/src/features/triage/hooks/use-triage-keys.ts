import { useEffect, useRef } from 'react';

import type { TriageAction } from '../lib/triage-keys.ts';
import { isTypingTarget, overlayOpen, triageActionFor } from '../lib/triage-keys.ts';

/**
 * The one keyboard handler of triage mode: a window keydown listener that maps keys to actions,
 * ignoring typing (inputs, textareas, selects, contenteditable), open dialogs and menus, repeats
 * of non-movement keys, and events something else already handled.
 *
 * @example
 * useTriageKeys((action) => dispatch(action));
 */
export function useTriageKeys(onAction: (action: TriageAction) => void, enabled = true): void {
  const latest = useRef(onAction);
  latest.current = onAction;
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      if (isTypingTarget(event.target)) return;
      if (overlayOpen(document)) return;
      const action = triageActionFor(event);
      if (!action) return;
      // Holding j/k scrolls through records; holding any other key must not repeat a write.
      if (event.repeat && action.type !== 'next' && action.type !== 'prev') return;
      event.preventDefault();
      latest.current(action);
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [enabled]);
}
