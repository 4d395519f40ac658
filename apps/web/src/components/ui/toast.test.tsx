import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { toast, Toaster } from './toast.tsx';

describe('toast', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows in a polite live region and runs onExpire when its time is up', () => {
    const onExpire = vi.fn();
    render(<Toaster />);
    act(() => {
      toast({ message: 'Removed report.pdf.', onExpire, duration: 6000 });
    });
    expect(screen.getByRole('status')).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('status')).toHaveTextContent('Removed report.pdf.');
    act(() => {
      vi.advanceTimersByTime(5999);
    });
    expect(onExpire).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(onExpire).toHaveBeenCalledOnce();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('Undo runs the action and not onExpire; the countdown pauses while hovered', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const onExpire = vi.fn();
    const undo = vi.fn();
    render(<Toaster />);
    act(() => {
      toast({ message: 'Removed.', action: { label: 'Undo', onClick: undo }, onExpire });
    });
    await user.hover(screen.getByText('Removed.'));
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(onExpire).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledOnce();
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(onExpire).not.toHaveBeenCalled();
  });

  it('shows toasts only in the most recently mounted host (inside an open modal)', () => {
    render(
      <>
        <div data-testid="shell">
          <Toaster />
        </div>
        <div data-testid="modal">
          <Toaster />
        </div>
      </>,
    );
    act(() => {
      toast({ message: 'Hello' });
    });
    expect(screen.getByTestId('modal')).toHaveTextContent('Hello');
    expect(screen.getByTestId('shell')).not.toHaveTextContent('Hello');
  });

  it('keeps at most three; an evicted toast still commits', () => {
    const onExpire = vi.fn();
    render(<Toaster />);
    act(() => {
      toast({ message: 'one', onExpire });
      toast({ message: 'two' });
      toast({ message: 'three' });
      toast({ message: 'four' });
    });
    expect(onExpire).toHaveBeenCalledOnce();
    expect(screen.getByRole('status')).not.toHaveTextContent('one');
    expect(screen.getByRole('status')).toHaveTextContent('four');
  });
});
