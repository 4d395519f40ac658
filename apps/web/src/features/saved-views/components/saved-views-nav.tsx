import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Bookmark, Star } from 'lucide-react';

import type { Definition } from '@wsc/api-client';

import { savedViewsQueryOptions, viewSearch } from '@/lib/saved-views.ts';

/**
 * The sidebar's "Saved views": the user's views grouped by definition, each a link that opens the
 * list with the view's filter, sort and columns. The default view of a definition carries a star.
 * The link is current (aria-current) while the URL is exactly the view. Kept small and static:
 * it is part of the shell's first load.
 */
export function SavedViewsNav({ definitions }: { definitions: Definition[] }) {
  const query = useQuery(savedViewsQueryOptions());
  const views = query.data ?? [];
  if (views.length === 0) return null;
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
    <section aria-labelledby="nav-saved-views" className="mt-4 grid gap-2">
      <h2 id="nav-saved-views" className="text-muted-foreground px-2 text-xs font-medium">
        Saved views
      </h2>
      {groups.map(({ definition, views: own }) => (
        <div key={`${definition.recordType}/${definition.alias}`} className="grid gap-0.5">
          <p
            id={`nav-views-${definition.recordType}-${definition.alias}`}
            className="text-muted-foreground truncate px-2 text-[11px] tracking-wide uppercase"
          >
            {definition.name}
          </p>
          <ul
            className="grid gap-0.5"
            aria-labelledby={`nav-views-${definition.recordType}-${definition.alias}`}
          >
            {own.map((view) => (
              <li key={view.id}>
                <Link
                  to="/records/$recordType/$alias"
                  params={{ recordType: view.recordType, alias: view.alias }}
                  search={viewSearch(view)}
                  className="hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-ring/50 aria-[current=page]:bg-sidebar-accent aria-[current=page]:text-sidebar-accent-foreground flex items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none focus-visible:ring-[3px] aria-[current=page]:font-medium"
                >
                  <Bookmark
                    aria-hidden="true"
                    className="text-muted-foreground size-3.5 shrink-0"
                  />
                  <span className="min-w-0 truncate">{view.name}</span>
                  {view.isDefault && (
                    <Star
                      aria-label="Default view"
                      className="text-muted-foreground ml-auto size-3.5 shrink-0 fill-current"
                    />
                  )}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
