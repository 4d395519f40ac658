import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog.tsx';

import type { TriageAction } from '../lib/triage-keys.ts';
import { useTriageKeys } from './use-triage-keys.ts';

function Harness({ onAction }: { onAction: (action: TriageAction) => void }) {
  const [dialog, setDialog] = useState(false);
  useTriageKeys(onAction);
  return (
    <div>
      <button type="button">Focusable</button>
      <input aria-label="Text" />
      <textarea aria-label="Notes" />
      <select aria-label="Choice">
        <option>a</option>
        <option>j</option>
      </select>
      <div
        role="textbox"
        aria-label="Rich"
        contentEditable
        suppressContentEditableWarning
        tabIndex={0}
      >
        x
      </div>
      <button type="button" onClick={() => setDialog(true)}>
        Open dialog
      </button>
      <Dialog open={dialog} onOpenChange={setDialog}>
        <DialogContent>
          <DialogTitle>Dialog</DialogTitle>
          <DialogDescription>Keys belong here.</DialogDescription>
        </DialogContent>
      </Dialog>
    </div>
  );
}

describe('useTriageKeys', () => {
  it('turns keys into actions when focus is not in a field', async () => {
    const onAction = vi.fn();
    const user = userEvent.setup();
    render(<Harness onAction={onAction} />);
    await user.keyboard('j');
    await user.click(screen.getByRole('button', { name: 'Focusable' }));
    await user.keyboard('k2{Shift>}[Digit3]{/Shift}u?');
    expect(onAction.mock.calls.map(([action]) => action)).toEqual([
      { type: 'next' },
      { type: 'prev' },
      { type: 'status', index: 1 },
      { type: 'severity', index: 2 },
      { type: 'undo' },
      { type: 'help' },
    ]);
  });

  it('never fires while typing in an input, textarea, select or contenteditable', async () => {
    const onAction = vi.fn();
    const user = userEvent.setup();
    render(<Harness onAction={onAction} />);
    await user.type(screen.getByLabelText('Text'), 'jk1u');
    await user.type(screen.getByLabelText('Notes'), 'jkn?');
    screen.getByLabelText('Choice').focus();
    await user.keyboard('j');
    screen.getByRole('textbox', { name: 'Rich' }).focus();
    await user.keyboard('jk');
    expect(onAction).not.toHaveBeenCalled();
    expect(screen.getByLabelText<HTMLInputElement>('Text').value).toBe('jk1u');
  });

  it('is silent while a dialog is open, and back after it closes', async () => {
    const onAction = vi.fn();
    const user = userEvent.setup();
    render(<Harness onAction={onAction} />);
    await user.click(screen.getByRole('button', { name: 'Open dialog' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.keyboard('jku');
    expect(onAction).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.keyboard('j');
    expect(onAction).toHaveBeenCalledWith({ type: 'next' });
  });

  it('ignores key repeats except for moving', async () => {
    const onAction = vi.fn();
    const user = userEvent.setup();
    render(<Harness onAction={onAction} />);
    await user.keyboard('{j>3/}{u>3/}');
    expect(onAction.mock.calls.filter(([a]) => a.type === 'next')).toHaveLength(3);
    expect(onAction.mock.calls.filter(([a]) => a.type === 'undo')).toHaveLength(1);
  });
});
