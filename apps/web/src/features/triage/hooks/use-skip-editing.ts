// Whether triage's j/k pass over records someone else is editing: on unless the user turned it
// off, remembered in this browser (localStorage) across queues and sessions.
import { useCallback, useState } from 'react';

const KEY = 'wsc.triage.skip-editing';

function read(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    // Storage blocked (privacy settings): the default.
    return true;
  }
}

/**
 * The preference and its setter.
 *
 * @example
 * const [skipEditing, setSkipEditing] = useSkipEditing();
 */
export function useSkipEditing(): [boolean, (next: boolean) => void] {
  const [value, setValue] = useState(read);
  const set = useCallback((next: boolean) => {
    setValue(next);
    try {
      localStorage.setItem(KEY, next ? 'on' : 'off');
    } catch {
      // Not remembered; still applies to this page.
    }
  }, []);
  return [value, set];
}
