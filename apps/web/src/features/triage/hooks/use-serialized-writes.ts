import { useCallback, useRef } from 'react';

/**
 * Runs tasks one at a time, in the order they were queued: a task starts when the one before it
 * settled (resolved or failed), so a second key press waits for the first write and its
 * If-Match is current. Each call answers with its own task's result or failure.
 *
 * @example
 * const enqueue = useSerializedWrites();
 * await enqueue(() => saveRecord(input));
 */
export function useSerializedWrites(): <T>(task: () => Promise<T>) => Promise<T> {
  const writes = useRef<Promise<unknown>>(Promise.resolve());
  return useCallback(<T>(task: () => Promise<T>): Promise<T> => {
    const run = writes.current.then(task, task);
    writes.current = run.catch(() => undefined);
    return run;
  }, []);
}
