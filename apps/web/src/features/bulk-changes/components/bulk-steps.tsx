import { CheckCircle2, Loader2, XCircle } from 'lucide-react';
import { memo, useMemo } from 'react';

import type { RecordData } from '@wsc/api-client';

import { ProgressFill } from '@/components/ui/progress-fill.tsx';
import { formatCount } from '@/lib/format.ts';

import type { BulkPlan } from '../lib/plan.ts';
import type { BulkOutcome } from '../lib/scheduler.ts';

/** While the records a filter matches are read (or a run's records checked), before the preview. */
export function BulkLoading({
  loaded,
  total,
  label = 'Finding matching records',
}: {
  loaded: number;
  total: number;
  label?: string;
}) {
  return (
    <div className="grid gap-2" aria-busy="true">
      <p role="status" className="flex items-center gap-2 text-sm">
        <Loader2 className="size-4 animate-spin" aria-hidden="true" />
        {label}: {formatCount(loaded)} of {formatCount(total)}
      </p>
      <Progress value={loaded} max={Math.max(total, 1)} label={label} />
    </div>
  );
}

/** What the change will do: how many records change, how many already match or cannot. */
export function BulkPreview({ plan, changes }: { plan: BulkPlan; changes: RecordData }) {
  return (
    <div className="grid gap-2" data-testid="bulk-preview">
      <p className="text-sm" role="status">
        <strong className="tabular-nums">{formatCount(plan.toChange.length)}</strong>{' '}
        {plan.toChange.length === 1 ? 'record' : 'records'} will change
        {plan.unchanged > 0 && (
          <>
            ; <span className="tabular-nums">{formatCount(plan.unchanged)}</span> already{' '}
            {plan.unchanged === 1 ? 'has' : 'have'} these values
          </>
        )}
        {plan.unaddressable > 0 && (
          <>
            ; <span className="tabular-nums">{formatCount(plan.unaddressable)}</span>{' '}
            {plan.unaddressable === 1 ? 'has' : 'have'} no handle and cannot be changed from here
          </>
        )}
        .
      </p>
      <ul className="text-muted-foreground text-sm">
        {Object.entries(changes).map(([name, value]) => (
          <li key={name}>
            {name} → <span className="text-foreground">{value || '(empty)'}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A run's progress (while `running`: how many of this run are done) or its summary (`done`), and
 * the outcome of every record, failures first.
 */
export function BulkResults({
  running,
  outcomes,
  done = 'changed',
  notDone = 'failed',
  label = 'Bulk change progress',
}: {
  /** The run under way (its size, and the outcomes kept from an earlier run); none when done. */
  running: { total: number; offset: number } | undefined;
  outcomes: BulkOutcome[];
  /** The summary's words for a success and a failure ("restored", "not restored" for an undo). */
  done?: string;
  notDone?: string;
  label?: string;
}) {
  const failed = outcomes.filter((o) => !o.ok).length;
  return (
    <div className="grid gap-3">
      {running ? (
        <>
          <p role="status" className="text-sm tabular-nums">
            {formatCount(outcomes.length - running.offset)} of {formatCount(running.total)} done…
          </p>
          <Progress
            value={outcomes.length - running.offset}
            max={Math.max(running.total, 1)}
            label={label}
          />
        </>
      ) : (
        <p role="status" className="text-sm" data-testid="bulk-summary">
          {formatCount(outcomes.length - failed)} {done}
          {failed > 0 ? `, ${formatCount(failed)} ${notDone}` : ''}.
        </p>
      )}
      <ResultList outcomes={outcomes} done={done} />
    </div>
  );
}

function Progress({ value, max, label }: { value: number; max: number; label: string }) {
  const percent = Math.min(100, Math.round((value / max) * 100));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={value}
      className="bg-muted h-2 w-full overflow-hidden rounded-full"
    >
      <ProgressFill fraction={percent / 100} />
    </div>
  );
}

function ResultList({ outcomes, done }: { outcomes: BulkOutcome[]; done: string }) {
  // Failures first: they are what needs attention.
  const sorted = useMemo(
    () => [...outcomes.filter((o) => !o.ok), ...outcomes.filter((o) => o.ok)],
    [outcomes],
  );
  if (sorted.length === 0) return null;
  return (
    <ul
      aria-label="Results per record"
      className="max-h-64 divide-y overflow-y-auto rounded-md border text-sm"
    >
      {sorted.map((outcome) => (
        <ResultItem key={outcome.id} outcome={outcome} done={done} />
      ))}
    </ul>
  );
}

/** One record's outcome; memoized, so a batch of new outcomes renders only the new items. */
const ResultItem = memo(function ResultItem({
  outcome,
  done,
}: {
  outcome: BulkOutcome;
  done: string;
}) {
  return (
    <li className="flex items-start gap-2 px-3 py-1.5">
      {outcome.ok ? (
        <CheckCircle2 aria-hidden="true" className="text-success mt-0.5 size-4 shrink-0" />
      ) : (
        <XCircle aria-hidden="true" className="text-destructive mt-0.5 size-4 shrink-0" />
      )}
      <span className="font-mono text-xs leading-5">{outcome.id}</span>
      <span className={outcome.ok ? 'text-muted-foreground' : 'text-destructive'}>
        {outcome.ok
          ? done.charAt(0).toUpperCase() + done.slice(1)
          : outcome.status === 412
            ? `Conflict: ${outcome.reason}`
            : `Failed: ${outcome.reason}`}
      </span>
    </li>
  );
});
