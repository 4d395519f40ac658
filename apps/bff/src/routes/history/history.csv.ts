// The history's CSV export, streamed batch by batch: UTF-8 with a byte order mark, CRLF, one header
// row, times in ISO 8601 UTC, and text a spreadsheet would read as a formula prefixed with `'` so it
// never runs, in every `;`- or tab-separated part too (the rules of the console's own export, ADR
// 0019 and ADR 0026).
import type { HistoryEntry } from '@wsc/api-client/bff-history';
import { HISTORY_CSV_HEADER } from '@wsc/api-client/bff-history';

/** The characters a spreadsheet reads as the start of a formula or a command (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Text with a `'` before every part that would start a formula: the start, and each part after a
 * `;` or a tab, which a spreadsheet whose list separator is `;` (German, French, ...) or a tab
 * reads as a cell of its own when it ignores or loses the quoting.
 *
 * @example
 * neutralized('Acme;=cmd'); // "Acme;'=cmd"
 */
function neutralized(text: string): string {
  return text
    .split(/([;\t])/)
    .map((part, i) =>
      i % 2 === 0 && FORMULA_START.test(i === 0 ? text : part) ? `'${part}` : part,
    )
    .join('');
}

/**
 * One CSV field (RFC 4180), formula-like text neutralized. Quoted when it holds a quote, a comma,
 * a line break, or a `;` or tab (other locales' separators).
 *
 * @example
 * csvField('=1+1'); // "'=1+1"
 * csvField('a, "b"'); // '"a, ""b"""'
 * csvField('Acme;=cmd'); // `"Acme;'=cmd"`
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = neutralized(typeof value === 'string' ? value : JSON.stringify(value));
  return /[",;\t\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function line(entry: HistoryEntry): string {
  return [
    entry.at,
    entry.actor.id,
    entry.actor.name,
    entry.recordType,
    entry.alias,
    entry.recordId,
    entry.kind,
    entry.field,
    entry.before,
    entry.after,
    entry.source,
    entry.identity,
  ]
    .map(csvField)
    .join(',');
}

/**
 * The export as a byte stream, pulling the next batch only when the reader wants more.
 *
 * @example
 * new Response(historyCsv(batches()), { headers: { 'content-type': 'text/csv' } });
 */
export function historyCsv(batches: AsyncIterator<HistoryEntry[]>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(
          encoder.encode(`\uFEFF${HISTORY_CSV_HEADER.map(csvField).join(',')}\r\n`),
        );
        return;
      }
      const next = await batches.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map((e) => `${line(e)}\r\n`).join('')));
    },
    async cancel() {
      await batches.return?.();
    },
  });
}
