import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { useUndoStack } from './use-undo-stack.ts';

describe('useUndoStack', () => {
  it('pops the latest change first and counts what is left', () => {
    const { result } = renderHook(() => useUndoStack<string>());
    expect(result.current.count).toBe(0);
    act(() => {
      result.current.push('first');
      result.current.push('second');
    });
    expect(result.current.count).toBe(2);
    let popped: string | undefined;
    act(() => {
      popped = result.current.pop();
    });
    expect(popped).toBe('second');
    expect(result.current.count).toBe(1);
    act(() => {
      popped = result.current.pop();
    });
    expect(popped).toBe('first');
    expect(result.current.count).toBe(0);
  });

  it('answers undefined when there is nothing to undo', () => {
    const { result } = renderHook(() => useUndoStack<string>());
    let popped: string | undefined = 'x';
    act(() => {
      popped = result.current.pop();
    });
    expect(popped).toBeUndefined();
    expect(result.current.count).toBe(0);
  });

  it('sees pushes made earlier in the same event, before a re-render', () => {
    const { result } = renderHook(() => useUndoStack<number>());
    const popped: (number | undefined)[] = [];
    act(() => {
      const stack = result.current;
      stack.push(1);
      popped.push(stack.pop(), stack.pop());
    });
    expect(popped).toEqual([1, undefined]);
  });

  it('takes out the entries of a refused write, keeping the others in order', () => {
    const { result } = renderHook(() => useUndoStack<string>());
    act(() => {
      result.current.push('first');
      result.current.push('refused');
      result.current.push('third');
      result.current.remove((entry) => entry === 'refused');
    });
    expect(result.current.count).toBe(2);
    let popped: string | undefined;
    act(() => {
      popped = result.current.pop();
    });
    expect(popped).toBe('third');
  });
});
