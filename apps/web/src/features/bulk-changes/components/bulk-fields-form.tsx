import { Plus, Trash2 } from 'lucide-react';

import type { Field } from '@wsc/api-client';

import { FieldEditor } from '@/components/field-editor.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

import type { BulkRow } from '../lib/bulk-rows.ts';
import { withNextField } from '../lib/bulk-rows.ts';

/**
 * The bulk change form: one line per field to set (the field, and its typed value editor), lines
 * added and removed, a field listed at most once. Submitting asks for the preview.
 */
export function BulkFieldsForm({
  id,
  editable,
  rows,
  onRowsChange,
  problem,
  onSubmit,
}: {
  /** The form's id (the dialog's submit button points at it); also prefixes the fields' ids. */
  id: string;
  editable: Field[];
  rows: BulkRow[];
  onRowsChange: (update: (rows: BulkRow[]) => BulkRow[]) => void;
  problem: string | undefined;
  onSubmit: () => void;
}) {
  const byName = new Map(editable.map((f) => [f.name, f]));
  return (
    <form
      id={id}
      className="grid gap-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {rows.map((row, index) => {
        const field = byName.get(row.field);
        const fieldId = `${id}-field-${row.key}`;
        const valueId = `${id}-value-${row.key}`;
        return (
          <div key={row.key} className="grid grid-cols-[12rem_1fr_auto] items-end gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor={fieldId}>Field {index + 1}</Label>
              <NativeSelect
                id={fieldId}
                value={row.field}
                onChange={(event) =>
                  onRowsChange((current) =>
                    current.map((r) =>
                      r.key === row.key ? { ...r, field: event.target.value, value: '' } : r,
                    ),
                  )
                }
              >
                {editable.map((f) => (
                  <option
                    key={f.name}
                    value={f.name}
                    disabled={f.name !== row.field && rows.some((r) => r.field === f.name)}
                  >
                    {f.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={valueId} id={`${valueId}-label`}>
                New {field?.name ?? 'value'}
              </Label>
              {field && (
                <FieldEditor
                  field={field}
                  id={valueId}
                  labelledBy={`${valueId}-label`}
                  value={row.value}
                  onChange={(value) =>
                    onRowsChange((current) =>
                      current.map((r) => (r.key === row.key ? { ...r, value } : r)),
                    )
                  }
                />
              )}
            </div>
            <Button
              type="button"
              variant="ghost"
              size="icon-sm"
              aria-label={`Remove ${row.field}`}
              disabled={rows.length === 1}
              onClick={() => onRowsChange((current) => current.filter((r) => r.key !== row.key))}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        );
      })}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={rows.length >= editable.length}
          onClick={() => onRowsChange((current) => withNextField(current, editable))}
        >
          <Plus aria-hidden="true" /> Add field
        </Button>
      </div>
      <p className="text-muted-foreground text-xs">
        An empty value clears an optional field. Fields not listed stay as they are.
      </p>
      {problem && (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      )}
    </form>
  );
}
