import { describe, expect, it, vi } from 'vitest';

import { commitDelete, pendingDeletes, scheduleDelete, undoDelete } from './pending-deletes.ts';

describe('pending deletes', () => {
  it('hides at once, sends nothing on undo, and sends the delete on commit', async () => {
    const commit = vi.fn().mockResolvedValue(undefined);
    scheduleDelete('a', commit);
    expect(pendingDeletes.getSnapshot().has('a')).toBe(true);
    undoDelete('a');
    expect(pendingDeletes.getSnapshot().has('a')).toBe(false);
    await commitDelete('a');
    expect(commit).not.toHaveBeenCalled();

    scheduleDelete('b', commit);
    await commitDelete('b');
    expect(commit).toHaveBeenCalledOnce();
    expect(pendingDeletes.getSnapshot().has('b')).toBe(false);
  });
});
