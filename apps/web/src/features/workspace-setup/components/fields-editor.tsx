import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef } from 'react';

import type { FieldType } from '@wsc/api-client';
import { FieldTypeSchema } from '@wsc/api-client';

import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';

import type { DraftErrors, FieldDraft, FieldPart } from '../lib/draft.ts';
import { emptyField, FIELD_TYPE_LABELS, PICKLIST_TYPES } from '../lib/draft.ts';
import { ValuesInput } from './values-input.tsx';

// One grid for the header and every row, so the columns line up at desktop widths; below `xl`
// each row stacks with its labels visible (tablets).
const ROW_GRID =
  'grid gap-x-3 gap-y-2 sm:grid-cols-2 xl:grid-cols-[minmax(9rem,1fr)_12.5rem_5rem_5rem_minmax(12rem,1.5fr)_2.25rem] xl:items-start';

const checkboxClasses =
  'accent-primary focus-visible:ring-ring/50 size-4 rounded outline-none focus-visible:ring-[3px]';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-destructive text-sm">
      {message}
    </p>
  );
}

/**
 * The fields table of the definition editor: each field's name, type, required and read-only
 * flags and (for picklists) values, with Remove per row and Add field below. Every control is
 * labelled; each row is a fieldset named after its field, so a screen reader hears which field a
 * control belongs to. Server and client messages show under the control they are about.
 */
export function FieldsEditor({
  idPrefix,
  fields,
  errors,
  onChange,
}: {
  idPrefix: string;
  fields: FieldDraft[];
  errors: DraftErrors['fields'];
  onChange: (fields: FieldDraft[]) => void;
}) {
  const addButton = useRef<HTMLButtonElement>(null);
  // Where focus goes once the rows have re-rendered (a new row's name, or a neighbour on remove).
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    focusNext.current = null;
    if (target === '') addButton.current?.focus();
    else document.getElementById(`${idPrefix}-${target}-name`)?.focus();
  }, [fields, idPrefix]);

  const update = (key: string, change: Partial<FieldDraft>) =>
    onChange(fields.map((field) => (field.key === key ? { ...field, ...change } : field)));
  const remove = (index: number) => {
    const neighbour = fields[index + 1] ?? fields[index - 1];
    focusNext.current = neighbour?.key ?? '';
    onChange(fields.filter((_, i) => i !== index));
  };
  const add = () => {
    const field = emptyField();
    focusNext.current = field.key;
    onChange([...fields, field]);
  };

  return (
    <div className="grid gap-2">
      <div
        aria-hidden="true"
        className={`${ROW_GRID} text-muted-foreground hidden px-3 text-xs font-medium xl:grid`}
      >
        <span>Name</span>
        <span>Type</span>
        <span>Required</span>
        <span>Read-only</span>
        <span>Picklist values</span>
        <span />
      </div>
      <ol className="grid gap-2" aria-label="Fields">
        {fields.map((field, index) => {
          const rowId = `${idPrefix}-${field.key}`;
          const rowErrors = errors[field.key] ?? {};
          const described = (part: FieldPart) =>
            rowErrors[part] ? `${rowId}-${part}-error` : undefined;
          const label = field.name.trim() || `field ${index + 1}`;
          const picklist = PICKLIST_TYPES.has(field.type);
          return (
            <li key={field.key}>
              <fieldset
                className="bg-card data-invalid:border-destructive/60 grid gap-2 rounded-md border p-3"
                data-invalid={Object.values(rowErrors).some(Boolean) || undefined}
              >
                <legend className="sr-only">Field {label}</legend>
                <div className={ROW_GRID}>
                  <div className="grid gap-1.5">
                    <Label htmlFor={`${rowId}-name`} className="xl:sr-only">
                      Name
                    </Label>
                    <Input
                      id={`${rowId}-name`}
                      value={field.name}
                      autoComplete="off"
                      aria-invalid={rowErrors.name || rowErrors.row ? true : undefined}
                      aria-describedby={
                        [described('name'), described('row')].filter(Boolean).join(' ') || undefined
                      }
                      onChange={(event) => update(field.key, { name: event.target.value })}
                    />
                    <FieldError id={`${rowId}-name-error`} message={rowErrors.name} />
                    {field.origin && (
                      <Badge variant="outline" className="text-muted-foreground font-normal">
                        {field.origin === 'new' ? 'New in the sample' : 'Not in the sample'}
                      </Badge>
                    )}
                  </div>
                  <div className="grid gap-1.5">
                    <Label htmlFor={`${rowId}-type`} className="xl:sr-only">
                      Type
                    </Label>
                    <NativeSelect
                      id={`${rowId}-type`}
                      value={field.type}
                      aria-invalid={rowErrors.type ? true : undefined}
                      aria-describedby={described('type')}
                      onChange={(event) =>
                        update(field.key, { type: event.target.value as FieldType })
                      }
                    >
                      {FieldTypeSchema.options.map((type) => (
                        <option key={type} value={type}>
                          {FIELD_TYPE_LABELS[type]}
                        </option>
                      ))}
                    </NativeSelect>
                    <FieldError id={`${rowId}-type-error`} message={rowErrors.type} />
                  </div>
                  <div className="flex flex-wrap items-center gap-x-5 gap-y-2 sm:col-span-2 sm:col-start-1 sm:row-start-2 xl:contents">
                    <div className="flex items-center gap-2 xl:h-9 xl:justify-center">
                      <input
                        type="checkbox"
                        id={`${rowId}-required`}
                        className={checkboxClasses}
                        checked={field.required}
                        aria-invalid={rowErrors.required ? true : undefined}
                        aria-describedby={described('required')}
                        onChange={(event) => update(field.key, { required: event.target.checked })}
                      />
                      <Label htmlFor={`${rowId}-required`} className="font-normal xl:sr-only">
                        Required
                      </Label>
                    </div>
                    <div className="flex items-center gap-2 xl:h-9 xl:justify-center">
                      <input
                        type="checkbox"
                        id={`${rowId}-readOnly`}
                        className={checkboxClasses}
                        checked={field.readOnly}
                        aria-invalid={rowErrors.readOnly ? true : undefined}
                        aria-describedby={described('readOnly')}
                        onChange={(event) => update(field.key, { readOnly: event.target.checked })}
                      />
                      <Label htmlFor={`${rowId}-readOnly`} className="font-normal xl:sr-only">
                        Read-only
                      </Label>
                    </div>
                  </div>
                  <div
                    className={
                      picklist ? 'grid gap-1.5 sm:col-span-2 xl:col-span-1' : 'hidden xl:block'
                    }
                  >
                    {picklist ? (
                      <>
                        <Label htmlFor={`${rowId}-values`} className="xl:sr-only">
                          Picklist values
                        </Label>
                        <ValuesInput
                          id={`${rowId}-values`}
                          fieldName={field.name.trim()}
                          values={field.values}
                          invalid={Boolean(rowErrors.values)}
                          describedBy={described('values')}
                          onChange={(values) => update(field.key, { values })}
                        />
                        <FieldError id={`${rowId}-values-error`} message={rowErrors.values} />
                      </>
                    ) : (
                      <span className="text-muted-foreground flex h-9 items-center text-sm">—</span>
                    )}
                  </div>
                  {/* Last in tab order; below `xl` it sits at the end of the checkboxes' line. */}
                  <div className="flex justify-end sm:col-start-2 sm:row-start-2 xl:col-start-auto xl:row-start-auto">
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove field ${label}`}
                      onClick={() => remove(index)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                </div>
                {/* Below the grid: inside it they would take a column of their own at `xl`. */}
                <FieldError id={`${rowId}-required-error`} message={rowErrors.required} />
                <FieldError id={`${rowId}-readOnly-error`} message={rowErrors.readOnly} />
                <FieldError id={`${rowId}-row-error`} message={rowErrors.row} />
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div>
        <Button ref={addButton} variant="outline" size="sm" onClick={add}>
          <Plus aria-hidden="true" />
          Add field
        </Button>
      </div>
    </div>
  );
}
