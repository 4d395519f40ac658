import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { Field } from '@wsc/api-client';

import { jsonResponse, renderWithQuery, usersPage } from '@/testing/render.tsx';

import { FieldEditor } from './field-editor.tsx';

function Harness({
  field,
  initial = '',
  onValue,
}: {
  field: Field;
  initial?: string;
  onValue: (v: string) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <FieldEditor
      field={field}
      id="f"
      ariaLabel={field.name}
      value={value}
      onChange={(next) => {
        setValue(next);
        onValue(next);
      }}
    />
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('FieldEditor', () => {
  it('DATETIME: local input becomes a UTC YYYY-MM-DDTHH:MM:SS.SSSZ value (Europe/Paris here)', () => {
    const onValue = vi.fn();
    renderWithQuery(
      <Harness
        field={{ name: 'Resolved At', type: 'DATETIME', required: false }}
        onValue={onValue}
      />,
    );
    const input = screen.getByLabelText('Resolved At');
    expect(input).toHaveAttribute('type', 'datetime-local');
    fireEvent.change(input, { target: { value: '2024-07-01T14:30' } });
    expect(onValue).toHaveBeenLastCalledWith('2024-07-01T12:30:00.000Z');
    // And the stored UTC value reads back as local wall time.
    expect(input).toHaveValue('2024-07-01T14:30');
  });

  it('DATE: stores the picked calendar date as YYYY-MM-DD (what the API validates), unshifted', () => {
    const onValue = vi.fn();
    renderWithQuery(
      <Harness
        field={{ name: 'Due Date', type: 'DATE', required: false }}
        initial="2024-01-02"
        onValue={onValue}
      />,
    );
    const input = screen.getByLabelText('Due Date');
    expect(input).toHaveAttribute('type', 'date');
    expect(input).toHaveValue('2024-01-02');
    fireEvent.change(input, { target: { value: '2024-12-31' } });
    expect(onValue).toHaveBeenLastCalledWith('2024-12-31');
    fireEvent.change(input, { target: { value: '' } });
    expect(onValue).toHaveBeenLastCalledWith('');
  });

  it('PICKLIST: offers the definition values and keeps an unknown stored value visible', async () => {
    const onValue = vi.fn();
    const { user } = renderWithQuery(
      <Harness
        field={{ name: 'Status', type: 'PICKLIST', required: true, values: ['New', 'Open'] }}
        initial="Legacy"
        onValue={onValue}
      />,
    );
    const select = screen.getByLabelText('Status');
    expect(select).toHaveAttribute('aria-required', 'true');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Choose…',
      'Legacy',
      'New',
      'Open',
    ]);
    await user.selectOptions(select, 'Open');
    expect(onValue).toHaveBeenLastCalledWith('Open');
  });

  it('MULTI_PICKLIST: toggles store the values comma-separated in definition order', async () => {
    const onValue = vi.fn();
    const { user } = renderWithQuery(
      <Harness
        field={{
          name: 'Tags',
          type: 'MULTI_PICKLIST',
          required: false,
          values: ['urgent', 'vip', 'security'],
        }}
        onValue={onValue}
      />,
    );
    await user.click(screen.getByLabelText('security'));
    await user.click(screen.getByLabelText('urgent'));
    expect(onValue).toHaveBeenLastCalledWith('urgent, security');
  });

  it('BOOLEAN: stores true / false', async () => {
    const onValue = vi.fn();
    const { user } = renderWithQuery(
      <Harness field={{ name: 'Billable', type: 'BOOLEAN', required: false }} onValue={onValue} />,
    );
    await user.selectOptions(screen.getByLabelText('Billable'), 'Yes');
    expect(onValue).toHaveBeenLastCalledWith('true');
  });

  it('USER_ID: searches /users as the user types and stores the picked email (keyboard only)', async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      jsonResponse(
        usersPage([
          { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
          { email: 'alan@example.com', firstName: 'Alan', lastName: 'Turing' },
        ]),
      ),
    );
    const onValue = vi.fn();
    const { user } = renderWithQuery(
      <Harness field={{ name: 'Assignee', type: 'USER_ID', required: false }} onValue={onValue} />,
    );
    const combo = screen.getByRole('combobox', { name: 'Assignee' });
    await user.type(combo, 'tur');
    await screen.findByRole('option', { name: /Alan Turing/ });
    await waitFor(() => {
      const filters = fetchMock.mock.calls
        .map(([url]) => new URL(String(url), 'http://console.test'))
        .filter((u) => u.pathname === '/api/v1/users')
        .map((u) => u.searchParams.get('filter'));
      expect(filters).toContain(
        'status==ACTIVE;(email=lki=tur,firstName=lki=tur,lastName=lki=tur)',
      );
    });
    const [, init] = fetchMock.mock.calls.at(-1) ?? [];
    expect(new Headers(init?.headers).get('X-CSRF')).toBe('1');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onValue).toHaveBeenLastCalledWith('alan@example.com');
    expect(combo).toHaveValue('alan@example.com');
    expect(combo).toHaveAttribute('aria-expanded', 'false');
  });
});
