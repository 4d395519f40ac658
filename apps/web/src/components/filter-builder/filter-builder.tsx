import { Braces, ListFilter, X } from 'lucide-react';
import { useState } from 'react';

import { parse, serialize } from '@wsc/rsql';

import { Button } from '@/components/ui/button.tsx';

import type { FilterField } from './filter-field.ts';
import type { FilterGroup } from './filter-model.ts';
import type { TextState } from './rsql-text-editor.tsx';
import { emptyGroup, groupToRsql, hasIncomplete, rsqlToGroup } from './filter-model.ts';
import { GroupEditor } from './group-editor.tsx';
import { ModeTab } from './mode-tab.tsx';
import { checkText, RsqlTextEditor } from './rsql-text-editor.tsx';

type Mode = 'builder' | 'text';

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
  const [text, setText] = useState<TextState>(() => checkText(value, fields));

  function toText() {
    setText(checkText(groupToRsql(group), fields));
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
        <RsqlTextEditor text={text} onChange={(next) => setText(checkText(next, fields))} />
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
