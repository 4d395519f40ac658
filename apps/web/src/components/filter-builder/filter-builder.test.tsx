import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

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
