import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@wsc/api-client';

import { ErrorPanel } from './error-panel.tsx';

describe('ErrorPanel', () => {
  it.each([
    [403, undefined, "You don't have access", false],
    [404, undefined, 'Not found', false],
    [422, undefined, 'Some values were not accepted', false],
    [429, 7, 'Too many requests — try again in 7 s', true],
    [500, undefined, 'The service had a problem', true],
    [503, undefined, 'The service had a problem', true],
    [0, undefined, 'Could not reach the server', true],
  ])('status %i reads plainly', async (status, retryAfter, title, retryable) => {
    const onRetry = vi.fn();
    render(
      <ErrorPanel error={new ApiError({ status, code: 'x', retryAfter })} onRetry={onRetry} />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(title);
    const retry = screen.queryByRole('button', { name: 'Try again' });
    if (retryable) {
      await userEvent.click(retry as HTMLElement);
      expect(onRetry).toHaveBeenCalledOnce();
    } else {
      expect(retry).toBeNull();
    }
  });
});
