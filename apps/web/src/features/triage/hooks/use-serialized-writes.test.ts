import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { useSerializedWrites } from './use-serialized-writes.ts';

/** A promise and the functions that settle it, so a test decides when a write finishes. */
function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useSerializedWrites', () => {
  it('starts a task only when the one before it has settled, in order', async () => {
    const { result } = renderHook(() => useSerializedWrites());
    const enqueue = result.current;
    const started: string[] = [];
    const first = deferred<string>();
    const a = enqueue(() => {
      started.push('a');
      return first.promise;
    });
    const b = enqueue(async () => {
      started.push('b');
      return 'b';
    });
    await Promise.resolve();
    expect(started).toEqual(['a']);
    first.resolve('a');
    await expect(a).resolves.toBe('a');
    await expect(b).resolves.toBe('b');
    expect(started).toEqual(['a', 'b']);
  });

  it('runs the next task after a failed one, and hands each caller its own outcome', async () => {
    const { result } = renderHook(() => useSerializedWrites());
    const enqueue = result.current;
    const first = deferred<string>();
    const a = enqueue(() => first.promise);
    const b = enqueue(async () => 'after');
    first.reject(new Error('412'));
    await expect(a).rejects.toThrow('412');
    await expect(b).resolves.toBe('after');
  });

  it('keeps one queue across re-renders', async () => {
    const { result, rerender } = renderHook(() => useSerializedWrites());
    const before = result.current;
    rerender();
    expect(result.current).toBe(before);
  });
});
