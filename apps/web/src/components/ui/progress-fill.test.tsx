import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ProgressFill } from './progress-fill.tsx';

const fill = (fraction: number | undefined) =>
  render(<ProgressFill fraction={fraction} />).container.firstElementChild as HTMLElement;

describe('ProgressFill', () => {
  it('scales from the left by the fraction, clamped to 0..1, and never sets a width', () => {
    expect(fill(0.25).style.transform).toBe('scaleX(0.25)');
    expect(fill(1.7).style.transform).toBe('scaleX(1)');
    expect(fill(-1).style.transform).toBe('scaleX(0)');
    const element = fill(0.5);
    expect(element.style.width).toBe('');
    expect(element.className).toContain('origin-left');
    expect(element.className).toContain('transition-transform');
  });

  it('stays on its own compositor layer, so a transition per update repaints nothing around it', () => {
    expect(fill(0.5).className).toContain('will-change-transform');
  });

  it('draws no scale for an unknown fraction (the caller shows an indeterminate state)', () => {
    expect(fill(undefined).style.transform).toBe('');
  });
});
