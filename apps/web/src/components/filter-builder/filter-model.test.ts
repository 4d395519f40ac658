import { describe, expect, it } from 'vitest';

import { parse, serialize, stripSpans } from '@wsc/rsql';

import type { FilterGroup, FilterItem } from './filter-model.ts';
import {
  astToGroup,
  countConditions,
  emptyGroup,
  groupToAst,
  groupToRsql,
  hasIncomplete,
  operatorChoiceOf,
  rsqlToGroup,
  updateItem,
  withOperator,
} from './filter-model.ts';

/** Drops the React keys, which carry no meaning. */
function shape(item: FilterItem): unknown {
  if (item.kind === 'condition')
    return { field: item.field, operator: item.operator, values: item.values };
  return { combinator: item.combinator, children: item.children.map(shape) };
}

const cases: Record<string, string> = {
  'equality family': 'Status==Open;Severity!=Low',
  'text contains family':
    "Title=lk=printer,Title!lk=fax,Customer=lki='acme corp',Customer!lki=test",
  'ordered family': 'Priority=gt=1;Priority=ge=2;Priority=lt=5;Priority=le=4',
  'range family': 'Due Date=bt=(2024-01-01,2024-12-31);Priority=nbt=(2,3)',
  'list family': 'Status=in=(New,Open);Severity=out=(Low,Medium)',
  'null checks': 'Assignee==null;Due Date!=null',
  'nested and/or groups':
    'Status==Open;(Severity==High,(Priority=gt=3;Assignee==null));Billable==true',
  'or at the root with nested and': "(Status==New;Severity==Critical),Title=lki='server down'",
  'quoted values and spaced selectors':
    "Customer=='O\\'Brien & Co';Created At=ge=2024-01-01T00:00:00.000Z",
};

describe('filter model: RSQL <-> builder', () => {
  for (const [name, text] of Object.entries(cases)) {
    it(`round-trips the ${name} without loss`, () => {
      const ast = parse(text);
      const group = astToGroup(ast);
      const back = groupToAst(group);
      expect(back).not.toBeNull();
      expect(stripSpans(back as NonNullable<typeof back>)).toEqual(stripSpans(ast));
      // builder -> RSQL -> builder gives the same builder tree.
      const rsql = groupToRsql(group);
      expect(rsql).toBe(serialize(ast));
      expect(shape(rsqlToGroup(rsql))).toEqual(shape(group));
    });
  }

  it('builds nested groups from scratch and reads them back the same', () => {
    const group: FilterGroup = {
      kind: 'group',
      id: 'root',
      combinator: 'and',
      children: [
        { kind: 'condition', id: 'a', field: 'Status', operator: '=in=', values: ['New', 'Open'] },
        {
          kind: 'group',
          id: 'g',
          combinator: 'or',
          children: [
            { kind: 'condition', id: 'b', field: 'Severity', operator: '==', values: ['Critical'] },
            {
              kind: 'group',
              id: 'h',
              combinator: 'and',
              children: [
                { kind: 'condition', id: 'c', field: 'Assignee', operator: '==', values: [null] },
                {
                  kind: 'condition',
                  id: 'd',
                  field: 'Due Date',
                  operator: '=lt=',
                  values: ['2024-06-01'],
                },
              ],
            },
          ],
        },
      ],
    };
    const rsql = groupToRsql(group);
    expect(rsql).toBe(
      'Status=in=(New,Open);(Severity==Critical,Assignee==null;Due Date=lt=2024-06-01)',
    );
    expect(shape(rsqlToGroup(rsql))).toEqual(shape(group));
  });

  it('flattens same-kind nesting and single-child groups exactly as the parser reads them', () => {
    const group: FilterGroup = {
      kind: 'group',
      id: 'root',
      combinator: 'and',
      children: [
        { kind: 'condition', id: 'a', field: 'A', operator: '==', values: ['1'] },
        {
          kind: 'group',
          id: 'g',
          combinator: 'and',
          children: [{ kind: 'condition', id: 'b', field: 'B', operator: '==', values: ['2'] }],
        },
      ],
    };
    expect(groupToRsql(group)).toBe('A==1;B==2');
  });

  it('leaves unfinished conditions out and an empty builder means no filter', () => {
    expect(groupToRsql(emptyGroup())).toBe('');
    const group: FilterGroup = {
      ...emptyGroup(),
      children: [
        { kind: 'condition', id: 'a', field: 'Title', operator: '=lk=', values: [''] },
        { kind: 'condition', id: 'b', field: 'Status', operator: '==', values: ['Open'] },
      ],
    };
    expect(groupToRsql(group)).toBe('Status==Open');
    expect(countConditions(group)).toBe(1);
  });

  it('finds an unfinished condition at any depth', () => {
    const complete = rsqlToGroup('A==1;(B==2,C==3)');
    expect(hasIncomplete(complete)).toBe(false);
    expect(hasIncomplete(emptyGroup())).toBe(false);
    const nested = complete.children[1];
    if (nested?.kind !== 'group') throw new Error('expected a group');
    const unfinished: FilterItem = {
      kind: 'condition',
      id: 'x',
      field: 'D',
      operator: '==',
      values: [''],
    };
    const deep = updateItem(complete, nested.id, {
      ...nested,
      children: [...nested.children, unfinished],
    });
    expect(hasIncomplete(deep)).toBe(true);
  });

  it('maps null checks to "is empty" / "is not empty" choices and back', () => {
    const condition = rsqlToGroup('Assignee==null').children[0];
    if (condition?.kind !== 'condition') throw new Error('expected a condition');
    expect(operatorChoiceOf(condition)).toBe('is-empty');
    const notEmpty = withOperator(condition, 'is-not-empty');
    expect(notEmpty).toMatchObject({ operator: '!=', values: [null] });
    expect(withOperator({ ...condition, values: ['5'] }, '=bt=').values).toEqual(['5', '']);
    expect(withOperator({ ...condition, values: ['a', 'b'] }, '==').values).toEqual(['a']);
  });

  it('updates and removes items anywhere in the tree', () => {
    const group = rsqlToGroup('A==1;(B==2,C==3)');
    const nested = group.children[1];
    if (nested?.kind !== 'group') throw new Error('expected a group');
    const target = nested.children[0];
    if (!target) throw new Error('expected a child');
    const removed = updateItem(group, target.id, null);
    expect(groupToRsql(removed)).toBe('A==1;C==3');
  });

  it('throws the parser error (with its position) for bad text', () => {
    expect(() => rsqlToGroup('Status=foo=Open')).toThrowError(
      expect.objectContaining({ position: 6 }),
    );
  });
});
