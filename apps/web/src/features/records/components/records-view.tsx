import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowDownUp, ChevronRight, FilterX, Loader2, Plus, SearchX } from 'lucide-react';
import { useCallback, useMemo, useRef, useState } from 'react';

import type { Definition, RecordData, RecordType } from '@wsc/api-client';
import { recordHandle } from '@wsc/api-client';

import { ExportButton } from '@/components/export-button.tsx';
import { ListPage } from '@/components/list-page.tsx';
import { LiveQueueBanner } from '@/components/live-queue-banner.tsx';
import { Button } from '@/components/ui/button.tsx';
import { useCapabilities } from '@/lib/capabilities.ts';
import { formatCount } from '@/lib/format.ts';
import { firstPageOf, useLiveQueue } from '@/lib/use-live-queue.ts';
import { recordSearchQueryOptions } from '@/queries/records.ts';

import type { RecordListSearch } from '../lib/search-params.ts';
import type { KeepPlace, TableSelection } from './records-table.tsx';
import { allFields, columnHeader, defaultColumns } from '../lib/columns.ts';
import { recordExportSource } from '../lib/export-source.ts';
import { LOCAL_SORT_LIMIT, sortRecords } from '../lib/local-sort.ts';
import { nextSort, parseSort } from '../lib/search-params.ts';
import { ColumnChooser } from './column-chooser.tsx';
import { RecordsTable } from './records-table.tsx';

export interface RecordsViewProps {
  definition: Definition;
  search: RecordListSearch;
  /** Merges a change into the URL's search params (a new history entry). */
  onSearchChange: (patch: Partial<RecordListSearch>) => void;
  onOpen: (id: string) => void;
  /** The pointer rested on a row (intent): start reading its record. */
  onIntent?: (id: string) => void;
  onCreate: () => void;
  recordHref: (id: string) => string;
  activeId?: string | undefined;
  /** Row checkboxes (bulk changes), passed to the table. */
  selection?: TableSelection | undefined;
  /** Shown above the table, e.g. the bulk-change bar for the checked rows. */
  renderSelectionBar?: (info: { rows: RecordData[]; total: number | undefined }) => React.ReactNode;
}

/**
 * The list page of one definition: toolbar (filter, columns, new), the filter builder, the
 * virtualized table with cursor paging, and every loading, empty and error state in place.
 */
export function RecordsView({
  definition,
  search,
  onSearchChange,
  onOpen,
  onIntent,
  onCreate,
  recordHref,
  activeId,
  selection,
  renderSelectionBar,
}: RecordsViewProps) {
  const recordType = definition.recordType as RecordType;
  const capabilities = useCapabilities();
  const fields = useMemo(() => allFields(definition), [definition]);
  const handleField = definition.handleField;
  const columns = useMemo(() => {
    const known = new Set(fields.map((f) => f.name));
    const chosen = (search.cols ?? defaultColumns(definition)).filter((name) => known.has(name));
    // The handle column always leads: it is the link that opens a record.
    if (!handleField || !known.has(handleField)) return chosen;
    return [handleField, ...chosen.filter((name) => name !== handleField)];
  }, [search.cols, fields, definition, handleField]);

  const options = recordSearchQueryOptions(
    recordType,
    definition.alias,
    search,
    capabilities.sort,
    fields,
  );
  const query = useInfiniteQuery({ ...options, placeholderData: keepPreviousData });
  const queryClient = useQueryClient();
  // Records created or changed by others: changed rows in place, new ones behind the banner.
  const keepPlace = useRef<KeepPlace>(null);
  const live = useLiveQueue({
    queryKey: options.queryKey,
    fetchFirstPage: (signal) => firstPageOf(options, queryClient, signal),
    idOf: (record) => recordHandle(record, definition),
    recordType,
    alias: definition.alias,
    hasNextPage: query.hasNextPage,
    enabled: query.isSuccess && !query.isPlaceholderData,
    onBeforeChange: () => keepPlace.current?.(),
  });
  const loaded = useMemo<RecordData[]>(
    () => query.data?.pages.flatMap((page) => page.items.map((item) => item.data)) ?? [],
    [query.data],
  );
  // Without a server sort the rows come in the server's order; the view sorts what is loaded and
  // says so (below), with a way to load everything first when that is at most LOCAL_SORT_LIMIT.
  const sortKeys = useMemo(() => parseSort(search.sort), [search.sort]);
  const localSort = !capabilities.sort && sortKeys.length > 0;
  const rows = useMemo(
    () => (localSort ? sortRecords(loaded, sortKeys, fields) : loaded),
    [localSort, loaded, sortKeys, fields],
  );
  const total = query.data?.pages[0]?.total;
  const lastPage = query.data?.pages[query.data.pages.length - 1];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const loadingAll = useRef(false);
  const [loadAllError, setLoadAllError] = useState<unknown>(null);
  const loadAll = useCallback(async () => {
    if (loadingAll.current) return;
    loadingAll.current = true;
    setLoadAllError(null);
    try {
      let result = await fetchNextPage();
      while (
        result.hasNextPage &&
        !result.isError &&
        (result.data?.pages.reduce((n, page) => n + page.items.length, 0) ?? 0) < LOCAL_SORT_LIMIT
      ) {
        result = await fetchNextPage();
      }
      if (result.isError) setLoadAllError(result.error);
    } finally {
      loadingAll.current = false;
    }
  }, [fetchNextPage]);

  return (
    <ListPage
      query={query}
      count={rows.length}
      filter={search.filter}
      filterFields={fields}
      onApplyFilter={(filter) => onSearchChange({ filter, cursor: undefined })}
      filterPanelId="records-filter"
      toolbarAfterFilter={
        search.filter && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onSearchChange({ filter: undefined, cursor: undefined })}
          >
            <FilterX aria-hidden="true" />
            Clear
          </Button>
        )
      }
      toolbarEnd={
        <>
          <ColumnChooser
            fields={fields}
            columns={columns}
            onChange={(cols) => onSearchChange({ cols })}
            onReset={() => onSearchChange({ cols: undefined })}
          />
          <ExportButton
            title={definition.name}
            fileStem={definition.alias}
            total={total}
            createSource={() =>
              recordExportSource({
                recordType,
                alias: definition.alias,
                fields,
                columns,
                filter: search.filter,
                sort: capabilities.sort ? search.sort : undefined,
              })
            }
            description={
              <ExportSummary
                filter={search.filter}
                sort={search.sort}
                serverSort={capabilities.sort}
                columns={columns}
              />
            }
          />
          <Button size="sm" onClick={onCreate}>
            <Plus aria-hidden="true" />
            New record
          </Button>
        </>
      }
      aboveTable={
        <>
          {localSort && query.isSuccess && (
            <LocalSortNote
              loaded={loaded.length}
              total={total}
              complete={!hasNextPage}
              loading={isFetchingNextPage}
              failed={loadAllError !== null}
              onLoadAll={() => void loadAll()}
            />
          )}
          {renderSelectionBar?.({ rows, total })}
        </>
      }
      skeleton={{
        label: 'Loading records',
        rowClassName: 'h-[37px]',
        cellClassNames: ['w-16', 'w-64', 'w-20', 'w-24', 'w-32'],
      }}
      empty={
        <EmptyState
          filtered={Boolean(search.filter)}
          onClear={() => onSearchChange({ filter: undefined, cursor: undefined })}
          onCreate={onCreate}
          name={definition.name}
        />
      }
      table={
        <div className="relative flex min-h-0 flex-1 flex-col">
          <LiveQueueBanner count={live.freshCount} noun="record" onMerge={live.merge} top={44} />
          <RecordsTable
            definition={definition}
            rows={rows}
            columns={columns}
            sort={search.sort}
            onSort={(field) =>
              onSearchChange({ sort: nextSort(field, search.sort), cursor: undefined })
            }
            onOpen={onOpen}
            onIntent={onIntent}
            recordHref={recordHref}
            onNearEnd={loadMore}
            activeId={activeId}
            selection={selection}
            departed={live.departed}
            keepPlaceRef={keepPlace}
          />
        </div>
      }
      statusTestId="records-status"
      status={
        query.isPending
          ? 'Loading records…'
          : total === undefined
            ? // The hosted service does not promise a total: say what is known.
              `${formatCount(rows.length)} loaded${hasNextPage ? ', more available' : ` ${rows.length === 1 ? 'record' : 'records'}`}`
            : `${formatCount(rows.length)} loaded of ${formatCount(total)} ${total === 1 ? 'record' : 'records'}`
      }
      noun="record"
      onLoadMore={loadMore}
      pagingStart={
        search.cursor && (
          <Button variant="ghost" size="xs" onClick={() => onSearchChange({ cursor: undefined })}>
            Back to first page
          </Button>
        )
      }
      pagingEnd={
        <Button
          variant="ghost"
          size="xs"
          onClick={() => onSearchChange({ cursor: lastPage?.paging.end_cursor ?? undefined })}
        >
          Next page
          <ChevronRight aria-hidden="true" />
        </Button>
      }
    />
  );
}

/**
 * Said above the table when the server cannot sort (the hosted API): the order is the browser's,
 * over the rows loaded so far, and where everything fits in {@link LOCAL_SORT_LIMIT} rows it can
 * all be loaded first.
 */
function LocalSortNote({
  loaded,
  total,
  complete,
  loading,
  failed,
  onLoadAll,
}: {
  loaded: number;
  total: number | undefined;
  complete: boolean;
  loading: boolean;
  failed: boolean;
  onLoadAll: () => void;
}) {
  const canLoadAll = !complete && (total === undefined || total <= LOCAL_SORT_LIMIT);
  return (
    <div
      className="bg-muted/40 text-muted-foreground flex flex-wrap items-center gap-2 border-b px-6 py-1.5 text-xs"
      data-testid="local-sort-note"
    >
      <ArrowDownUp aria-hidden="true" className="size-3.5" />
      <span>
        {complete
          ? `Sorted in the browser: all ${formatCount(loaded)} records are loaded.`
          : `Sorted within the ${formatCount(loaded)} loaded records only: this service cannot sort, so later pages may hold records that belong higher.`}
        {!complete && !canLoadAll && total !== undefined && (
          <> Over {formatCount(LOCAL_SORT_LIMIT)} match; narrow the filter to sort them all.</>
        )}
        {failed && <> Loading stopped on an error; try again.</>}
      </span>
      {canLoadAll && (
        <Button variant="outline" size="xs" onClick={onLoadAll} disabled={loading}>
          {loading && <Loader2 className="animate-spin" aria-hidden="true" />}
          {total === undefined
            ? `Load up to ${formatCount(LOCAL_SORT_LIMIT)} and sort`
            : `Load all ${formatCount(total)} and sort`}
        </Button>
      )}
    </div>
  );
}

/** What a records export holds: the filter, the order and the columns, in words. */
function ExportSummary({
  filter,
  sort,
  serverSort,
  columns,
}: {
  filter: string | undefined;
  sort: string | undefined;
  serverSort: boolean;
  columns: string[];
}) {
  const keys = parseSort(sort);
  const order =
    keys.length === 0
      ? "in the service's default order"
      : serverSort
        ? `sorted by ${keys.map((key) => `${columnHeader(key.field)} (${key.desc ? 'descending' : 'ascending'})`).join(', ')}`
        : "in the service's order: it cannot sort, and the file is written as the pages arrive";
  return (
    <>
      Every record{' '}
      {filter ? (
        <>
          matching <code className="font-mono">{filter}</code>
        </>
      ) : (
        'of this list'
      )}
      , {order}, with the {columns.length} visible columns ({columns.map(columnHeader).join(', ')}).
    </>
  );
}

function EmptyState({
  filtered,
  onClear,
  onCreate,
  name,
}: {
  filtered: boolean;
  onClear: () => void;
  onCreate: () => void;
  name: string;
}) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 p-10 text-center">
      <span className="bg-muted text-muted-foreground flex size-10 items-center justify-center rounded-full">
        <SearchX className="size-5" aria-hidden="true" />
      </span>
      <div className="grid gap-1">
        <h2 className="text-base font-semibold">
          {filtered ? 'No records match this filter' : `No ${name} yet`}
        </h2>
        <p className="text-muted-foreground text-sm">
          {filtered
            ? 'Change or clear the filter to see more.'
            : 'Create the first one to get started.'}
        </p>
      </div>
      {filtered ? (
        <Button variant="outline" size="sm" onClick={onClear}>
          Clear filter
        </Button>
      ) : (
        <Button size="sm" onClick={onCreate}>
          <Plus aria-hidden="true" /> New record
        </Button>
      )}
    </div>
  );
}
