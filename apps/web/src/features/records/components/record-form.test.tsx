import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@wsc/api-client';

import { renderWithQuery, ticketsDefinition } from '@/testing/render.tsx';

import { changedFields, RecordForm, splitProblems } from './record-form.tsx';

describe('RecordForm', () => {
  it('marks required fields with * and aria-required on create, and checks them before sending', async () => {
    const onSubmit = vi.fn();
    const { user } = renderWithQuery(
      <RecordForm
        definition={ticketsDefinition}
        base={{}}
        mode="create"
        submitting={false}
        error={null}
        onSubmit={onSubmit}
        onCancel={() => undefined}
      />,
    );
    const title = screen.getByLabelText(/^Title/);
    expect(title).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('Title').parentElement).toHaveTextContent('Title*');
    expect(screen.getByLabelText(/^Priority/)).not.toHaveAttribute('aria-required');

    await user.click(screen.getByRole('button', { name: 'Create record' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(title).toHaveAccessibleDescription('Title is required.');
    expect(title).toHaveFocus();

    await user.type(title, 'Printer on fire');
    await user.selectOptions(screen.getByLabelText(/^Status/), 'New');
    await user.click(screen.getByRole('button', { name: 'Create record' }));
    // Empty optional fields are not sent.
    expect(onSubmit).toHaveBeenCalledWith(
      { Title: 'Printer on fire', Status: 'New' },
      expect.any(Object),
    );
  });

  it('shows each 422 problem next to its field (aria-describedby) and the others above', () => {
    const error = new ApiError({
      status: 422,
      code: 'validation_failed',
      errors: [
        { field: 'Priority', message: 'must be a number' },
        { field: 'Bogus', message: 'unknown field' },
      ],
    });
    renderWithQuery(
      <RecordForm
        definition={ticketsDefinition}
        base={{ id: 'SUP-1', Title: 'A', Status: 'New', Priority: 'x' }}
        mode="edit"
        submitting={false}
        error={error}
        onSubmit={() => undefined}
        onCancel={() => undefined}
      />,
    );
    const priority = screen.getByLabelText('Priority');
    expect(priority).toHaveAttribute('aria-invalid', 'true');
    expect(priority).toHaveAccessibleDescription('must be a number');
    const summary = screen.getAllByRole('alert')[0];
    if (!summary) throw new Error('no summary');
    expect(within(summary).getByText('2 fields need attention')).toBeInTheDocument();
    expect(within(summary).getByText('Bogus: unknown field')).toBeInTheDocument();
  });

  it('sends only the changed fields on edit and disables Save until something changed', async () => {
    const onSubmit = vi.fn();
    const { user } = renderWithQuery(
      <RecordForm
        definition={ticketsDefinition}
        base={{ id: 'SUP-1', Title: 'A', Status: 'New' }}
        mode="edit"
        submitting={false}
        error={null}
        onSubmit={onSubmit}
        onCancel={() => undefined}
      />,
    );
    const save = screen.getByRole('button', { name: 'Save changes' });
    expect(save).toBeDisabled();
    await user.selectOptions(screen.getByLabelText(/^Status/), 'Open');
    expect(save).toBeEnabled();
    await user.click(save);
    expect(onSubmit).toHaveBeenCalledWith(
      { Status: 'Open' },
      expect.objectContaining({ Status: 'Open', Title: 'A' }),
    );
  });
});

describe('form helpers', () => {
  it('splits problems by known field', () => {
    expect(
      splitProblems(
        [
          { field: 'Status', message: 'bad' },
          { field: 'X', message: 'no' },
        ],
        ['Status'],
      ),
    ).toEqual({
      byField: { Status: 'bad' },
      other: [{ field: 'X', message: 'no' }],
    });
  });

  it('diffs a draft against its base', () => {
    expect(
      changedFields({ Status: 'Open', Title: 'A' }, { Status: 'Closed', Title: 'A', Severity: '' }),
    ).toEqual({
      Status: 'Closed',
    });
  });
});
