import { AlertCircle, CheckCircle2, Download, Loader2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';

import type { ExportEncoder } from '@/lib/export/cells.ts';
import type { ExportProgress, ExportSource } from '@/lib/export/run-export.ts';
import { describeError } from '@/components/errors/error-message.ts';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { ProgressFill } from '@/components/ui/progress-fill.tsx';
import { createCsvEncoder } from '@/lib/export/csv.ts';
import { runExport } from '@/lib/export/run-export.ts';
import { openExportSink } from '@/lib/export/sink.ts';
import { formatCount } from '@/lib/format.ts';

type Format = 'csv' | 'xlsx';

const FORMATS: { value: Format; label: string }[] = [
  { value: 'csv', label: 'CSV (UTF-8, comma-separated)' },
  { value: 'xlsx', label: 'Excel workbook (.xlsx)' },
];

type State =
  | { step: 'choose' }
  | { step: 'running'; progress: ExportProgress }
  | { step: 'done'; rows: number; skipped: number; fileName: string; saved: boolean }
  | { step: 'cancelled' }
  | { step: 'failed'; error: unknown };

export interface ExportButtonProps {
  /** What is exported, for the dialog's title ("Support tickets"). */
  title: string;
  /** The file name before the date and extension ("support-tickets"). */
  fileStem: string;
  /** The rows the list would show, as far as it knows (`undefined`: the service gives no total). */
  total: number | undefined;
  /** Reads the list as it is now (filter, sort, visible columns) when the export starts. */
  createSource: () => ExportSource;
  /** Said in the dialog: what the file holds (filter, order, columns). */
  description: React.ReactNode;
}

/**
 * "Export" for a list page: a dialog that writes every row matching the list's filter, in its
 * order and columns, as CSV or XLSX, with a progress bar and Cancel. The file is written as the
 * pages arrive (into the file chosen in the save dialog, where the browser has one; else a
 * download when done); the XLSX writer is loaded on first use. ADR 0019.
 *
 * @example
 * <ExportButton title="Users" fileStem="users" total={total} createSource={...} description="Everyone matching the filter." />
 */
export function ExportButton({
  title,
  fileStem,
  total,
  createSource,
  description,
}: ExportButtonProps) {
  const [open, setOpen] = useState(false);
  const [format, setFormat] = useState<Format>('csv');
  const [state, setState] = useState<State>({ step: 'choose' });
  const controller = useRef<AbortController | null>(null);
  const formatName = useId();

  // Leaving the page stops an export in flight (and discards its file).
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    const fileName = `${fileStem}-${new Date().toISOString().slice(0, 10)}.${format}`;
    const abort = new AbortController();
    controller.current = abort;
    // The save dialog first: browsers only open it straight from the click.
    const sink = await openExportSink(
      fileName,
      format === 'csv'
        ? 'text/csv'
        : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      format === 'csv' ? 'CSV file' : 'Excel workbook',
    ).catch((error: unknown) => {
      setState({ step: 'failed', error });
      return undefined;
    });
    if (sink === undefined) return;
    if (sink === null) return; // closed the save dialog: nothing started
    setState({ step: 'running', progress: { rows: 0, total, skipped: 0 } });
    try {
      const encoder: ExportEncoder =
        format === 'csv'
          ? createCsvEncoder()
          : (await import('@/lib/export/xlsx.ts')).createXlsxEncoder(title);
      const result = await runExport({
        source: createSource(),
        encoder,
        sink,
        signal: abort.signal,
        onProgress: (progress) => setState({ step: 'running', progress }),
      });
      setState({ step: 'done', ...result, fileName, saved: sink.kind === 'file' });
    } catch (error) {
      // The file is discarded (again, if the export already did: a no-op), also when the XLSX
      // writer failed to load before anything was written.
      await sink.abort().catch(() => undefined);
      setState(abort.signal.aborted ? { step: 'cancelled' } : { step: 'failed', error });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  const cancel = () => controller.current?.abort();
  const running = state.step === 'running';

  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={() => {
          setState({ step: 'choose' });
          setOpen(true);
        }}
      >
        <Download aria-hidden="true" />
        Export
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (!next) cancel();
          setOpen(next);
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Export {title}</DialogTitle>
            <DialogDescription>{description}</DialogDescription>
          </DialogHeader>

          <fieldset className="grid gap-2" disabled={running}>
            <legend className="mb-1 text-sm font-medium">Format</legend>
            {FORMATS.map((option) => (
              <label key={option.value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={formatName}
                  value={option.value}
                  className="accent-primary size-4"
                  checked={format === option.value}
                  onChange={() => setFormat(option.value)}
                />
                {option.label}
              </label>
            ))}
          </fieldset>
          <p className="text-muted-foreground text-xs">
            {total === undefined
              ? 'Every matching row is exported; this service does not say how many there are.'
              : `${formatCount(total)} ${total === 1 ? 'row' : 'rows'} match.`}{' '}
            Dates and times are ISO 8601 in UTC (their headers say so). Text starting with =, +, -,
            @, a tab or a return is kept as text, never run as a formula.
          </p>

          <div role="status" aria-live="polite" className="grid gap-2 empty:hidden">
            {state.step === 'running' && <ExportProgressBar progress={state.progress} />}
            {state.step === 'done' && (
              <p className="flex items-center gap-2 text-sm" data-testid="export-result">
                <CheckCircle2 className="size-4 text-emerald-600" aria-hidden="true" />
                Exported {formatCount(state.rows)} {state.rows === 1 ? 'row' : 'rows'}{' '}
                {state.saved ? 'to' : 'as'} {state.fileName}.
                {state.skipped > 0 &&
                  ` ${formatCount(state.skipped)} the service sent without an id were left out.`}
              </p>
            )}
            {state.step === 'cancelled' && (
              <p className="text-sm" data-testid="export-result">
                Export cancelled; nothing was saved.
              </p>
            )}
          </div>
          {state.step === 'failed' && (
            <Alert variant="destructive">
              <AlertCircle aria-hidden="true" />
              <AlertTitle>The export stopped: {describeError(state.error).title}</AlertTitle>
              <AlertDescription>
                {describeError(state.error).description} No file was saved; try again.
              </AlertDescription>
            </Alert>
          )}

          <DialogFooter>
            {running ? (
              <Button variant="outline" onClick={cancel}>
                Cancel export
              </Button>
            ) : (
              <Button variant="outline" onClick={() => setOpen(false)}>
                Close
              </Button>
            )}
            <Button onClick={() => void start()} disabled={running}>
              {running ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Download aria-hidden="true" />
              )}
              {state.step === 'done' ? 'Export again' : 'Export'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

/** The bar and the words under it: rows written of how many, or a wait the service asked for. */
function ExportProgressBar({ progress }: { progress: ExportProgress }) {
  const { rows, total, waitingSeconds } = progress;
  const known = total !== undefined && total > 0;
  const percent = known ? Math.min(100, Math.round((rows / total) * 100)) : undefined;
  return (
    <>
      <div
        role="progressbar"
        aria-label="Export progress"
        aria-valuemin={0}
        aria-valuemax={known ? total : undefined}
        aria-valuenow={known ? rows : undefined}
        aria-valuetext={`${formatCount(rows)} rows written`}
        className="bg-muted h-2 overflow-hidden rounded-full"
      >
        <ProgressFill
          fraction={known ? (percent ?? 0) / 100 : undefined}
          className={known ? undefined : 'w-1/3 animate-pulse'}
        />
      </div>
      <p className="text-muted-foreground text-xs tabular-nums" data-testid="export-progress">
        {known
          ? `${formatCount(rows)} of ${formatCount(total)} rows written`
          : `${formatCount(rows)} rows written`}
        {waitingSeconds !== undefined &&
          ` · the service asked to slow down; going on in ${waitingSeconds} s`}
      </p>
    </>
  );
}
