import { useCallback, useMemo, useRef, useState } from 'react';

export interface UndoStack<T> {
  /** How many entries there are, for the Undo button (re-renders when it changes). */
  count: number;
  /** Adds the latest change. */
  push: (entry: T) => void;
  /** Takes the latest change off, or `undefined` when there is none. */
  pop: () => T | undefined;
  /** Takes out the entries `matches` picks (a write that was refused: there is nothing to undo). */
  remove: (matches: (entry: T) => boolean) => void;
  /** Whether an entry `matches` picks is on the stack (a change not undone yet). */
  has: (matches: (entry: T) => boolean) => boolean;
}

/**
 * A last-in, first-out stack of changes to undo. Entries live in a ref (a key press reads the
 * current stack, not a render's copy); `count` follows it in state.
 *
 * @example
 * const undo = useUndoStack<{ id: string; before: RecordData }>();
 * undo.push({ id: 'SUP-1', before: { Status: 'New' } });
 * const last = undo.pop();
 */
export function useUndoStack<T>(): UndoStack<T> {
  const entries = useRef<T[]>([]);
  const [count, setCount] = useState(0);
  const push = useCallback((entry: T) => {
    entries.current.push(entry);
    setCount(entries.current.length);
  }, []);
  const pop = useCallback(() => {
    const last = entries.current.pop();
    setCount(entries.current.length);
    return last;
  }, []);
  const remove = useCallback((matches: (entry: T) => boolean) => {
    entries.current = entries.current.filter((entry) => !matches(entry));
    setCount(entries.current.length);
  }, []);
  const has = useCallback((matches: (entry: T) => boolean) => entries.current.some(matches), []);
  return useMemo(() => ({ count, push, pop, remove, has }), [count, push, pop, remove, has]);
}
