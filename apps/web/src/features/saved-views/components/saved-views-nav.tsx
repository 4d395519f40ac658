import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Bookmark, Star, Users } from 'lucide-react';

import type { Definition, SavedView } from '@wsc/api-client';

import {
  isShared,
  savedViewsQueryOptions,
  sharedViewsQueryOptions,
  viewSearch,
} from '@/lib/saved-views.ts';

/**
 * The sidebar's views, in two sections: "My views" (the user's own, the definition's default
 * starred, a shared one marked) and "Shared with me" (other people's, read-only, each naming who
 * shared it), each grouped by definition. Every entry is a link that opens the list with the
 * view's filter, sort and columns, current (aria-current) while the URL is exactly the view.
 * Kept small and static: it is part of the shell's first load.
 */
export function SavedViewsNav({ definitions }: { definitions: Definition[] }) {
  const own = useQuery(savedViewsQueryOptions()).data ?? [];
  const shared = useQuery(sharedViewsQueryOptions()).data?.items ?? [];
  return (
    <>
      <ViewsSection id="nav-saved-views" title="My views" views={own} definitions={definitions} />
      <ViewsSection
        id="nav-shared-views"
        title="Shared with me"
        views={shared}
        definitions={definitions}
      />
    </>
  );
}

function ViewsSection({
  id,
  title,
  views,
  definitions,
}: {
  id: string;
  title: string;
  views: SavedView[];
  definitions: Definition[];
}) {
  const groups = definitions
    .map((definition) => ({
      definition,
      views: views.filter(
        (v) => v.recordType === definition.recordType && v.alias === definition.alias,
      ),
    }))
    .filter((group) => group.views.length > 0);
  if (groups.length === 0) return null;
  return (
    <section aria-labelledby={id} className="mt-4 grid gap-2">
      <h2 id={id} className="text-muted-foreground px-2 text-xs font-medium">
        {title}
      </h2>
      {groups.map(({ definition, views: here }) => {
        const labelId = `${id}-${definition.recordType}-${definition.alias}`;
        return (
          <div key={`${definition.recordType}/${definition.alias}`} className="grid gap-0.5">
            <p
              id={labelId}
              className="text-muted-foreground truncate px-2 text-[11px] tracking-wide uppercase"
            >
              {definition.name}
            </p>
            <ul className="grid gap-0.5" aria-labelledby={labelId}>
              {here.map((view) => (
                <li key={view.id}>
                  <ViewLink view={view} />
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </section>
  );
}

function ViewLink({ view }: { view: SavedView }) {
  return (
    <Link
      to="/records/$recordType/$alias"
      params={{ recordType: view.recordType, alias: view.alias }}
      search={viewSearch(view)}
      title={view.sharedBy ? `${view.name}, shared by ${view.sharedBy}` : undefined}
      className="hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-ring/50 aria-[current=page]:bg-sidebar-accent aria-[current=page]:text-sidebar-accent-foreground flex items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none focus-visible:ring-[3px] aria-[current=page]:font-medium"
    >
      <Bookmark aria-hidden="true" className="text-muted-foreground size-3.5 shrink-0" />
      <span className="grid min-w-0">
        <span className="truncate">{view.name}</span>
        {view.sharedBy && (
          <span className="text-muted-foreground truncate text-[11px]">by {view.sharedBy}</span>
        )}
      </span>
      <span className="ml-auto flex shrink-0 items-center gap-1">
        {view.isDefault && (
          <Star aria-label="Default view" className="text-muted-foreground size-3.5 fill-current" />
        )}
        {isShared(view) && <Users aria-label="Shared" className="text-muted-foreground size-3.5" />}
      </span>
    </Link>
  );
}
