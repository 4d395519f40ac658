// Intent preload for plain elements (table rows): a pointer that rests on an item for a moment
// starts what opening it needs; passing over on the way elsewhere starts nothing. Links go through
// TanStack Router's own `preload: 'intent'` with the same delay (main.tsx).
import { useEffect, useMemo, useRef } from 'react';

import { INTENT_DELAY_MS } from './intent-delay.ts';

/**
 * Watches which item the pointer rests on: `over(key)` on entering an item (again for the same
 * item changes nothing), `leave()` on leaving; `onIntent(key)` runs once the pointer stayed
 * `delayMs` on one item, and not again for it until the pointer left it.
 *
 * @example
 * const intent = new HoverIntent((id) => prefetch(id));
 * row.onmouseover = () => intent.over('SUP-1');
 */
export class HoverIntent {
  #key: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #onIntent: (key: string) => void;
  readonly #delayMs: number;

  constructor(onIntent: (key: string) => void, delayMs = INTENT_DELAY_MS) {
    this.#onIntent = onIntent;
    this.#delayMs = delayMs;
  }

  over(key: string | undefined): void {
    if (key === this.#key) return;
    this.leave();
    this.#key = key;
    if (key === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#onIntent(key);
    }, this.#delayMs);
  }

  leave(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#key = undefined;
  }
}

/**
 * Pointer handlers for a container of items marked `data-row-id`: one pair of listeners for the
 * whole list (the rows stay memoized), the intent per item.
 *
 * @example
 * const intent = useRowIntent((id) => void queryClient.prefetchQuery(recordQueryOptions(t, a, id)));
 * <tbody onMouseOver={intent.onMouseOver} onMouseLeave={intent.onMouseLeave}>
 */
export function useRowIntent(onIntent: ((id: string) => void) | undefined) {
  const latest = useRef(onIntent);
  latest.current = onIntent;
  const intent = useMemo(() => new HoverIntent((id) => latest.current?.(id)), []);
  useEffect(() => () => intent.leave(), [intent]);
  return useMemo(
    () => ({
      onMouseOver: (event: React.MouseEvent) => {
        const row = (event.target as Element).closest?.('[data-row-id]');
        intent.over(row?.getAttribute('data-row-id') ?? undefined);
      },
      onMouseLeave: () => intent.leave(),
    }),
    [intent],
  );
}
