import { X } from 'lucide-react';
import { useMemo, useState } from 'react';

import type { Field } from '@wsc/api-client';

import { Input } from '@/components/ui/input.tsx';
import { UserPicker } from '@/components/user-picker.tsx';
import { cn } from '@/lib/utils.ts';

/** Values of `=in=` / `=out=`: picklist toggles, people, or free text chips. */
export function ManyValuesEditor({
  field,
  label,
  values,
  onChange,
}: {
  field: Field;
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
}) {
  const [draft, setDraft] = useState('');
  const options = useMemo(
    () => [...new Set([...(field.values ?? []), ...values])],
    [field.values, values],
  );

  if (field.type === 'PICKLIST' || field.type === 'MULTI_PICKLIST') {
    return (
      <div role="group" aria-label={label} className="flex flex-wrap gap-1.5">
        {options.map((option) => {
          const checked = values.includes(option);
          return (
            <label
              key={option}
              className={cn(
                'has-[:focus-visible]:ring-ring/50 inline-flex cursor-pointer items-center rounded-md border px-2 py-1 text-xs font-medium has-[:focus-visible]:ring-[3px]',
                checked
                  ? 'border-primary bg-primary text-primary-foreground'
                  : 'bg-background hover:bg-accent',
              )}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={checked}
                onChange={() =>
                  onChange(
                    checked
                      ? values.filter((v) => v !== option)
                      : options.filter((o) => o === option || values.includes(o)),
                  )
                }
              />
              {option}
            </label>
          );
        })}
      </div>
    );
  }

  const add = (value: string) => {
    const trimmed = value.trim();
    if (trimmed && !values.includes(trimmed)) onChange([...values, trimmed]);
    setDraft('');
  };

  return (
    <div role="group" aria-label={label} className="grid gap-1.5">
      {values.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Chosen values">
          {values.map((value) => (
            <li
              key={value}
              className="bg-secondary inline-flex items-center gap-1 rounded-md border py-0.5 pr-0.5 pl-2 text-xs"
            >
              {value}
              <button
                type="button"
                aria-label={`Remove ${value}`}
                className="hover:bg-accent focus-visible:ring-ring/50 rounded-sm p-0.5 focus-visible:ring-[3px] focus-visible:outline-none"
                onClick={() => onChange(values.filter((v) => v !== value))}
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {field.type === 'USER_ID' ? (
        <UserPicker
          value=""
          onChange={add}
          ariaLabel={`Add ${label}`}
          placeholder="Add a person…"
        />
      ) : (
        <Input
          aria-label={`Add ${label}`}
          placeholder="Type a value, press Enter"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' || event.key === ',') {
              event.preventDefault();
              add(draft);
            }
          }}
          onBlur={() => add(draft)}
        />
      )}
    </div>
  );
}
