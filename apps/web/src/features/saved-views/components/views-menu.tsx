import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Bookmark, ChevronDown } from 'lucide-react';

import type { RecordType, SavedView } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';
import { savedViewsQueryOptions, sharedViewsQueryOptions, viewSearch } from '@/lib/saved-views.ts';

/**
 * The records page's "Views" menu: this record type's "My views" and "Shared with me" (each
 * naming who shared it); choosing one opens the list with its filter, sort and columns. Hidden
 * while there is nothing to choose.
 */
export function ViewsMenu({ recordType, alias }: { recordType: RecordType; alias: string }) {
  const navigate = useNavigate();
  const here = (v: SavedView) => v.recordType === recordType && v.alias === alias;
  const own = (useQuery(savedViewsQueryOptions()).data ?? []).filter(here);
  const shared = (useQuery(sharedViewsQueryOptions()).data?.items ?? []).filter(here);
  if (own.length === 0 && shared.length === 0) return null;
  const open = (view: SavedView) =>
    void navigate({
      to: '/records/$recordType/$alias',
      params: { recordType, alias },
      search: viewSearch(view),
    });
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm">
          <Bookmark aria-hidden="true" /> Views <ChevronDown aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-w-[40ch]">
        {own.length > 0 && <DropdownMenuLabel>My views</DropdownMenuLabel>}
        {own.map((view) => (
          <DropdownMenuItem key={view.id} onSelect={() => open(view)}>
            <span className="truncate">{view.name}</span>
          </DropdownMenuItem>
        ))}
        {own.length > 0 && shared.length > 0 && <DropdownMenuSeparator />}
        {shared.length > 0 && <DropdownMenuLabel>Shared with me</DropdownMenuLabel>}
        {shared.map((view) => (
          <DropdownMenuItem key={view.id} onSelect={() => open(view)}>
            <span className="grid min-w-0">
              <span className="truncate">{view.name}</span>
              <span className="text-muted-foreground truncate text-xs">by {view.sharedBy}</span>
            </span>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
