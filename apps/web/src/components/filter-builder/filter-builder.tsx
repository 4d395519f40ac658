import { Braces, ListFilter, Plus, Trash2, X } from 'lucide-react';
import { useId, useMemo, useState } from 'react';

import type { Field } from '@wsc/api-client';
import { isRsqlError, parse, serialize } from '@wsc/rsql';

import { FieldEditor } from '@/components/field-editor.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input, Textarea } from '@/components/ui/input.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { UserPicker } from '@/components/user-picker.tsx';
import { cn } from '@/lib/utils.ts';

import type { FilterCondition, FilterGroup, FilterItem } from './filter-model.ts';
import type { OperatorChoice } from './operators.ts';
import {
  emptyGroup,
  groupToRsql,
  isComplete,
  newId,
  operatorChoiceOf,
  rsqlToGroup,
  updateItem,
  withOperator,
} from './filter-model.ts';
import { operatorArity, operatorLabel, operatorsForType } from './operators.ts';

type Mode = 'builder' | 'text';

interface TextState {
  text: string;
  error: { message: string; position: number } | null;
}

/**
 * What the builder needs to know of a field: its name (the RSQL selector), its type (which picks
 * the operators and the value editor) and, for picklists, its values. Definition fields fit as
 * they are; other lists (users: email, names, status) describe theirs the same way.
 */
export type FilterField = Pick<Field, 'name' | 'type'> &
  Partial<Pick<Field, 'values' | 'readOnly'>> & {
    /** What the field menu shows when the selector is not readable as is (`firstName`). */
    label?: string;
  };

function checkText(text: string): TextState {
  if (text.trim() === '') return { text, error: null };
  try {
    parse(text);
    return { text, error: null };
  } catch (error) {
    if (isRsqlError(error))
      return { text, error: { message: error.message, position: error.position } };
    throw error;
  }
}

/**
 * The filter editor: a builder over the definition's fields (operators by field type, values from
 * picklists and people, nested AND/OR groups) and an RSQL text mode. Both directions go through
 * @wsc/rsql, so switching modes never changes the filter's meaning.
 */
export function FilterBuilder({
  fields,
  value,
  onApply,
  onClose,
}: {
  fields: FilterField[];
  /** The applied RSQL ('' for none). */
  value: string;
  onApply: (rsql: string) => void;
  onClose?: () => void;
}) {
  const [mode, setMode] = useState<Mode>('builder');
  const [group, setGroup] = useState<FilterGroup>(() => safeGroup(value));
  const [text, setText] = useState<TextState>(() => checkText(value));
  const textId = useId();
  const errorId = useId();

  function toText() {
    setText(checkText(groupToRsql(group)));
    setMode('text');
  }

  function toBuilder() {
    if (text.error) return;
    setGroup(rsqlToGroup(text.text));
    setMode('builder');
  }

  function apply() {
    if (mode === 'builder') {
      onApply(groupToRsql(group));
      return;
    }
    if (text.error) return;
    // Canonical text in the URL: the same filter always gives the same link.
    onApply(text.text.trim() === '' ? '' : serialize(parse(text.text)));
  }

  const incomplete = mode === 'builder' && hasIncomplete(group);

  return (
    <section
      aria-label="Filter"
      className="bg-card grid gap-3 rounded-lg border p-3 shadow-xs"
      onKeyDown={(event) => {
        if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
          event.preventDefault();
          apply();
        }
      }}
    >
      <div className="flex items-center justify-between gap-2">
        <div
          role="group"
          aria-label="Filter mode"
          className="bg-muted inline-flex rounded-md p-0.5"
        >
          <ModeTab
            selected={mode === 'builder'}
            onSelect={toBuilder}
            disabled={text.error !== null && mode === 'text'}
          >
            <ListFilter aria-hidden="true" className="size-3.5" /> Builder
          </ModeTab>
          <ModeTab selected={mode === 'text'} onSelect={toText}>
            <Braces aria-hidden="true" className="size-3.5" /> RSQL
          </ModeTab>
        </div>
        {onClose && (
          <Button variant="ghost" size="icon-sm" aria-label="Close filter" onClick={onClose}>
            <X aria-hidden="true" />
          </Button>
        )}
      </div>

      {mode === 'builder' ? (
        <GroupEditor
          group={group}
          fields={fields}
          depth={0}
          onChange={(next) => setGroup(next)}
          onRemove={undefined}
        />
      ) : (
        <div className="grid gap-2">
          <label htmlFor={textId} className="text-sm font-medium">
            RSQL filter
          </label>
          <Textarea
            id={textId}
            value={text.text}
            spellCheck={false}
            autoCapitalize="none"
            aria-invalid={text.error ? true : undefined}
            aria-describedby={text.error ? errorId : undefined}
            onChange={(event) => setText(checkText(event.target.value))}
            className="min-h-24 font-mono text-[13px]"
            placeholder="Status=in=(New,Open);Severity==High"
          />
          {text.error && <RsqlErrorView id={errorId} text={text.text} error={text.error} />}
        </div>
      )}

      <div className="flex items-center justify-between gap-2">
        <p className="text-muted-foreground text-xs">
          {incomplete ? 'Unfinished conditions are left out.' : 'Ctrl+Enter applies.'}
        </p>
        <div className="flex gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setGroup(emptyGroup());
              setText({ text: '', error: null });
            }}
          >
            Clear
          </Button>
          <Button size="sm" onClick={apply} disabled={mode === 'text' && text.error !== null}>
            Apply filter
          </Button>
        </div>
      </div>
    </section>
  );
}

function safeGroup(value: string): FilterGroup {
  try {
    return rsqlToGroup(value);
  } catch {
    // A bad filter from the URL opens in text mode's error view; the builder starts empty.
    return emptyGroup();
  }
}

function hasIncomplete(group: FilterGroup): boolean {
  return group.children.some((child) =>
    child.kind === 'group' ? hasIncomplete(child) : !isComplete(child),
  );
}

function ModeTab({
  selected,
  onSelect,
  disabled,
  children,
}: {
  selected: boolean;
  onSelect: () => void;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      disabled={disabled}
      onClick={() => !selected && onSelect()}
      className={cn(
        'text-muted-foreground focus-visible:ring-ring/50 inline-flex items-center gap-1.5 rounded-sm px-2.5 py-1 text-xs font-medium transition-colors outline-none focus-visible:ring-[3px] disabled:opacity-50',
        selected && 'bg-background text-foreground shadow-xs',
      )}
    >
      {children}
    </button>
  );
}

/**
 * Shows a parse error with the offending character highlighted and a caret under it.
 *
 * @example
 * <RsqlErrorView text="Status=foo=Open" error={{ message: 'Unknown operator', position: 6 }} />
 */
export function RsqlErrorView({
  id,
  text,
  error,
}: {
  id?: string;
  text: string;
  error: { message: string; position: number };
}) {
  const position = Math.max(0, Math.min(error.position, text.length));
  // Show the line holding the error, so that multi-line filters point at the right place.
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  const lineEndRaw = text.indexOf('\n', position);
  const lineEnd = lineEndRaw === -1 ? text.length : lineEndRaw;
  const line = text.slice(lineStart, lineEnd);
  const column = position - lineStart;
  return (
    <div
      id={id}
      role="alert"
      className="border-destructive/40 grid gap-1.5 rounded-md border p-2.5 text-sm"
    >
      <p className="text-destructive font-medium">
        {error.message}{' '}
        <span className="text-muted-foreground font-normal">(at character {position + 1})</span>
      </p>
      <pre aria-hidden="true" className="overflow-x-auto font-mono text-[13px] leading-5">
        {line.slice(0, column)}
        <mark
          data-testid="rsql-error-mark"
          className="bg-destructive text-destructive-foreground rounded-xs"
        >
          {line.slice(column, column + 1) || ' '}
        </mark>
        {line.slice(column + 1)}
        {'\n'}
        <span className="text-destructive">{' '.repeat(column)}^</span>
      </pre>
    </div>
  );
}

function GroupEditor({
  group,
  fields,
  depth,
  onChange,
  onRemove,
}: {
  group: FilterGroup;
  fields: FilterField[];
  depth: number;
  onChange: (group: FilterGroup) => void;
  onRemove: (() => void) | undefined;
}) {
  const firstField = fields.find((f) => !f.readOnly) ?? fields[0];

  function addCondition() {
    if (!firstField) return;
    const condition: FilterCondition = {
      kind: 'condition',
      id: newId(),
      field: firstField.name,
      operator: operatorDefault(firstField),
      values: [''],
    };
    onChange({ ...group, children: [...group.children, condition] });
  }

  function addGroup() {
    const nested = emptyGroup(group.combinator === 'and' ? 'or' : 'and');
    onChange({ ...group, children: [...group.children, nested] });
  }

  function replaceChild(id: string, next: FilterItem | null) {
    onChange(updateItem(group, id, next));
  }

  return (
    <div
      role="group"
      aria-label={
        depth === 0 ? 'Conditions' : `Nested ${group.combinator === 'and' ? 'all' : 'any'} group`
      }
      className={cn('grid gap-2', depth > 0 && 'bg-muted/40 rounded-md border border-dashed p-2.5')}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span aria-hidden="true" className="text-muted-foreground">
          Match
        </span>
        <NativeSelect
          aria-label={depth === 0 ? 'Match all or any' : 'Group matches all or any'}
          value={group.combinator}
          onChange={(event) =>
            onChange({ ...group, combinator: event.target.value as 'and' | 'or' })
          }
          className="w-24"
        >
          <option value="and">all</option>
          <option value="or">any</option>
        </NativeSelect>
        <span aria-hidden="true" className="text-muted-foreground">
          of these conditions
        </span>
        {onRemove && (
          <Button
            variant="ghost"
            size="xs"
            className="ml-auto"
            onClick={onRemove}
            aria-label="Remove group"
          >
            <Trash2 aria-hidden="true" /> Remove group
          </Button>
        )}
      </div>
      {group.children.length === 0 && (
        <p className="text-muted-foreground text-sm">No conditions yet: every record matches.</p>
      )}
      <ul className="grid gap-2">
        {group.children.map((child) => (
          <li key={child.id}>
            {child.kind === 'group' ? (
              <GroupEditor
                group={child}
                fields={fields}
                depth={depth + 1}
                onChange={(next) => replaceChild(child.id, next)}
                onRemove={() => replaceChild(child.id, null)}
              />
            ) : (
              <ConditionEditor
                condition={child}
                fields={fields}
                onChange={(next) => replaceChild(child.id, next)}
                onRemove={() => replaceChild(child.id, null)}
              />
            )}
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="outline" size="xs" onClick={addCondition} disabled={!firstField}>
          <Plus aria-hidden="true" /> Condition
        </Button>
        {depth < 4 && (
          <Button variant="ghost" size="xs" onClick={addGroup}>
            <Plus aria-hidden="true" /> Group
          </Button>
        )}
      </div>
    </div>
  );
}

function operatorDefault(field: FilterField): OperatorChoice & FilterCondition['operator'] {
  if (field.type === 'TEXT') return '=lki=';
  return '==';
}

function ConditionEditor({
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
        {arity === 'one' && (
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
            <FieldEditor
              field={valueField}
              id={`${condition.id}-v0`}
              ariaLabel={`${display} from`}
              value={condition.values[0] ?? ''}
              onChange={(v) => setValue(0, v)}
            />
            <span className="text-muted-foreground text-xs">and</span>
            <FieldEditor
              field={valueField}
              id={`${condition.id}-v1`}
              ariaLabel={`${display} to`}
              value={condition.values[1] ?? ''}
              onChange={(v) => setValue(1, v)}
            />
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

/** Values of `=in=` / `=out=`: picklist toggles, people, or free text chips. */
function ManyValuesEditor({
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
