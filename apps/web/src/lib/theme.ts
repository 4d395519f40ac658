import { useCallback, useSyncExternalStore } from 'react';

export type ThemeChoice = 'light' | 'dark' | 'system';

/** Same key as public/theme-boot.js, which applies the choice before the first paint. */
const STORAGE_KEY = 'wsc-theme';
const listeners = new Set<() => void>();

function readChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : 'system';
  } catch {
    return 'system';
  }
}

function systemPrefersDark(): boolean {
  return (
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-color-scheme: dark)').matches
  );
}

/**
 * Applies a theme choice to `<html>` and persists it; 'system' follows the OS setting.
 *
 * @example
 * setTheme('dark');
 */
export function setTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Storage can be blocked (private mode policies): the choice then lasts for this page only.
  }
  applyTheme(choice);
  for (const listener of listeners) listener();
}

function applyTheme(choice: ThemeChoice): void {
  const dark = choice === 'dark' || (choice === 'system' && systemPrefersDark());
  document.documentElement.classList.toggle('dark', dark);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const media =
    typeof window.matchMedia === 'function'
      ? window.matchMedia('(prefers-color-scheme: dark)')
      : undefined;
  const onChange = () => {
    if (readChoice() === 'system') applyTheme('system');
    listener();
  };
  media?.addEventListener('change', onChange);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', onChange);
  };
}

/**
 * The current theme choice and whether dark is in effect, kept in sync with the OS setting.
 *
 * @example
 * const { choice, isDark, setTheme } = useTheme();
 */
export function useTheme() {
  const choice = useSyncExternalStore(subscribe, readChoice, () => 'system' as const);
  const isDark = useSyncExternalStore(
    subscribe,
    () => document.documentElement.classList.contains('dark'),
    () => false,
  );
  const set = useCallback((next: ThemeChoice) => setTheme(next), []);
  return { choice, isDark, setTheme: set };
}
