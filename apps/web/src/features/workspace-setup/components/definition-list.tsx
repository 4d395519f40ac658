import { AlertCircle, Loader2, Pencil, ScanSearch, Trash2 } from 'lucide-react';

import type { WorkspaceEntry } from '@wsc/api-client';

import { describeError } from '@/components/errors/error-message.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { formatCount } from '@/lib/format.ts';

import { RECORD_TYPE_LABELS } from '../lib/draft.ts';
import { entryKey, groupByRecordType, sourceText } from '../lib/entries.ts';

/**
 * What the list's actions report. Their buttons carry `data-focus-key` (`<key>:edit`,
 * `<key>:resample`), so the page can return focus to them after the editor, which replaces the
 * list while it is open.
 */
export interface EntryActions {
  onEdit: (entry: WorkspaceEntry) => void;
  onResample: (entry: WorkspaceEntry) => void;
  onRemove: (entry: WorkspaceEntry) => void;
  /** The key being re-sampled, if any. */
  resampling?: string;
  /** A re-sample that failed, shown on its entry. */
  resampleError?: { key: string; error: unknown };
}

const BUSY_CLASSES = 'aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid content-start gap-0.5">
      <dt className="text-muted-foreground text-xs">{term}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

function EntryCard({
  entry,
  editable,
  actions,
}: {
  entry: WorkspaceEntry;
  editable: boolean;
  actions: EntryActions;
}) {
  const { definition } = entry;
  const key = entryKey(definition);
  const headingId = `entry-${key.replace(/[^\w-]/g, '_')}`;
  const fieldCount = definition.fields.length;
  const resampling = actions.resampling === key;
  const failed = actions.resampleError?.key === key ? actions.resampleError.error : undefined;
  const changeable = editable && entry.source === 'store';
  // aria-disabled rather than disabled: a disabled button drops the keyboard focus it holds.
  const busy = actions.resampling !== undefined;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="bg-card text-card-foreground grid gap-3 rounded-lg border p-4"
        data-testid="workspace-entry"
      >
        <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
          <div className="grid min-w-0 flex-1 gap-0.5">
            <h4 id={headingId} className="font-semibold">
              {definition.name}
            </h4>
            <p className="text-muted-foreground font-mono text-xs break-all">{key}</p>
          </div>
          <Badge variant={entry.source === 'file' ? 'outline' : 'secondary'}>
            {entry.source === 'file' ? 'Operator file' : 'Added here'}
          </Badge>
        </div>
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-2 lg:grid-cols-3">
          <Detail term="Handle">{definition.handle || 'none'}</Detail>
          <Detail term="Fields">
            {formatCount(fieldCount)} {fieldCount === 1 ? 'field' : 'fields'}
          </Detail>
          <Detail term="Title field">{definition.titleField ?? 'none'}</Detail>
          <Detail term="Handle field">
            {definition.handleField ?? 'none: records can be listed but not opened'}
          </Detail>
          {definition.listable === false && (
            <Detail term="Listing">Not offered by the service: records open by handle</Detail>
          )}
          <Detail term="Source">{sourceText(entry)}</Detail>
        </dl>
        {changeable && (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              size="sm"
              className={BUSY_CLASSES}
              aria-disabled={busy || undefined}
              // The visible word starts the name (WCAG 2.5.3); the rest says which entry.
              aria-label={`Edit ${definition.name}`}
              data-focus-key={`${key}:edit`}
              onClick={() => !busy && actions.onEdit(entry)}
            >
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              variant="outline"
              size="sm"
              className={BUSY_CLASSES}
              aria-disabled={busy || undefined}
              aria-label={`${resampling ? 'Sampling' : 'Re-sample'} ${definition.name}`}
              data-focus-key={`${key}:resample`}
              onClick={() => !busy && actions.onResample(entry)}
            >
              {resampling ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <ScanSearch aria-hidden="true" />
              )}
              {resampling ? 'Sampling…' : 'Re-sample'}
            </Button>
            <Button
              variant="outline"
              size="sm"
              className={`${BUSY_CLASSES} text-destructive hover:text-destructive`}
              aria-disabled={busy || undefined}
              aria-label={`Remove ${definition.name}`}
              onClick={() => !busy && actions.onRemove(entry)}
            >
              <Trash2 aria-hidden="true" />
              Remove
            </Button>
          </div>
        )}
        {failed !== undefined && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>Re-sampling failed: {describeError(failed).title}</AlertTitle>
            <AlertDescription>{describeError(failed).description}</AlertDescription>
          </Alert>
        )}
      </article>
    </li>
  );
}

/**
 * The described record types, grouped by record type: what each is called, its key, handle,
 * number of fields, title and handle fields and where it comes from. Definitions added on this
 * page get Edit, Re-sample and Remove when the session may change them; the operator's file is
 * read-only here.
 */
export function DefinitionList({
  items,
  editable,
  ...actions
}: { items: WorkspaceEntry[]; editable: boolean } & EntryActions) {
  if (items.length === 0) {
    return (
      <p className="text-muted-foreground rounded-lg border border-dashed p-8 text-center text-sm">
        No record types are described for this region yet.
        {editable && ' Add one above: the console then lists it in the sidebar.'}
      </p>
    );
  }
  return (
    <div className="grid gap-6">
      {groupByRecordType(items).map(([recordType, entries]) => (
        <section key={recordType} aria-labelledby={`group-${recordType}`} className="grid gap-3">
          <h3 id={`group-${recordType}`} className="text-sm font-semibold">
            {RECORD_TYPE_LABELS[recordType]}{' '}
            <span className="text-muted-foreground font-normal">({entries.length})</span>
          </h3>
          <ul className="grid gap-3">
            {entries.map((entry) => (
              <EntryCard
                key={entryKey(entry.definition)}
                entry={entry}
                editable={editable}
                actions={actions}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
