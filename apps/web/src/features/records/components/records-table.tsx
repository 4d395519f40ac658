import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ChevronsUpDown, Lock } from 'lucide-react';
import {
  memo,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

import type { Definition, Field, RecordData, RecordType } from '@wsc/api-client';
import type { PresenceEntry } from '@wsc/api-client/bff-events';
import { recordHandle } from '@wsc/api-client';

import type { PlaceAnchor } from '@/lib/keep-place.ts';
import { PresenceMarker } from '@/components/live/presence-marker.tsx';
import { useRowIntent } from '@/lib/hover-intent.ts';
import { keepPlace, placeToKeep } from '@/lib/keep-place.ts';
import { useRecordsWithPresence } from '@/lib/use-live-presence.ts';
import { cn } from '@/lib/utils.ts';
import { whenIdle } from '@/lib/when-idle.ts';
import { wantsNextPage } from '@/queries/paging.ts';

import { allFields, columnHeader, columnWidth } from '../lib/columns.ts';
import { parseSort } from '../lib/search-params.ts';
import { CellValue } from './cell-value.tsx';

/** Fixed row height: virtualization measures nothing, so 10k rows scroll without layout work. */
export const ROW_HEIGHT = 37;

/** Rows kept rendered past each end of the window, so a scroll finds them already there. */
const OVERSCAN = 12;

/**
 * The first screen's overscan: only what shows, and a row or two. Its render (and the browser's
 * layout of it) is what a sign-in and a list's first load wait for; the overscan follows once the
 * page is idle.
 */
const FIRST_OVERSCAN = 2;

export interface RecordsTableProps {
  definition: Definition;
  rows: RecordData[];
  columns: string[];
  sort: string | undefined;
  onSort: (field: string) => void;
  onOpen: (id: string) => void;
  /** The pointer rested on a row for a moment (intent): start reading its record. */
  onIntent?: ((id: string) => void) | undefined;
  recordHref: (id: string) => string;
  /** Called when the user scrolls near the end of the loaded rows. */
  onNearEnd?: () => void;
  /** The record that is open in the side panel, highlighted in the list. */
  activeId?: string | undefined;
  /** Row selection for bulk changes: a leading checkbox column. Absent = no checkboxes. */
  selection?: TableSelection | undefined;
  /** Rows the live queue found gone from the view: kept until a reload, marked (ADR 0025). */
  departed?: ReadonlySet<string> | undefined;
  /** Filled with {@link KeepPlace}: call it just before the rows change under the user. */
  keepPlaceRef?: React.Ref<KeepPlace> | undefined;
}

/**
 * Keeps the user's place across the next change of `rows`: the focused row, else the row under
 * the pointer, else (once scrolled) the first visible row stays where it is on screen.
 */
export type KeepPlace = () => void;

export interface TableSelection {
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  /** The header checkbox, with the loaded rows' ids: check them all, or uncheck all. */
  onToggleAll: (ids: string[]) => void;
}

/** What a departed row says (title and screen readers). */
const DEPARTED_NOTE = 'Changed elsewhere and no longer in this view; it goes when the list reloads';

/** Width of the selection column. */
const SELECT_WIDTH = 40;

/** One visible column: its field, header text and fixed width. */
interface TableColumn {
  field: Field;
  header: string;
  size: number;
}

/**
 * Why a record cannot be opened, when it has no handle (`undefined` when it has one).
 *
 * @example
 * unopenableReason({ handleField: undefined }, {}); // 'This record type has no handle field ...'
 */
export function unopenableReason(
  definition: Pick<Definition, 'handleField'>,
  record: RecordData,
): string | undefined {
  if (recordHandle(record, definition) !== undefined) return undefined;
  return definition.handleField
    ? `This record has no value in ${columnHeader(definition.handleField)}, so it cannot be opened.`
    : 'This record type has no handle field in the workspace description, so its records can be listed but not opened.';
}

/**
 * The records table: typed columns from the definition, sortable headers with `aria-sort`, a
 * sticky header and virtualized rows (only what is on screen is in the DOM). The handle column
 * links to the record; a row without a handle is listed, not openable, and says why.
 *
 * Every scroll frame re-renders this component (the virtualizer's range moves), so it stays cheap:
 * the header and each row are memoized, and a frame renders only the rows entering the window.
 * Cells read `rows` directly: TanStack Table's row model, used here before, built an object with
 * dozens of closures per record on every data change, which (with the header rendered again on
 * every frame) showed up as 25-50 ms garbage-collection pauses while scrolling 1,000 rows
 * (docs/benchmarks.md, Console).
 */
export function RecordsTable({
  definition,
  rows,
  columns,
  sort,
  onSort,
  onOpen,
  onIntent,
  recordHref,
  onNearEnd,
  activeId,
  selection,
  departed,
  keepPlaceRef,
}: RecordsTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The row to hold in place across the next change of rows, and where it was in them.
  const anchor = useRef<PlaceAnchor | null>(null);
  const fields = useMemo(() => allFields(definition), [definition]);
  // Records someone else has open get a marker in their first cell.
  const presence = useRecordsWithPresence(definition.recordType as RecordType, definition.alias);

  const tableColumns = useMemo<TableColumn[]>(() => {
    const byName = new Map(fields.map((f) => [f.name, f]));
    return columns
      .map((name) => byName.get(name))
      .filter((f): f is Field => f !== undefined)
      .map((field) => ({
        field,
        header: columnHeader(field.name),
        size: columnWidth(field, definition.titleField),
      }));
  }, [columns, fields, definition.titleField]);

  const [overscan, setOverscan] = useState(FIRST_OVERSCAN);
  useEffect(() => whenIdle(() => setOverscan(OVERSCAN)), []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan,
    // jsdom and the first paint have no layout: render a first screenful instead of nothing.
    initialRect: { width: 1280, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom =
    items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;
  const scrolled = (virtualizer.scrollOffset ?? 0) > 0;

  // Rows merged in above the anchor push it down by whole rows: scroll by as much, before paint.
  useLayoutEffect(() => {
    const held = anchor.current;
    anchor.current = null;
    if (!held) return;
    const ids = rows.map((record) => recordHandle(record, definition));
    keepPlace(scrollRef.current, held, ids, ROW_HEIGHT);
  }, [rows, definition]);

  useEffect(() => {
    if (onNearEnd && wantsNextPage(rows.length, lastIndex, scrolled)) onNearEnd();
  }, [lastIndex, rows.length, scrolled, onNearEnd]);

  const totalWidth =
    tableColumns.reduce((sum, column) => sum + column.size, 0) + (selection ? SELECT_WIDTH : 0);
  const span = tableColumns.length + (selection ? 1 : 0);
  const selected = selection?.selected;
  // The header checkbox's state, worked out when the rows or the selection change, not per frame.
  const checkedState = useMemo(() => {
    if (!selected) return 'none';
    const ids = rows.map((r) => recordHandle(r, definition)).filter((id) => id !== undefined);
    const count = ids.filter((id) => selected.has(id)).length;
    return ids.length > 0 && count === ids.length ? 'all' : count > 0 ? 'some' : 'none';
  }, [rows, selected, definition]);
  // Stable callbacks, so that the memoized header and rows do not re-render on every scroll frame.
  const latest = useRef({ onOpen, recordHref, onSort, selection, rows, definition });
  latest.current = { onOpen, recordHref, onSort, selection, rows, definition };
  useImperativeHandle(keepPlaceRef, () => () => {
    const { rows: current, definition: def } = latest.current;
    const ids = current.map((record) => recordHandle(record, def));
    anchor.current = placeToKeep(scrollRef.current, ids, ROW_HEIGHT);
  });
  const open = useCallback((id: string) => latest.current.onOpen(id), []);
  const intent = useRowIntent(onIntent);
  const toggle = useCallback((id: string) => latest.current.selection?.onToggle(id), []);
  const href = useCallback((id: string) => latest.current.recordHref(id), []);
  const sortBy = useCallback((field: string) => latest.current.onSort(field), []);
  const toggleAll = useCallback(() => {
    const { selection: current, rows: loaded, definition: def } = latest.current;
    current?.onToggleAll(
      loaded.map((r) => recordHandle(r, def)).filter((id): id is string => id !== undefined),
    );
  }, []);

  return (
    <div
      ref={scrollRef}
      className="relative min-h-0 flex-1 overflow-auto"
      data-testid="records-scroll"
      tabIndex={-1}
    >
      <table
        className="w-full table-fixed border-separate border-spacing-0 text-sm"
        style={{ minWidth: totalWidth }}
        aria-rowcount={rows.length + 1}
        aria-label={`${definition.name} records`}
      >
        <RecordsHeader
          columns={tableColumns}
          sort={sort}
          onSort={sortBy}
          checkedState={selection ? checkedState : undefined}
          onToggleAll={toggleAll}
        />
        <tbody onMouseOver={intent.onMouseOver} onMouseLeave={intent.onMouseLeave}>
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td style={{ height: paddingTop }} colSpan={span} />
            </tr>
          )}
          {items.map((item) => {
            const record = rows[item.index];
            if (!record) return null;
            const id = recordHandle(record, definition);
            return (
              <RecordRow
                key={id ?? `row-${item.index}`}
                record={record}
                id={id}
                handleField={definition.handleField}
                blocked={id === undefined ? unopenableReason(definition, record) : undefined}
                rowIndex={item.index}
                columns={tableColumns}
                selected={id !== undefined && id === activeId}
                checked={selection ? id !== undefined && selection.selected.has(id) : undefined}
                departed={id !== undefined && (departed?.has(id) ?? false)}
                toggle={toggle}
                open={open}
                href={href}
                others={id === undefined ? undefined : presence.get(id)}
              />
            );
          })}
          {paddingBottom > 0 && (
            <tr aria-hidden="true">
              <td style={{ height: paddingBottom }} colSpan={span} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Column widths and the sticky header row: sort buttons with `aria-sort`, and the select-all
 * checkbox when the table has a selection column. Memoized: scrolling does not render it again.
 */
const RecordsHeader = memo(function RecordsHeader({
  columns,
  sort,
  onSort,
  checkedState,
  onToggleAll,
}: {
  columns: TableColumn[];
  sort: string | undefined;
  onSort: (field: string) => void;
  /** Undefined when the table has no selection column. */
  checkedState: 'all' | 'some' | 'none' | undefined;
  onToggleAll: () => void;
}) {
  const sortKeys = parseSort(sort);
  return (
    <>
      <colgroup>
        {checkedState !== undefined && <col style={{ width: SELECT_WIDTH }} />}
        {columns.map((column) => (
          <col key={column.field.name} style={{ width: column.size }} />
        ))}
      </colgroup>
      <thead className="sticky top-0 z-10">
        <tr aria-rowindex={1}>
          {checkedState !== undefined && (
            <th scope="col" className="bg-muted h-9 border-b px-3 text-left align-middle">
              <input
                type="checkbox"
                aria-label="Select all loaded rows"
                checked={checkedState === 'all'}
                ref={(el) => {
                  if (el) el.indeterminate = checkedState === 'some';
                }}
                onChange={onToggleAll}
                className="accent-primary size-4 align-middle"
              />
            </th>
          )}
          {columns.map((column) => {
            const name = column.field.name;
            const key = sortKeys.find((k) => k.field === name);
            const ariaSort = key ? (key.desc ? 'descending' : 'ascending') : 'none';
            const Icon = key ? (key.desc ? ArrowDown : ArrowUp) : ChevronsUpDown;
            return (
              <th
                key={name}
                scope="col"
                aria-sort={ariaSort}
                className="bg-muted text-muted-foreground h-9 border-b px-1 text-left align-middle text-xs font-medium"
              >
                <button
                  type="button"
                  onClick={() => onSort(name)}
                  className={cn(
                    'group hover:bg-accent hover:text-accent-foreground focus-visible:ring-ring/50 inline-flex h-7 max-w-full items-center gap-1 rounded-sm px-2 outline-none focus-visible:ring-[3px]',
                    key && 'text-foreground',
                  )}
                >
                  <span className="truncate">{column.header}</span>
                  <Icon
                    aria-hidden="true"
                    className={cn(
                      'size-3.5 shrink-0',
                      !key && 'opacity-0 group-hover:opacity-60 group-focus-visible:opacity-60',
                    )}
                  />
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
    </>
  );
});

/**
 * One body row. Memoized: while scrolling, rows that stay on screen are not rendered again, only
 * the ones entering the window are (this keeps frames short at thousands of loaded rows).
 */
const RecordRow = memo(function RecordRow({
  record,
  id,
  handleField,
  blocked,
  rowIndex,
  columns,
  selected,
  checked,
  departed,
  toggle,
  open,
  href,
  others,
}: {
  record: RecordData;
  /** The record's handle; undefined: it cannot be opened (`blocked` says why). */
  id: string | undefined;
  handleField: string | undefined;
  blocked: string | undefined;
  rowIndex: number;
  columns: TableColumn[];
  /** The record open in the panel beside the list: highlighted, and `aria-current` for screen readers. */
  selected: boolean;
  /** Undefined when the table has no selection column. */
  checked: boolean | undefined;
  /** Gone from the view since it was loaded (live queue): shown dimmed until a reload. */
  departed: boolean;
  toggle: (id: string) => void;
  open: (id: string) => void;
  href: (id: string) => string;
  /** Who else has the record open (a marker in the first cell). */
  others: PresenceEntry[] | undefined;
}) {
  return (
    <tr
      aria-rowindex={rowIndex + 2}
      data-row-id={id}
      aria-current={selected ? 'true' : undefined}
      data-state={selected ? 'selected' : undefined}
      data-unopenable={id === undefined || undefined}
      data-departed={departed || undefined}
      title={blocked ?? (departed ? DEPARTED_NOTE : undefined)}
      onClick={(event) => {
        // Let modified clicks on the link open new tabs as links do.
        if (event.defaultPrevented || event.metaKey || event.ctrlKey || id === undefined) return;
        open(id);
      }}
      className={cn(
        'hover:bg-muted/60 data-[state=selected]:bg-accent data-[departed]:text-muted-foreground data-[departed]:italic',
        id === undefined ? 'cursor-default' : 'cursor-pointer',
      )}
      style={{ height: ROW_HEIGHT }}
    >
      {checked !== undefined && (
        <td className="border-b px-3 align-middle" onClick={(event) => event.stopPropagation()}>
          {id !== undefined && (
            <input
              type="checkbox"
              aria-label={`Select ${id}`}
              checked={checked}
              onChange={() => toggle(id)}
              className="accent-primary size-4 align-middle"
            />
          )}
        </td>
      )}
      {columns.map(({ field }, index) => (
        // `overflow: clip` rather than `truncate`'s `overflow: hidden`: the same clipping and
        // ellipsis, without making every cell a scroll container for the browser to lay out.
        <td
          key={field.name}
          className="overflow-clip border-b px-3 align-middle text-ellipsis whitespace-nowrap"
        >
          {index === 0 && departed && <span className="sr-only">{DEPARTED_NOTE}: </span>}
          {index === 0 && others && (
            <span className="mr-1.5 inline-flex align-middle">
              <PresenceMarker entries={others} />
            </span>
          )}
          {index === 0 && blocked && (
            <span className="text-muted-foreground mr-1.5 inline-flex align-middle">
              <Lock aria-hidden="true" className="size-3.5" />
              <span className="sr-only">Cannot be opened: {blocked}</span>
            </span>
          )}
          {field.name === handleField && id !== undefined ? (
            <a
              href={href(id)}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey) {
                  event.stopPropagation();
                  return;
                }
                event.preventDefault();
                event.stopPropagation();
                open(id);
              }}
              className="text-primary focus-visible:ring-ring/50 rounded-sm font-mono text-xs font-medium outline-none hover:underline focus-visible:ring-[3px]"
            >
              {id}
            </a>
          ) : (
            <CellValue field={field} value={record[field.name]} />
          )}
        </td>
      ))}
    </tr>
  );
});
