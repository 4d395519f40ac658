import type { ViewState } from '@/lib/saved-views.ts';

/**
 * The part of the records list's URL that a saved view stores, normalised (no undefined).
 *
 * @example
 * viewStateOf({ filter: 'Status==Open' }); // { filter: 'Status==Open', sort: '', columns: [] }
 */
export function viewStateOf(search: {
  filter?: string | undefined;
  sort?: string | undefined;
  cols?: string[] | undefined;
  columns?: string[] | undefined;
}): ViewState {
  return {
    filter: search.filter ?? '',
    sort: search.sort ?? '',
    columns: search.cols ?? search.columns ?? [],
  };
}

/**
 * Whether two view states show the same list (used to mark an open view as modified).
 *
 * @example
 * sameViewState(viewStateOf({ filter: 'a==1' }), viewStateOf({ filter: 'a==1' })); // true
 */
export function sameViewState(a: ViewState, b: ViewState): boolean {
  return (
    a.filter.trim() === b.filter.trim() &&
    a.sort === b.sort &&
    a.columns.length === b.columns.length &&
    a.columns.every((column, i) => column === b.columns[i])
  );
}
