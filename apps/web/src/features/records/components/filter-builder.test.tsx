import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { OPERATORS_BY_FIELD_TYPE } from '@wsc/rsql';

import { FilterBuilder } from '@/components/filter-builder/filter-builder.tsx';
import { renderWithQuery, ticketsDefinition } from '@/testing/render.tsx';

import { allFields } from '../lib/columns.ts';

const fields = allFields(ticketsDefinition);

describe('FilterBuilder', () => {
  it('shows a nested filter in the builder and the same RSQL in text mode, and back', async () => {
    const rsql = 'Status=in=(New,Open);(Severity==Critical,Assignee==null;Priority=gt=3)';
    const onApply = vi.fn();
    const { user } = renderWithQuery(
      <FilterBuilder fields={fields} value={rsql} onApply={onApply} />,
    );

    const conditions = screen.getAllByRole('group', { name: /^Condition on / });
    expect(conditions.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Condition on Status',
      'Condition on Severity',
      'Condition on Assignee',
      'Condition on Priority',
    ]);
    expect(screen.getByRole('group', { name: 'Nested any group' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Nested all group' })).toBeInTheDocument();
    const assignee = screen.getByRole('group', { name: 'Condition on Assignee' });
    expect(within(assignee).getByLabelText('Operator')).toHaveDisplayValue('is empty');

    await user.click(screen.getByRole('button', { name: /RSQL/ }));
    expect(screen.getByLabelText('RSQL filter')).toHaveValue(rsql);

    await user.click(screen.getByRole('button', { name: /Builder/ }));
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenLastCalledWith(rsql);
  });

  it('builds a filter with the operators of each field type and applies its RSQL', async () => {
    const onApply = vi.fn();
    const { user } = renderWithQuery(<FilterBuilder fields={fields} value="" onApply={onApply} />);
    await user.click(screen.getByRole('button', { name: 'Condition' }));
    let row = screen.getAllByRole('group', { name: /^Condition on / })[0];
    if (!row) throw new Error('no row');
    // TEXT offers contains; NUMBER offers ranges; PICKLIST offers lists; BOOLEAN is and is not.
    const ops = (r: HTMLElement) =>
      within(within(r).getByLabelText('Operator'))
        .getAllByRole('option')
        .map((o) => o.getAttribute('value'));
    expect(ops(row)).toEqual([...OPERATORS_BY_FIELD_TYPE.TEXT, 'is-empty', 'is-not-empty']);

    await user.selectOptions(within(row).getByLabelText('Field'), 'Priority');
    row = screen.getByRole('group', { name: 'Condition on Priority' });
    expect(ops(row)).toEqual([...OPERATORS_BY_FIELD_TYPE.NUMBER, 'is-empty', 'is-not-empty']);
    await user.selectOptions(within(row).getByLabelText('Operator'), '=bt=');
    await user.type(within(row).getByLabelText('Priority from'), '2');
    await user.type(within(row).getByLabelText('Priority to'), '4');

    await user.click(screen.getByRole('button', { name: 'Group' }));
    const nested = screen.getByRole('group', { name: 'Nested any group' });
    await user.click(within(nested).getByRole('button', { name: 'Condition' }));
    const nestedRow = within(nested).getAllByRole('group', { name: /^Condition on / })[0];
    if (!nestedRow) throw new Error('no nested row');
    await user.selectOptions(within(nestedRow).getByLabelText('Field'), 'Status');
    const statusRow = within(nested).getByRole('group', { name: 'Condition on Status' });
    expect(ops(statusRow)).toEqual(['==', '!=', '=in=', '=out=', 'is-empty', 'is-not-empty']);
    await user.selectOptions(within(statusRow).getByLabelText('Operator'), '=in=');
    await user.click(within(statusRow).getByLabelText('New'));
    await user.click(within(statusRow).getByLabelText('Open'));
    await user.click(within(nested).getByRole('button', { name: 'Condition' }));
    const second = within(nested).getAllByRole('group', { name: /^Condition on / })[1];
    if (!second) throw new Error('no second row');
    await user.selectOptions(within(second).getByLabelText('Field'), 'Billable');
    const billable = within(nested).getByRole('group', { name: 'Condition on Billable' });
    expect(ops(billable)).toEqual(['==', '!=', 'is-empty', 'is-not-empty']);
    await user.selectOptions(within(billable).getByLabelText('Billable value'), 'Yes');

    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenLastCalledWith(
      'Priority=bt=(2,4);(Status=in=(New,Open),Billable==true)',
    );
  });

  it('points at the character of a parse error in text mode and blocks applying it', async () => {
    const onApply = vi.fn();
    const { user } = renderWithQuery(<FilterBuilder fields={fields} value="" onApply={onApply} />);
    await user.click(screen.getByRole('button', { name: /RSQL/ }));
    const textarea = screen.getByLabelText('RSQL filter');
    fireEvent.change(textarea, { target: { value: 'Status==Open;Severity=foo=High' } });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('(at character 22)');
    expect(screen.getByTestId('rsql-error-mark')).toHaveTextContent('=');
    expect(textarea).toHaveAttribute('aria-invalid', 'true');
    expect(textarea).toHaveAttribute('aria-describedby', alert.id);
    expect(screen.getByRole('button', { name: 'Apply filter' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Builder/ })).toBeDisabled();

    fireEvent.change(textarea, { target: { value: 'Severity==High' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenLastCalledWith('Severity==High');
  });
});
