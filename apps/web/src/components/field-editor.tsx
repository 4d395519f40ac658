import type { Field } from '@wsc/api-client';

import { Input } from '@/components/ui/input.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { UserPicker } from '@/components/user-picker.tsx';
import { isoToDateInput, isoToLocalInput, localInputToIso } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';

export interface FieldEditorProps {
  field: Field;
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  disabled?: boolean;
  /** Accessible name when no `<label htmlFor>` points at the control (filter builder rows). */
  ariaLabel?: string;
  /** Id of the visible label, for editors that are groups rather than one labelable control. */
  labelledBy?: string;
}

/** MULTI_PICKLIST values are stored as one string, comma and space separated. */
export const MULTI_SEPARATOR = ', ';

/**
 * Splits a stored multi-picklist value.
 *
 * @example
 * splitMulti('vip, urgent'); // ['vip', 'urgent']
 */
export function splitMulti(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/**
 * The typed editor of one field: picklist selects, a people picker, a native date picker (a
 * calendar date, `YYYY-MM-DD`), a date-time picker in local time that stores UTC
 * `YYYY-MM-DDTHH:MM:SS.SSSZ`, and text or number inputs.
 */
export function FieldEditor({
  field,
  id,
  value,
  onChange,
  invalid,
  describedBy,
  disabled,
  ariaLabel,
  labelledBy,
}: FieldEditorProps) {
  const common = {
    id,
    disabled,
    'aria-label': ariaLabel,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  };
  switch (field.type) {
    case 'PICKLIST': {
      const values = field.values ?? [];
      return (
        <NativeSelect {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{field.required ? 'Choose…' : '— None —'}</option>
          {/* Keep a value that is no longer in the list visible rather than silently dropping it. */}
          {value && !values.includes(value) && <option value={value}>{value}</option>}
          {values.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </NativeSelect>
      );
    }
    case 'MULTI_PICKLIST':
      return (
        <MultiPicklistEditor
          {...{ field, id, value, onChange, invalid, describedBy, disabled, ariaLabel, labelledBy }}
        />
      );
    case 'BOOLEAN':
      return (
        <NativeSelect {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{field.required ? 'Choose…' : '— Not set —'}</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </NativeSelect>
      );
    case 'USER_ID':
      return (
        <UserPicker
          id={id}
          value={value}
          onChange={onChange}
          invalid={invalid}
          describedBy={describedBy}
          required={field.required}
          disabled={disabled}
          ariaLabel={ariaLabel}
        />
      );
    case 'DATE':
      return (
        <Input
          {...common}
          type="date"
          value={isoToDateInput(value)}
          // DATE fields hold a calendar date, `YYYY-MM-DD`, exactly what the API validates.
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case 'DATETIME':
      return (
        <Input
          {...common}
          type="datetime-local"
          step={1}
          value={isoToLocalInput(value)}
          onChange={(event) => onChange(localInputToIso(event.target.value))}
        />
      );
    case 'NUMBER':
    case 'DECIMAL':
      return (
        <Input
          {...common}
          inputMode="decimal"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className="tabular-nums"
        />
      );
    default:
      return <Input {...common} value={value} onChange={(event) => onChange(event.target.value)} />;
  }
}

function MultiPicklistEditor({
  field,
  id,
  value,
  onChange,
  invalid,
  describedBy,
  disabled,
  ariaLabel,
  labelledBy,
}: FieldEditorProps) {
  const selected = splitMulti(value);
  const options = [...new Set([...(field.values ?? []), ...selected])];
  function toggle(option: string) {
    const next = selected.includes(option)
      ? selected.filter((v) => v !== option)
      : [...selected, option];
    // Keep the definition's order so that the same choice always stores the same string.
    const ordered = options.filter((o) => next.includes(o));
    onChange(ordered.join(MULTI_SEPARATOR));
  }
  return (
    <div
      id={id}
      role="group"
      aria-label={ariaLabel}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      className={cn('flex flex-wrap gap-1.5', invalid && 'ring-destructive rounded-md ring-1')}
    >
      {options.map((option) => {
        const checked = selected.includes(option);
        return (
          <label
            key={option}
            className={cn(
              'has-[:focus-visible]:ring-ring/50 inline-flex cursor-pointer items-center gap-1.5 rounded-md border px-2 py-1 text-xs font-medium transition-colors has-[:focus-visible]:ring-[3px]',
              checked
                ? 'border-primary bg-primary text-primary-foreground'
                : 'bg-background hover:bg-accent',
            )}
          >
            <input
              type="checkbox"
              className="sr-only"
              checked={checked}
              disabled={disabled}
              onChange={() => toggle(option)}
            />
            {option}
          </label>
        );
      })}
    </div>
  );
}
