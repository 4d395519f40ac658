import type { ColumnDef, Row } from '@tanstack/react-table';
import { getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';

import type { Definition, Field, RecordData } from '@wsc/api-client';

import { cn } from '@/lib/utils.ts';

import { allFields, columnWidth } from '../lib/columns.ts';
import { parseSort } from '../lib/search-params.ts';
import { CellValue } from './cell-value.tsx';

/** Fixed row height: virtualization measures nothing, so 10k rows scroll without layout work. */
export const ROW_HEIGHT = 37;

export interface RecordsTableProps {
  definition: Definition;
  rows: RecordData[];
  columns: string[];
  sort: string | undefined;
  onSort: (field: string) => void;
  onOpen: (id: string) => void;
  recordHref: (id: string) => string;
  /** Called when the user scrolls near the end of the loaded rows. */
  onNearEnd?: () => void;
  /** The record that is open in the side panel, highlighted in the list. */
  activeId?: string | undefined;
  /** Row selection for bulk changes: a leading checkbox column. Absent = no checkboxes. */
  selection?: TableSelection | undefined;
}

export interface TableSelection {
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  /** The header checkbox, with the loaded rows' ids: check them all, or uncheck all. */
  onToggleAll: (ids: string[]) => void;
}

/** Width of the selection column. */
const SELECT_WIDTH = 40;

/**
 * The records table: typed columns from the definition, sortable headers with `aria-sort`, a
 * sticky header and virtualized rows (only what is on screen is in the DOM).
 */
export function RecordsTable({
  definition,
  rows,
  columns,
  sort,
  onSort,
  onOpen,
  recordHref,
  onNearEnd,
  activeId,
  selection,
}: RecordsTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const fields = useMemo(() => allFields(definition), [definition]);
  const sortKeys = parseSort(sort);

  const columnDefs = useMemo<ColumnDef<RecordData>[]>(() => {
    const byName = new Map(fields.map((f) => [f.name, f]));
    return columns
      .map((name) => byName.get(name))
      .filter((f): f is Field => f !== undefined)
      .map((field) => ({
        id: field.name,
        header: field.name === 'id' ? 'ID' : field.name,
        accessorFn: (row) => row[field.name],
        size: columnWidth(field, definition.titleField),
        meta: { field },
      }));
  }, [columns, fields, definition.titleField]);

  const table = useReactTable({
    data: rows,
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row, index) => row.id ?? String(index),
    manualSorting: true,
  });
  const tableRows = table.getRowModel().rows;

  const virtualizer = useVirtualizer({
    count: tableRows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // jsdom and the first paint have no layout: render a first screenful instead of nothing.
    initialRect: { width: 1280, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  const paddingTop = items[0]?.start ?? 0;
  const paddingBottom =
    items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    if (onNearEnd && tableRows.length > 0 && lastIndex >= tableRows.length - 20) onNearEnd();
  }, [lastIndex, tableRows.length, onNearEnd]);

  const totalWidth = table.getTotalSize() + (selection ? SELECT_WIDTH : 0);
  const span = columnDefs.length + (selection ? 1 : 0);
  const selectedCount = selection
    ? tableRows.filter((r) => selection.selected.has(r.original.id ?? '')).length
    : 0;
  const allChecked = tableRows.length > 0 && selectedCount === tableRows.length;
  const columnsKey = columns.join('\u0000');
  // Stable callbacks, so that memoized rows do not re-render on every scroll frame.
  const latest = useRef({ onOpen, recordHref, onToggle: selection?.onToggle });
  latest.current = { onOpen, recordHref, onToggle: selection?.onToggle };
  const open = useCallback((id: string) => latest.current.onOpen(id), []);
  const toggle = useCallback((id: string) => latest.current.onToggle?.(id), []);
  const href = useCallback((id: string) => latest.current.recordHref(id), []);

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
        aria-rowcount={tableRows.length + 1}
        aria-label={`${definition.name} records`}
      >
        <colgroup>
          {selection && <col style={{ width: SELECT_WIDTH }} />}
          {table.getVisibleLeafColumns().map((column) => (
            <col key={column.id} style={{ width: column.getSize() }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} aria-rowindex={1}>
              {selection && (
                <th scope="col" className="bg-muted h-9 border-b px-3 text-left align-middle">
                  <input
                    type="checkbox"
                    aria-label="Select all loaded rows"
                    checked={allChecked}
                    ref={(el) => {
                      if (el) el.indeterminate = selectedCount > 0 && !allChecked;
                    }}
                    onChange={() =>
                      selection.onToggleAll(
                        tableRows.map((r) => r.original.id ?? '').filter((id) => id !== ''),
                      )
                    }
                    className="accent-primary size-4 align-middle"
                  />
                </th>
              )}
              {group.headers.map((header) => {
                const name = header.column.id;
                const key = sortKeys.find((k) => k.field === name);
                const ariaSort = key ? (key.desc ? 'descending' : 'ascending') : 'none';
                const Icon = key ? (key.desc ? ArrowDown : ArrowUp) : ChevronsUpDown;
                return (
                  <th
                    key={header.id}
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
                      <span className="truncate">{String(header.column.columnDef.header)}</span>
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
          ))}
        </thead>
        <tbody>
          {paddingTop > 0 && (
            <tr aria-hidden="true">
              <td style={{ height: paddingTop }} colSpan={span} />
            </tr>
          )}
          {items.map((item) => {
            const row = tableRows[item.index];
            if (!row) return null;
            return (
              <RecordRow
                key={row.id}
                row={row}
                rowIndex={item.index}
                columnsKey={columnsKey}
                selected={(row.original.id ?? '') === activeId}
                checked={selection ? selection.selected.has(row.original.id ?? '') : undefined}
                toggle={toggle}
                open={open}
                href={href}
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
 * One body row. Memoized: while scrolling, rows that stay on screen are not rendered again, only
 * the ones entering the window are (this keeps frames short at thousands of loaded rows).
 */
const RecordRow = memo(function RecordRow({
  row,
  rowIndex,
  selected,
  checked,
  toggle,
  open,
  href,
}: {
  row: Row<RecordData>;
  rowIndex: number;
  /** Changes when the visible columns change, so the memo lets the row re-render then. */
  columnsKey: string;
  selected: boolean;
  /** Undefined when the table has no selection column. */
  checked: boolean | undefined;
  toggle: (id: string) => void;
  open: (id: string) => void;
  href: (id: string) => string;
}) {
  const id = row.original.id ?? '';
  return (
    <tr
      aria-rowindex={rowIndex + 2}
      data-state={selected ? 'selected' : undefined}
      onClick={(event) => {
        // Let modified clicks on the link open new tabs as links do.
        if (event.defaultPrevented || event.metaKey || event.ctrlKey) return;
        open(id);
      }}
      className="hover:bg-muted/60 data-[state=selected]:bg-accent cursor-pointer"
      style={{ height: ROW_HEIGHT }}
    >
      {checked !== undefined && (
        <td className="border-b px-3 align-middle" onClick={(event) => event.stopPropagation()}>
          <input
            type="checkbox"
            aria-label={`Select ${id}`}
            checked={checked}
            onChange={() => toggle(id)}
            className="accent-primary size-4 align-middle"
          />
        </td>
      )}
      {row.getVisibleCells().map((cell) => {
        const field = (cell.column.columnDef.meta as { field: Field }).field;
        const value = cell.getValue() as string | undefined;
        return (
          <td key={cell.id} className="truncate border-b px-3 align-middle whitespace-nowrap">
            {field.name === 'id' ? (
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
              <CellValue field={field} value={value} />
            )}
          </td>
        );
      })}
    </tr>
  );
});
