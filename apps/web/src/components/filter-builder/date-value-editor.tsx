import { useId, useState } from 'react';

import type { Field } from '@wsc/api-client';
import type { ComparisonOperator } from '@wsc/rsql';
import { describeRelativeDate, parseRelativeDate } from '@wsc/rsql';

import { FieldEditor } from '@/components/field-editor.tsx';
import { Input } from '@/components/ui/input.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

import type { DateValueKind } from './relative-date.ts';
import {
  DATE_VALUE_KINDS,
  dateValueChoice,
  dateValueText,
  defaultDays,
  relativeDateHint,
} from './relative-date.ts';

/**
 * The value of a date or date-time condition: a "when" menu (a specific date, or a relative one
 * such as "Last N days" that stays relative in the URL and saved views) and, as the choice needs,
 * a date picker or a number of days. "Overdue" sets the operator too (`=lt={now}`), so it is only
 * offered where the value stands alone (`onOverdue`).
 *
 * @example
 * <DateValueEditor field={field} id="f1-v0" label="Due Date value" value="{last7d}" operator="==" onChange={setValue} />
 */
export function DateValueEditor({
  field,
  id,
  label,
  value,
  operator,
  onChange,
  onOverdue,
}: {
  field: Field;
  id: string;
  label: string;
  value: string;
  operator: ComparisonOperator;
  onChange: (value: string) => void;
  onOverdue?: (() => void) | undefined;
}) {
  const hintId = useId();
  const choice = dateValueChoice(value, operator);
  const entry = DATE_VALUE_KINDS.find((k) => k.kind === choice.kind);
  const kinds = DATE_VALUE_KINDS.filter(
    (k) => k.kind !== 'overdue' || onOverdue !== undefined || choice.kind === 'overdue',
  );
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const hint = relativeDateHint(value, { now: new Date(), timeZone });

  function pick(kind: DateValueKind) {
    if (kind === 'overdue' && onOverdue) {
      onOverdue();
      return;
    }
    onChange(dateValueText({ kind, days: defaultDays(kind) }, value));
  }

  return (
    <div className="grid gap-1">
      <div className="flex min-w-0 gap-2">
        <NativeSelect
          aria-label={`${label} kind`}
          value={choice.kind}
          onChange={(event) => pick(event.target.value as DateValueKind)}
          className="min-w-0 flex-1"
        >
          {kinds.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.kind === 'exact' && field.type === 'DATETIME' ? 'Specific time' : k.label}
            </option>
          ))}
          {choice.kind === 'custom' && <option value="custom">{customLabel(value)}</option>}
        </NativeSelect>
        {choice.kind === 'exact' && (
          <div className="min-w-0 flex-1">
            <FieldEditor
              field={field}
              id={id}
              ariaLabel={label}
              value={value}
              onChange={onChange}
            />
          </div>
        )}
        {entry?.count && (
          <DaysInput
            id={id}
            label={`${label} days`}
            min={choice.kind === 'daysAgo' ? 0 : 1}
            days={choice.days}
            describedBy={hint ? hintId : undefined}
            onChange={(days) => onChange(dateValueText({ ...choice, days }, value))}
          />
        )}
      </div>
      {hint && (
        <p id={hintId} className="text-muted-foreground text-xs" data-testid="relative-date-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

function customLabel(value: string): string {
  try {
    return `${describeRelativeDate(parseRelativeDate(value))} (${value})`;
  } catch {
    return value;
  }
}

/**
 * The number of days: typed freely (an emptied field stays empty while typing), committed when it
 * is a whole number in range, and shown as committed again on blur.
 */
function DaysInput({
  id,
  label,
  min,
  days,
  describedBy,
  onChange,
}: {
  id: string;
  label: string;
  min: number;
  days: number;
  describedBy: string | undefined;
  onChange: (days: number) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <Input
      id={id}
      type="number"
      inputMode="numeric"
      min={min}
      max={9999}
      aria-label={label}
      aria-describedby={describedBy}
      value={draft ?? String(days)}
      onChange={(event) => {
        const text = event.target.value;
        setDraft(text);
        const next = Number(text);
        if (text !== '' && Number.isInteger(next) && next >= min && next <= 9999) onChange(next);
      }}
      onBlur={() => setDraft(null)}
      className="w-20"
    />
  );
}
