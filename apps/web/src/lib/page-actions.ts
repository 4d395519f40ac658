// A tiny registry of what the current page can do, for the command palette: pages register their
// actions while mounted; the palette lists them when it opens. No React state: registering must
// not re-render the page, and the palette reads the list once per opening.
import { useEffect } from 'react';

export interface PageAction {
  id: string;
  label: string;
  /** A shortcut to show next to it, e.g. `?`. */
  hint?: string;
  run: () => void;
}

const registered = new Map<symbol, PageAction[]>();

/**
 * The actions of every mounted page, most recently registered first.
 *
 * @example
 * currentPageActions().map((a) => a.label); // ['New record', 'Enter triage']
 */
export function currentPageActions(): PageAction[] {
  return [...registered.values()].reverse().flat();
}

/**
 * Registers `actions` while the calling component is mounted (pass a memoized array).
 *
 * @example
 * usePageActions(useMemo(() => [{ id: 'new', label: 'New record', run: create }], [create]));
 */
export function usePageActions(actions: PageAction[]): void {
  useEffect(() => {
    const key = Symbol('page-actions');
    registered.set(key, actions);
    return () => {
      registered.delete(key);
    };
  }, [actions]);
}
