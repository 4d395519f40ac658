import { AlertCircle, ChevronDown, ChevronUp, Keyboard, Loader2 } from 'lucide-react';

import { Button } from '@/components/ui/button.tsx';
import { formatCount } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';

/** The status line: the last outcome; a refusal (`error`) is shown whole, in the error colour. */
export interface StatusLine {
  text: string;
  tone?: 'error' | undefined;
}

/**
 * The triage header: where the user is in the queue, the filter and what was left out, the last
 * write's outcome (a live region), and the move, undo and shortcut buttons.
 */
export function TriageToolbar({
  total,
  more,
  index,
  count,
  filter,
  serverOrder,
  skipped,
  busy,
  status,
  undoCount,
  onMove,
  onUndo,
  onHelp,
  skipEditing,
  onSkipEditingChange,
  actions,
}: {
  /** Records in the queue; `undefined` while it loads. */
  total: number | undefined;
  /** '+' when `total` counts only the loaded pages. */
  more: string;
  /** The current record's place in the loaded rows, -1 when it is not among them. */
  index: number;
  /** How many rows are loaded. */
  count: number;
  filter?: string | undefined;
  /** True when a sort was asked for but the service keeps its own order. */
  serverOrder: boolean;
  skipped: number;
  busy: boolean;
  status: StatusLine;
  undoCount: number;
  onMove: (delta: number) => void;
  onUndo: () => void;
  onHelp: () => void;
  /** Whether j/k pass over records someone else is editing. */
  skipEditing: boolean;
  onSkipEditingChange: (next: boolean) => void;
  actions?: React.ReactNode;
}) {
  const position =
    total === undefined
      ? 'Loading queue…'
      : total === 0
        ? 'No records match'
        : index >= 0
          ? `${formatCount(index + 1)} of ${formatCount(total)}${more}`
          : `${formatCount(total)}${more} in queue`;

  return (
    <div className="flex flex-wrap items-center gap-2 border-b px-6 py-2">
      <span className="text-sm font-medium tabular-nums" data-testid="triage-position">
        {position}
      </span>
      {filter && (
        <code
          className="bg-muted text-muted-foreground max-w-[40ch] truncate rounded-md px-2 py-1 font-mono text-xs"
          title={filter}
        >
          {filter}
        </code>
      )}
      {serverOrder && (
        <span
          className="text-muted-foreground text-xs"
          data-testid="triage-server-order"
          title="This service cannot sort records, so the queue follows the service's own order"
        >
          Service order (cannot sort)
        </span>
      )}
      {skipped > 0 && (
        <span className="text-muted-foreground text-xs" data-testid="triage-skipped">
          {formatCount(skipped)} without a handle left out
        </span>
      )}
      <p
        role="status"
        aria-live="polite"
        title={status.text || undefined}
        className={cn(
          'min-w-56 flex-1 text-sm',
          // Why a change was rolled back is read whole, however long: it wraps.
          status.tone === 'error' ? 'text-destructive' : 'text-muted-foreground truncate',
        )}
        data-testid="triage-status"
      >
        {busy && <Loader2 className="mr-1 inline size-3.5 animate-spin" aria-hidden="true" />}
        {status.tone === 'error' && (
          <AlertCircle className="mr-1 inline size-3.5 align-[-2px]" aria-hidden="true" />
        )}
        {status.text}
      </p>
      {/* A switch rather than a checkbox: focus on it leaves j/k working (inputs take keys). */}
      <button
        type="button"
        role="switch"
        aria-checked={skipEditing}
        onClick={() => onSkipEditingChange(!skipEditing)}
        className="text-muted-foreground hover:text-foreground focus-visible:ring-ring/50 flex items-center gap-1.5 rounded-sm text-xs outline-none focus-visible:ring-[3px]"
      >
        {/* Theme tokens and sizes the class merger (first load) already knows. */}
        <span
          aria-hidden="true"
          className={cn(
            'flex h-4 w-10 shrink-0 items-center rounded-full p-0.5 transition-colors',
            skipEditing ? 'bg-primary justify-end' : 'bg-muted-foreground/60',
          )}
        >
          <span className="bg-background size-3 rounded-full" />
        </span>
        Skip records others are editing
      </button>
      <div className="ml-auto flex items-center gap-1">
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Previous record (k)"
          disabled={index <= 0}
          onClick={() => onMove(-1)}
        >
          <ChevronUp aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Next record (j)"
          disabled={count === 0 || index >= count - 1}
          onClick={() => onMove(1)}
        >
          <ChevronDown aria-hidden="true" />
        </Button>
        <Button variant="ghost" size="sm" onClick={onUndo} disabled={undoCount === 0}>
          Undo <kbd className="text-muted-foreground font-mono text-xs">u</kbd>
        </Button>
        <Button variant="outline" size="sm" onClick={onHelp}>
          <Keyboard aria-hidden="true" />
          Shortcuts <kbd className="text-muted-foreground font-mono text-xs">?</kbd>
        </Button>
        {actions}
      </div>
    </div>
  );
}
