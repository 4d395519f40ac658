import { X } from 'lucide-react';
import { useRef, useState } from 'react';

import { Input } from '@/components/ui/input.tsx';
import { cn } from '@/lib/utils.ts';

import { splitValues } from '../lib/draft.ts';

/**
 * A picklist's values as removable chips, plus an input that adds one on Enter or comma (pasting
 * a comma-separated list adds them all). Text left in the input is added when it loses focus, so
 * a value typed just before Save is not lost.
 */
export function ValuesInput({
  id,
  fieldName,
  values,
  onChange,
  invalid,
  describedBy,
}: {
  id: string;
  /** The field's name, to say which field each remove button belongs to. */
  fieldName: string;
  values: string[];
  onChange: (values: string[]) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = `${id}-hint`;

  const add = (raw: string) => {
    const added = splitValues(raw).filter((value) => !values.includes(value));
    if (added.length > 0) onChange([...values, ...added]);
    setText('');
  };
  const remove = (index: number) => {
    onChange(values.filter((_, i) => i !== index));
    // The chip's button disappears with it: keep focus in the control rather than on the page.
    inputRef.current?.focus();
  };

  return (
    <div
      className={cn(
        'border-input bg-background focus-within:border-ring focus-within:ring-ring/50 flex min-h-9 flex-wrap items-center gap-1 rounded-md border px-1.5 py-1 shadow-xs focus-within:ring-[3px]',
        invalid && 'border-destructive',
      )}
    >
      {values.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label={`Values of ${fieldName || 'this field'}`}>
          {values.map((value, index) => (
            <li
              // Values from a saved definition may repeat; the index keeps keys unique.
              key={`${index}:${value}`}
              className="bg-secondary text-secondary-foreground inline-flex items-center gap-0.5 rounded py-0.5 pr-0.5 pl-2 text-xs"
            >
              {value}
              <button
                type="button"
                className="hover:bg-background/60 focus-visible:ring-ring/50 rounded-sm p-0.5 outline-none focus-visible:ring-[3px]"
                aria-label={`Remove value ${value}`}
                onClick={() => remove(index)}
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <Input
        ref={inputRef}
        id={id}
        value={text}
        placeholder={values.length === 0 ? 'Add values…' : 'Add…'}
        autoComplete="off"
        className="h-7 min-w-24 flex-1 border-0 px-1 shadow-none focus-visible:ring-0"
        aria-invalid={invalid || undefined}
        aria-describedby={[hintId, describedBy].filter(Boolean).join(' ')}
        onChange={(event) => {
          const next = event.target.value;
          if (next.includes(',')) add(next);
          else setText(next);
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          // Enter adds a value here; it must not submit the whole editor.
          event.preventDefault();
          add(text);
        }}
        onBlur={() => add(text)}
      />
      <span id={hintId} className="sr-only">
        Press Enter or type a comma to add a value.
      </span>
    </div>
  );
}
