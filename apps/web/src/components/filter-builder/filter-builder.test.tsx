import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { FilterFieldType } from '@wsc/rsql';
import { OPERATORS_BY_FIELD_TYPE } from '@wsc/rsql';

import { renderWithQuery } from '@/testing/render.tsx';

import type { FilterField } from './filter-field.ts';
import { FilterBuilder } from './filter-builder.tsx';

// Any list of fields works, not only a definition's: here, the user fields with readable labels.
const fields: FilterField[] = [
  { name: 'email', label: 'Email', type: 'TEXT' },
  { name: 'status', label: 'Status', type: 'PICKLIST', values: ['ACTIVE', 'INACTIVE'] },
];

describe('FilterBuilder over a plain field list', () => {
  it('shows the labels, offers the values of a picklist and applies RSQL on the names', async () => {
    const onApply = vi.fn();
    const { user } = renderWithQuery(<FilterBuilder fields={fields} value="" onApply={onApply} />);
    await user.click(screen.getByRole('button', { name: 'Condition' }));
    const row = screen.getByRole('group', { name: 'Condition on Email' });
    expect(
      within(within(row).getByLabelText('Field'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Email', 'Status']);
    await user.selectOptions(within(row).getByLabelText('Field'), 'status');
    const status = screen.getByRole('group', { name: 'Condition on Status' });
    await user.selectOptions(within(status).getByLabelText('Operator'), '==');
    await user.selectOptions(within(status).getByLabelText('Status value'), 'INACTIVE');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenLastCalledWith('status==INACTIVE');
  });

  it('reads an applied filter back into labelled rows', () => {
    renderWithQuery(
      <FilterBuilder
        fields={fields}
        value="email=lki=ada;status==ACTIVE"
        onApply={() => undefined}
      />,
    );
    expect(
      screen
        .getAllByRole('group', { name: /^Condition on / })
        .map((g) => g.getAttribute('aria-label')),
    ).toEqual(['Condition on Email', 'Condition on Status']);
    expect(screen.getByLabelText('Email value')).toHaveValue('ada');
  });
});

describe('FilterBuilder operator menus', () => {
  it('offers exactly the operators of the shared table for each field type, then the null checks', async () => {
    const types = Object.keys(OPERATORS_BY_FIELD_TYPE) as FilterFieldType[];
    const typed: FilterField[] = types.map((type) => ({
      name: `f-${type}`,
      label: type,
      type,
      ...(type.endsWith('PICKLIST') ? { values: ['a', 'b'] } : {}),
    }));
    const { user } = renderWithQuery(
      <FilterBuilder fields={typed} value="" onApply={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: 'Condition' }));
    for (const type of types) {
      const current = screen.getAllByRole('group', { name: /^Condition on / })[0];
      if (!current) throw new Error('no row');
      await user.selectOptions(within(current).getByLabelText('Field'), `f-${type}`);
      const row = screen.getByRole('group', { name: `Condition on ${type}` });
      const offered = within(within(row).getByLabelText('Operator'))
        .getAllByRole('option')
        .map((o) => o.getAttribute('value'));
      expect(offered, type).toEqual([...OPERATORS_BY_FIELD_TYPE[type], 'is-empty', 'is-not-empty']);
    }
  });
});

describe('FilterBuilder relative dates', () => {
  const dated: FilterField[] = [
    { name: 'Due Date', type: 'DATE' },
    { name: 'Created At', type: 'DATETIME' },
    { name: 'Title', type: 'TEXT' },
  ];

  it('builds a relative value that the text mode shows and reads back unchanged', async () => {
    const onApply = vi.fn();
    const { user } = renderWithQuery(<FilterBuilder fields={dated} value="" onApply={onApply} />);
    await user.click(screen.getByRole('button', { name: 'Condition' }));
    const row = screen.getAllByRole('group', { name: /^Condition on / })[0];
    if (!row) throw new Error('no row');
    await user.selectOptions(within(row).getByLabelText('Field'), 'Due Date');
    const due = screen.getByRole('group', { name: 'Condition on Due Date' });
    await user.selectOptions(within(due).getByLabelText('Due Date value kind'), 'lastDays');
    const days = within(due).getByLabelText('Due Date value days');
    expect(days).toHaveValue(7);
    await user.clear(days);
    await user.type(days, '14');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenLastCalledWith('Due Date=={last14d}');

    await user.click(screen.getByRole('button', { name: /RSQL/ }));
    const text = screen.getByLabelText('RSQL filter');
    expect(text).toHaveValue('Due Date=={last14d}');
    await user.clear(text);
    await user.type(text, 'Due Date=={{today-3d};Created At=lt={{now}');
    await user.click(screen.getByRole('button', { name: /Builder/ }));
    const back = screen.getByRole('group', { name: 'Condition on Due Date' });
    expect(within(back).getByLabelText('Due Date value kind')).toHaveValue('daysAgo');
    expect(within(back).getByLabelText('Due Date value days')).toHaveValue(3);
    const created = screen.getByRole('group', { name: 'Condition on Created At' });
    expect(within(created).getByLabelText('Operator')).toHaveValue('=lt=');
    expect(within(created).getByLabelText('Created At value kind')).toHaveValue('overdue');
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenLastCalledWith('Due Date=={today-3d};Created At=lt={now}');
  });

  it('sets "before" and now for overdue, and keeps text-only forms as written', async () => {
    const onApply = vi.fn();
    const { user } = renderWithQuery(
      <FilterBuilder
        fields={dated}
        value="Due Date=={today};Created At=ge={now-2h}"
        onApply={onApply}
      />,
    );
    const due = screen.getByRole('group', { name: 'Condition on Due Date' });
    await user.selectOptions(within(due).getByLabelText('Due Date value kind'), 'overdue');
    expect(within(due).getByLabelText('Operator')).toHaveValue('=lt=');
    const created = screen.getByRole('group', { name: 'Condition on Created At' });
    expect(within(created).getByLabelText('Created At value kind')).toHaveDisplayValue(
      '2 hours before now ({now-2h})',
    );
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenLastCalledWith('Due Date=lt={now};Created At=ge={now-2h}');
  });

  it('points at the character of an invalid relative date in text mode', async () => {
    const { user } = renderWithQuery(
      <FilterBuilder fields={dated} value="" onApply={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: /RSQL/ }));
    // Braces on a text field are plain text; on a date field they must be a relative date.
    await user.type(screen.getByLabelText('RSQL filter'), 'Title=={{x};Due Date=ge={{today-3x}');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("Expected a unit ('d', 'w')");
    expect(alert).toHaveTextContent('(at character 32)');
    expect(within(alert).getByTestId('rsql-error-mark')).toHaveTextContent('x');
    expect(screen.getByRole('button', { name: 'Apply filter' })).toBeDisabled();
  });
});
