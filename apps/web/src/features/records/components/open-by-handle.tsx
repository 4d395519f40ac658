import { ArrowRight, ListX } from 'lucide-react';
import { useId, useState } from 'react';

import type { Definition } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';

/**
 * For record types the service cannot list (elements, against the hosted API, where
 * `GET /elements/{alias}` describes the element type instead of listing its records): says so
 * plainly and opens a record by its handle (`CUS-12`), which the service does serve. Related items
 * on other records link here too.
 *
 * @example
 * <OpenByHandle definition={customers} onOpen={(id) => navigate(...)} />
 */
export function OpenByHandle({
  definition,
  onOpen,
}: {
  definition: Definition;
  onOpen: (id: string) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const prefix = definition.handle ? `${definition.handle}-` : '';

  function submit() {
    const raw = value.trim().toUpperCase();
    if (raw === '') return setProblem('Enter a handle.');
    // A bare number is completed with the definition's handle: "12" opens CUS-12.
    const id = /^\d+$/.test(raw) && prefix ? `${prefix}${raw}` : raw;
    if (prefix && !id.startsWith(prefix)) {
      return setProblem(`${definition.name} handles start with ${prefix}`);
    }
    setProblem(null);
    onOpen(id);
  }

  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 p-10 text-center">
      <span className="bg-muted text-muted-foreground flex size-10 items-center justify-center rounded-full">
        <ListX className="size-5" aria-hidden="true" />
      </span>
      <div className="grid max-w-lg gap-1">
        <h2 className="text-base font-semibold">{definition.name} cannot be listed here</h2>
        <p className="text-muted-foreground text-sm" id={hintId}>
          The service&apos;s published API has no way to list {definition.name.toLowerCase()}: it
          can only read them one at a time. Open one by its handle, or from the related items of
          another record.
        </p>
      </div>
      <form
        className="flex w-full max-w-sm items-end gap-2 text-left"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="grid flex-1 gap-1.5">
          <Label htmlFor={inputId}>Handle</Label>
          <Input
            id={inputId}
            value={value}
            placeholder={prefix ? `${prefix}1` : 'Handle'}
            aria-describedby={hintId}
            aria-invalid={problem !== null || undefined}
            onChange={(event) => setValue(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <Button type="submit">
          Open
          <ArrowRight aria-hidden="true" />
        </Button>
      </form>
      {problem && (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      )}
    </div>
  );
}
