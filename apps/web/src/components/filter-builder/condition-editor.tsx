import { X } from 'lucide-react';
import { Fragment } from 'react';

import type { Field } from '@wsc/api-client';

import { FieldEditor } from '@/components/field-editor.tsx';
import { Button } from '@/components/ui/button.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { cn } from '@/lib/utils.ts';

import type { FilterField } from './filter-field.ts';
import type { FilterCondition } from './filter-model.ts';
import type { OperatorChoice } from './operators.ts';
import { DateValueEditor } from './date-value-editor.tsx';
import { operatorDefault } from './filter-field.ts';
import { isComplete, operatorChoiceOf, withOperator } from './filter-model.ts';
import { ManyValuesEditor } from './many-values-editor.tsx';
import { operatorArity, operatorLabel, operatorsForType } from './operators.ts';

/**
 * One condition of the builder: field, operator (those of the field's type) and the value
 * editor the operator needs (none, one, a range, or many).
 */
export function ConditionEditor({
  condition,
  fields,
  onChange,
  onRemove,
}: {
  condition: FilterCondition;
  fields: FilterField[];
  onChange: (condition: FilterCondition) => void;
  onRemove: () => void;
}) {
  const known = fields.find((f) => f.name === condition.field);
  // A field typed in RSQL text that the definition lacks stays visible (as text) rather than lost.
  const field: FilterField = known ?? { name: condition.field, type: 'TEXT' };
  const choice = operatorChoiceOf(condition);
  const offered = operatorsForType(field.type);
  const choices = offered.includes(choice) ? offered : [...offered, choice];
  const arity = operatorArity(choice);
  const valueField: Field = { ...field, required: false };
  const display = field.label ?? field.name;
  const label = `${display} value`;
  // Dates and times also take relative values ("last 7 days"), which stay relative (ADR 0017).
  const dated = field.type === 'DATE' || field.type === 'DATETIME';

  function setField(name: string) {
    const next = fields.find((f) => f.name === name);
    if (!next) return;
    const nextChoices = operatorsForType(next.type);
    const keep = nextChoices.includes(choice) ? choice : operatorDefault(next);
    const base: FilterCondition = { ...condition, field: name, values: [''] };
    onChange(withOperator(base, keep));
  }

  function setValue(index: number, value: string) {
    const values = [...condition.values];
    values[index] = value;
    onChange({ ...condition, values });
  }

  return (
    <div
      role="group"
      aria-label={`Condition on ${display}`}
      className={cn(
        'bg-background grid grid-cols-1 items-start gap-2 rounded-md sm:grid-cols-[minmax(9rem,1fr)_minmax(9rem,1fr)_minmax(12rem,2fr)_auto]',
        !isComplete(condition) && 'rounded-md',
      )}
    >
      <NativeSelect
        aria-label="Field"
        value={condition.field}
        onChange={(event) => setField(event.target.value)}
      >
        {!known && <option value={condition.field}>{condition.field} (unknown)</option>}
        {fields.map((f) => (
          <option key={f.name} value={f.name}>
            {f.label ?? f.name}
          </option>
        ))}
      </NativeSelect>
      <NativeSelect
        aria-label="Operator"
        value={choice}
        onChange={(event) =>
          onChange(withOperator(condition, event.target.value as OperatorChoice))
        }
      >
        {choices.map((op) => (
          <option key={op} value={op}>
            {operatorLabel(op, field.type)}
          </option>
        ))}
      </NativeSelect>
      <div className="min-w-0">
        {arity === 'none' && <span className="sr-only">No value needed</span>}
        {arity === 'one' && dated && (
          <DateValueEditor
            field={valueField}
            id={`${condition.id}-v0`}
            label={label}
            value={condition.values[0] ?? ''}
            operator={condition.operator}
            onChange={(v) => setValue(0, v)}
            onOverdue={() => onChange({ ...condition, operator: '=lt=', values: ['{now}'] })}
          />
        )}
        {arity === 'one' && !dated && (
          <FieldEditor
            field={valueField}
            id={`${condition.id}-v0`}
            ariaLabel={label}
            value={condition.values[0] ?? ''}
            onChange={(v) => setValue(0, v)}
          />
        )}
        {arity === 'two' && (
          <div className="grid grid-cols-[1fr_auto_1fr] items-center gap-2">
            {(['from', 'to'] as const).map((end, index) => (
              <Fragment key={end}>
                {index === 1 && <span className="text-muted-foreground text-xs">and</span>}
                {dated ? (
                  <DateValueEditor
                    field={valueField}
                    id={`${condition.id}-v${index}`}
                    label={`${display} ${end}`}
                    value={condition.values[index] ?? ''}
                    operator={condition.operator}
                    onChange={(v) => setValue(index, v)}
                  />
                ) : (
                  <FieldEditor
                    field={valueField}
                    id={`${condition.id}-v${index}`}
                    ariaLabel={`${display} ${end}`}
                    value={condition.values[index] ?? ''}
                    onChange={(v) => setValue(index, v)}
                  />
                )}
              </Fragment>
            ))}
          </div>
        )}
        {arity === 'many' && (
          <ManyValuesEditor
            field={valueField}
            label={label}
            values={condition.values.filter((v): v is string => v !== null && v !== '')}
            onChange={(values) =>
              onChange({ ...condition, values: values.length > 0 ? values : [''] })
            }
          />
        )}
      </div>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Remove condition on ${display}`}
        onClick={onRemove}
      >
        <X aria-hidden="true" />
      </Button>
    </div>
  );
}
