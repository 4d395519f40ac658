import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { FilterFieldType } from '@wsc/rsql';
import { OPERATORS_BY_FIELD_TYPE } from '@wsc/rsql';

import { renderWithQuery } from '@/testing/render.tsx';

import type { FilterField } from './filter-builder.tsx';
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
