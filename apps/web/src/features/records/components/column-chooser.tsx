import { Columns3 } from 'lucide-react';

import type { Field } from '@wsc/api-client';

import { Button } from '@/components/ui/button.tsx';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu.tsx';

/**
 * A menu of checkboxes, one per field, that picks the table's columns (the id stays).
 */
export function ColumnChooser({
  fields,
  columns,
  onChange,
  onReset,
}: {
  fields: Field[];
  columns: string[];
  onChange: (columns: string[]) => void;
  onReset: () => void;
}) {
  function toggle(name: string, checked: boolean) {
    if (checked) {
      // Insert in definition order, so that columns do not jump around as they are toggled.
      const order = fields.map((f) => f.name);
      onChange(order.filter((n) => n === name || columns.includes(n)));
    } else {
      onChange(columns.filter((n) => n !== name));
    }
  }
  return (
    // Non-modal: no scroll lock, whose injected <style> the BFF's strict CSP (style-src 'self') blocks.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm">
          <Columns3 aria-hidden="true" />
          Columns
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel>Show columns</DropdownMenuLabel>
        {fields
          .filter((f) => f.name !== 'id')
          .map((field) => (
            <DropdownMenuCheckboxItem
              key={field.name}
              checked={columns.includes(field.name)}
              // Keep the menu open so that several columns can be toggled in a row.
              onSelect={(event) => event.preventDefault()}
              onCheckedChange={(checked) => toggle(field.name, checked === true)}
            >
              {field.name}
            </DropdownMenuCheckboxItem>
          ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onReset}>Reset to default</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
