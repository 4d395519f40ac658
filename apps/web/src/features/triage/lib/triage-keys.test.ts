import { describe, expect, it } from 'vitest';

import type { KeyLike } from './triage-keys.ts';
import { isTypingTarget, triageActionFor } from './triage-keys.ts';

const key = (k: string, extra: Partial<KeyLike> = {}): KeyLike => ({
  key: k,
  code: /^[a-z]$/.test(k) ? `Key${k.toUpperCase()}` : /^[0-9]$/.test(k) ? `Digit${k}` : k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...extra,
});

describe('triageActionFor', () => {
  it('maps the single keys', () => {
    expect(triageActionFor(key('j'))).toEqual({ type: 'next' });
    expect(triageActionFor(key('ArrowDown'))).toEqual({ type: 'next' });
    expect(triageActionFor(key('k'))).toEqual({ type: 'prev' });
    expect(triageActionFor(key('ArrowUp'))).toEqual({ type: 'prev' });
    expect(triageActionFor(key('3'))).toEqual({ type: 'status', index: 2 });
    expect(triageActionFor(key('a'))).toEqual({ type: 'assign' });
    expect(triageActionFor(key('e'))).toEqual({ type: 'edit' });
    expect(triageActionFor(key('c'))).toEqual({ type: 'comment' });
    expect(triageActionFor(key('n'))).toEqual({ type: 'save-next' });
    expect(triageActionFor(key('u'))).toEqual({ type: 'undo' });
    expect(triageActionFor(key('?', { shiftKey: true, code: 'Slash' }))).toEqual({ type: 'help' });
  });

  it('reads Shift+digit by the physical key, whatever character the layout produces', () => {
    expect(triageActionFor(key('!', { shiftKey: true, code: 'Digit1' }))).toEqual({
      type: 'severity',
      index: 0,
    });
    expect(triageActionFor(key('&', { shiftKey: true, code: 'Digit7' }))).toEqual({
      type: 'severity',
      index: 6,
    });
    expect(triageActionFor(key('Enter', { shiftKey: true, code: 'Enter' }))).toEqual({
      type: 'save-next',
    });
  });

  it('leaves modified keys and everything else alone', () => {
    expect(triageActionFor(key('k', { ctrlKey: true }))).toBeNull();
    expect(triageActionFor(key('j', { metaKey: true }))).toBeNull();
    expect(triageActionFor(key('1', { altKey: true }))).toBeNull();
    expect(triageActionFor(key('J', { shiftKey: true, code: 'KeyJ' }))).toBeNull();
    expect(triageActionFor(key('Enter', { code: 'Enter' }))).toBeNull();
    expect(triageActionFor(key('0'))).toBeNull();
    expect(triageActionFor(key('x'))).toBeNull();
  });
});

describe('isTypingTarget', () => {
  it('is true inside inputs, textareas, selects and contenteditable, false elsewhere', () => {
    const editable = document.createElement('div');
    editable.setAttribute('contenteditable', 'true');
    const inner = document.createElement('span');
    editable.append(inner);
    document.body.append(editable);
    for (const tag of ['input', 'textarea', 'select']) {
      expect(isTypingTarget(document.createElement(tag))).toBe(true);
    }
    expect(isTypingTarget(inner)).toBe(true);
    expect(isTypingTarget(document.createElement('button'))).toBe(false);
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget(window)).toBe(false);
    editable.remove();
  });
});
