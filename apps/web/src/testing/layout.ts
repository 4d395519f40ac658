import { afterAll, beforeAll } from 'vitest';

/**
 * jsdom has no layout: gives the element marked `data-testid={testId}` (a virtualized table's
 * scroll container) a 1280x800 box, as a browser would, for the tests of the calling file; every
 * other element keeps a 0x0 one.
 *
 * @example
 * sizeScrollContainer('records-scroll');
 */
export function sizeScrollContainer(testId: string): void {
  const descriptors = {
    clientHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight'),
    clientWidth: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth'),
  };
  beforeAll(() => {
    const sized = (el: HTMLElement, size: number) => (el.dataset.testid === testId ? size : 0);
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return sized(this, 800);
      },
    });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
      configurable: true,
      get(this: HTMLElement) {
        return sized(this, 1280);
      },
    });
  });
  afterAll(() => {
    for (const [key, descriptor] of Object.entries(descriptors)) {
      if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor);
    }
  });
}
