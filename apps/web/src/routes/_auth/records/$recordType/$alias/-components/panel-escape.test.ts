import { afterEach, describe, expect, it } from 'vitest';

import { escapeBelongsOutside } from './panel-escape.ts';

function mount(html: string): HTMLElement {
  document.body.innerHTML = html;
  const target = document.querySelector<HTMLElement>('#target');
  if (!target) throw new Error('no #target');
  return target;
}

describe('escapeBelongsOutside', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it.each([
    ['a search box beside the panel', '<input id="target" type="search">'],
    ['a text input beside the panel', '<input id="target">'],
    ['a textarea beside the panel', '<textarea id="target"></textarea>'],
    ['a select beside the panel', '<select id="target"></select>'],
    ['an editable element beside the panel', '<div id="target" contenteditable="true"></div>'],
  ])('keeps Escape in %s', (_name, html) => {
    const target = mount(html);
    // jsdom has no isContentEditable: the attribute stands for it there.
    if (target.getAttribute('contenteditable') === 'true') {
      Object.defineProperty(target, 'isContentEditable', { value: true });
    }
    expect(escapeBelongsOutside(target)).toBe(true);
  });

  it.each([
    ['a row checkbox', '<input id="target" type="checkbox">'],
    ['a row link', '<a id="target" href="/x">T-1</a>'],
    ['a button', '<button id="target">Load more</button>'],
    ['a field inside the panel', '<div data-slot="sheet-content"><input id="target"></div>'],
  ])('lets Escape from %s close the panel', (_name, html) => {
    expect(escapeBelongsOutside(mount(html))).toBe(false);
  });

  it('lets Escape close the panel when nothing has focus', () => {
    expect(escapeBelongsOutside(document.body)).toBe(false);
    expect(escapeBelongsOutside(null)).toBe(false);
  });
});
