import { Search } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';

import type { Definition } from '@wsc/api-client';

// Everything but this launcher (search, results, dialog) is its own chunk, fetched on first use:
// the shell's first load only pays for a key listener and a button.
const CommandPalette = lazy(() =>
  import('./command-palette.tsx').then((m) => ({ default: m.CommandPalette })),
);

/**
 * Ctrl/⌘+K (anywhere, even while typing) opens the command palette; so does the header button.
 */
export function PaletteLauncher({ definitions }: { definitions: Definition[] }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen((current) => !current);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-keyshortcuts="Control+K Meta+K"
        className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 border-input inline-flex h-8 items-center gap-2 rounded-md border px-2.5 text-sm outline-none focus-visible:ring-[3px]"
      >
        <Search aria-hidden="true" className="size-4" />
        <span className="hidden lg:inline">Search or jump to…</span>
        <span className="lg:hidden">Search</span>
        <kbd className="bg-muted rounded px-1 font-mono text-[10px]">Ctrl K</kbd>
      </button>
      {open && (
        <Suspense fallback={null}>
          <CommandPalette open onOpenChange={setOpen} definitions={definitions} />
        </Suspense>
      )}
    </>
  );
}
