import { Plus, Trash2 } from 'lucide-react';

import { Button } from '@/components/ui/button.tsx';
import { NativeSelect } from '@/components/ui/native-select.tsx';
import { cn } from '@/lib/utils.ts';

import type { FilterField } from './filter-field.ts';
import type { FilterCondition, FilterGroup, FilterItem } from './filter-model.ts';
import { ConditionEditor } from './condition-editor.tsx';
import { operatorDefault } from './filter-field.ts';
import { emptyGroup, newId, updateItem } from './filter-model.ts';

/**
 * One AND/OR group of the builder: its combinator, its conditions and nested groups (up to five
 * levels), and buttons to add either.
 */
export function GroupEditor({
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
