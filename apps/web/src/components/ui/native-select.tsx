import type * as React from 'react';
import { ChevronDown } from 'lucide-react';

import { cn } from '@/lib/utils.ts';

/**
 * A styled native `<select>`: the platform's own keyboard, screen reader and mobile behaviour,
 * which a custom listbox would have to re-implement (picklists, operators, regions).
 */
function NativeSelect({ className, ...props }: React.ComponentProps<'select'>) {
  return (
    <div data-slot="native-select-wrapper" className={cn('relative', className)}>
      <select
        data-slot="native-select"
        className="border-input bg-background focus-visible:border-ring focus-visible:ring-ring/50 aria-invalid:border-destructive dark:bg-background h-9 w-full min-w-0 appearance-none rounded-md border py-1 pr-8 pl-3 text-sm shadow-xs outline-none focus-visible:ring-[3px] disabled:cursor-not-allowed disabled:opacity-50"
        {...props}
      />
      <ChevronDown
        aria-hidden="true"
        className="text-muted-foreground pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2"
      />
    </div>
  );
}

export { NativeSelect };
