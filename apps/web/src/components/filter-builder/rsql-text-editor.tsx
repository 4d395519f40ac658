import { useId } from 'react';

import { checkRelativeDates, isRsqlError, parse } from '@wsc/rsql';

import { Textarea } from '@/components/ui/input.tsx';

import type { FilterField } from './filter-field.ts';

/** The RSQL text mode's state: the text and, when it does not parse, where and why. */
export interface TextState {
  text: string;
  error: { message: string; position: number } | null;
}

/**
 * Checks RSQL text as typed: no error for blank text or text that parses and whose relative dates
 * on the date fields of `fields` are valid (ADR 0017).
 *
 * @example
 * checkText('Status=foo=Open').error?.position; // 6
 * checkText('Due=={lastt7d}', [{ name: 'Due', type: 'DATE' }]).error?.position; // 6
 */
export function checkText(text: string, fields: readonly FilterField[] = []): TextState {
  if (text.trim() === '') return { text, error: null };
  try {
    const node = parse(text);
    checkRelativeDates(node, text, (name) => fields.find((f) => f.name === name)?.type);
    return { text, error: null };
  } catch (error) {
    if (isRsqlError(error))
      return { text, error: { message: error.message, position: error.position } };
    throw error;
  }
}

/**
 * The RSQL text mode: the filter as text, with the parse error under it (its character marked).
 *
 * @example
 * <RsqlTextEditor text={text} onChange={(next) => setText(checkText(next))} />
 */
export function RsqlTextEditor({
  text,
  onChange,
}: {
  text: TextState;
  onChange: (text: string) => void;
}) {
  const textId = useId();
  const errorId = useId();
  return (
    <div className="grid gap-2">
      <label htmlFor={textId} className="text-sm font-medium">
        RSQL filter
      </label>
      <Textarea
        id={textId}
        value={text.text}
        spellCheck={false}
        autoCapitalize="none"
        aria-invalid={text.error ? true : undefined}
        aria-describedby={text.error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
        className="min-h-24 font-mono text-[13px]"
        placeholder="Status=in=(New,Open);Severity==High"
      />
      {text.error && <RsqlErrorView id={errorId} text={text.text} error={text.error} />}
    </div>
  );
}

/**
 * Shows a parse error with the offending character highlighted and a caret under it.
 *
 * @example
 * <RsqlErrorView text="Status=foo=Open" error={{ message: 'Unknown operator', position: 6 }} />
 */
function RsqlErrorView({
  id,
  text,
  error,
}: {
  id?: string;
  text: string;
  error: { message: string; position: number };
}) {
  const position = Math.max(0, Math.min(error.position, text.length));
  // Show the line holding the error, so that multi-line filters point at the right place.
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  const lineEndRaw = text.indexOf('\n', position);
  const lineEnd = lineEndRaw === -1 ? text.length : lineEndRaw;
  const line = text.slice(lineStart, lineEnd);
  const column = position - lineStart;
  return (
    <div
      id={id}
      role="alert"
      className="border-destructive/40 grid gap-1.5 rounded-md border p-2.5 text-sm"
    >
      <p className="text-destructive font-medium">
        {error.message}{' '}
        <span className="text-muted-foreground font-normal">(at character {position + 1})</span>
      </p>
      <pre aria-hidden="true" className="overflow-x-auto font-mono text-[13px] leading-5">
        {line.slice(0, column)}
        <mark
          data-testid="rsql-error-mark"
          className="bg-destructive text-destructive-foreground rounded-xs"
        >
          {line.slice(column, column + 1) || ' '}
        </mark>
        {line.slice(column + 1)}
        {'\n'}
        <span className="text-destructive">{' '.repeat(column)}^</span>
      </pre>
    </div>
  );
}
