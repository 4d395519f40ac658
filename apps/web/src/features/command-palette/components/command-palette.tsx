import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { Bookmark, FileText, Loader2, Search, UserRound, Users, Zap } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';

import type { Definition } from '@wsc/api-client';

import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog.tsx';
import { currentPageActions } from '@/lib/page-actions.ts';
import { savedViewsQueryOptions, viewSearch } from '@/lib/saved-views.ts';
import { cn } from '@/lib/utils.ts';
import { groupsListQueryOptions } from '@/queries/groups.ts';
import { userSearchQueryOptions } from '@/queries/users.ts';

import { matchesTerm, parseRecordId } from '../lib/palette-search.ts';

type Group = 'Go to record' | 'Actions' | 'Saved views' | 'Record types' | 'People' | 'Groups';

interface Item {
  key: string;
  group: Group;
  label: string;
  detail?: string | undefined;
  run: () => void;
}

const ICONS: Record<Group, typeof Search> = {
  'Go to record': FileText,
  Actions: Zap,
  'Saved views': Bookmark,
  'Record types': FileText,
  People: UserRound,
  Groups: Users,
};

/** At most this many results per group: the palette is for jumping, not browsing. */
const PER_GROUP = 6;

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The command palette: one search over record ids (`SUP-42`), record types, saved views, people,
 * groups and the current page's actions. Arrow keys move, Enter runs, Escape closes.
 */
export function CommandPalette({
  open,
  onOpenChange,
  definitions,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  definitions: Definition[];
}) {
  const router = useRouter();
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  const debounced = useDebounced(term.trim(), 150);
  const listId = useId();
  const [actions] = useState(currentPageActions);
  const views = useQuery(savedViewsQueryOptions());
  const people = useQuery({
    ...userSearchQueryOptions(debounced),
    enabled: debounced.length >= 2,
  });
  // Six groups in the demo workspace; the groups list's first page of 100 covers any realistic
  // number, matched here (shared with the groups page).
  const groups = useInfiniteQuery({ ...groupsListQueryOptions(), staleTime: 5 * 60_000 });

  const close = () => onOpenChange(false);
  const go = (href: string) => {
    close();
    router.history.push(href);
  };

  const items = useMemo<Item[]>(() => {
    const out: Item[] = [];
    const q = term.trim();
    const record = parseRecordId(q, definitions);
    if (record) {
      const { definition, id } = record;
      out.push({
        key: `record:${id}`,
        group: 'Go to record',
        label: `Open ${id}`,
        detail: definition.name,
        run: () =>
          go(
            `/records/${encodeURIComponent(definition.recordType)}/${encodeURIComponent(definition.alias)}/${encodeURIComponent(id)}`,
          ),
      });
    }
    const take = <T,>(list: T[]) => list.slice(0, PER_GROUP);
    for (const action of take(actions.filter((a) => matchesTerm(q, [a.label])))) {
      out.push({
        key: `action:${action.id}`,
        group: 'Actions',
        label: action.label,
        detail: action.hint,
        run: () => {
          close();
          action.run();
        },
      });
    }
    const byDefinition = new Map(definitions.map((d) => [`${d.recordType}/${d.alias}`, d]));
    for (const view of take(
      (views.data ?? []).filter((v) =>
        matchesTerm(q, [v.name, byDefinition.get(`${v.recordType}/${v.alias}`)?.name]),
      ),
    )) {
      const definition = byDefinition.get(`${view.recordType}/${view.alias}`);
      out.push({
        key: `view:${view.id}`,
        group: 'Saved views',
        label: view.name,
        detail: definition?.name,
        run: () => {
          close();
          void router.navigate({
            to: '/records/$recordType/$alias',
            params: { recordType: view.recordType, alias: view.alias },
            search: viewSearch(view),
          });
        },
      });
    }
    for (const definition of take(
      definitions.filter((d) => matchesTerm(q, [d.name, d.handle, d.alias])),
    )) {
      out.push({
        key: `definition:${definition.recordType}/${definition.alias}`,
        group: 'Record types',
        label: definition.name,
        detail: definition.handle,
        run: () => {
          close();
          void router.navigate({
            to: '/records/$recordType/$alias',
            params: { recordType: definition.recordType, alias: definition.alias },
            search: {},
          });
        },
      });
    }
    if (debounced.length >= 2 && debounced === q) {
      for (const user of take(people.data?.items ?? [])) {
        out.push({
          key: `user:${user.id}`,
          group: 'People',
          label: `${user.firstName} ${user.lastName}`,
          detail: user.email,
          run: () => go(`/users/${encodeURIComponent(user.id)}`),
        });
      }
    }
    if (q) {
      for (const group of take(
        (groups.data?.pages.flatMap((page) => page.items) ?? []).filter((g) =>
          matchesTerm(q, [g.name]),
        ),
      )) {
        out.push({
          key: `group:${group.id}`,
          group: 'Groups',
          label: group.name,
          run: () => go(`/groups/${encodeURIComponent(group.id)}`),
        });
      }
    }
    return out;
    // `go` and `close` only close over stable values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [term, debounced, definitions, actions, views.data, people.data, groups.data]);

  const current = items[Math.min(active, items.length - 1)];
  useEffect(() => setActive(0), [term]);
  useEffect(() => {
    if (current)
      document.getElementById(`${listId}-${current.key}`)?.scrollIntoView({ block: 'nearest' });
  }, [current, listId]);

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => Math.min(i + 1, items.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      current?.run();
    }
  }

  const searching = people.isFetching && debounced.length >= 2;
  let lastGroup: Group | undefined;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        showCloseButton={false}
        className="top-[15%] translate-y-0 gap-0 overflow-hidden p-0 sm:max-w-xl"
      >
        <DialogTitle className="sr-only">Command palette</DialogTitle>
        <DialogDescription className="sr-only">
          Type a record id such as SUP-42, a record type, a saved view, a person or a group. Arrow
          keys move, Enter opens.
        </DialogDescription>
        <div className="flex items-center gap-2 border-b px-3">
          <Search aria-hidden="true" className="text-muted-foreground size-4 shrink-0" />
          <input
            autoFocus
            role="combobox"
            aria-label="Search commands, records, views, people and groups"
            aria-expanded={items.length > 0}
            aria-controls={items.length > 0 ? listId : undefined}
            aria-autocomplete="list"
            aria-activedescendant={current ? `${listId}-${current.key}` : undefined}
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Jump to SUP-42, a view, a person…"
            className="placeholder:text-muted-foreground h-12 w-full bg-transparent text-sm outline-none"
          />
          {searching && (
            <Loader2 aria-label="Searching" className="text-muted-foreground size-4 animate-spin" />
          )}
        </div>
        {/* A listbox may hold only options: the hint lives beside it, in a live status. */}
        {items.length === 0 && (
          <p role="status" className="text-muted-foreground px-3 py-6 text-center text-sm">
            {term.trim() ? `Nothing matches “${term.trim()}”.` : 'Type to search.'}
          </p>
        )}
        <ul
          id={listId}
          role="listbox"
          aria-label="Results"
          hidden={items.length === 0}
          className="max-h-96 overflow-y-auto p-1"
        >
          {items.map((item) => {
            const header = item.group !== lastGroup;
            lastGroup = item.group;
            const Icon = ICONS[item.group];
            const selected = item.key === current?.key;
            return (
              <li key={item.key} role="presentation">
                {header && (
                  <div
                    role="presentation"
                    className="text-muted-foreground px-2 pt-2 pb-1 text-xs font-medium"
                  >
                    {item.group}
                  </div>
                )}
                <div
                  id={`${listId}-${item.key}`}
                  role="option"
                  aria-selected={selected}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={item.run}
                  onMouseMove={() => setActive(items.indexOf(item))}
                  className={cn(
                    'flex cursor-default items-center gap-2 rounded-sm px-2 py-1.5 text-sm',
                    selected && 'bg-accent text-accent-foreground',
                  )}
                >
                  <Icon aria-hidden="true" className="text-muted-foreground size-4 shrink-0" />
                  <span className="truncate">{item.label}</span>
                  {item.detail && (
                    <span className="text-muted-foreground ml-auto truncate text-xs">
                      {item.detail}
                    </span>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
