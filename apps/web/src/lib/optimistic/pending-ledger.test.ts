import { describe, expect, it } from 'vitest';

import type { PendingWrite } from './pending-ledger.ts';
import { PendingLedger } from './pending-ledger.ts';

type Ticket = Record<string, string>;

/** A send held until the test answers it, recording the base it was given. */
function held() {
  const sends: {
    base: Ticket | undefined;
    answer: (v: Ticket) => void;
    refuse: (e: unknown) => void;
  }[] = [];
  const send = (base: Ticket | undefined) =>
    new Promise<Ticket>((answer, refuse) => sends.push({ base, answer, refuse }));
  return { sends, send };
}

function setup(stored: Record<string, Ticket>) {
  const painted = new Map<string, Ticket | undefined>();
  const ledger = new PendingLedger<Ticket, string>((key, view) => painted.set(key, view));
  const { sends, send } = held();
  const write = (key: string, changes: Ticket, extra: Partial<PendingWrite<Ticket, string>> = {}) =>
    ledger.enqueue(key, () => stored[key], {
      apply: (t) => ({ ...t, ...changes }),
      send,
      meta: Object.keys(changes).join(','),
      ...extra,
    });
  return { ledger, painted, sends, write };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('PendingLedger', () => {
  it('paints a write at once and a second one on the same key over it, sending them in order', async () => {
    const { painted, sends, write, ledger } = setup({
      'SUP-1': { Status: 'New', Severity: 'Low' },
    });
    const first = write('SUP-1', { Status: 'Open' });
    const second = write('SUP-1', { Severity: 'High' });
    // Both on screen before anything answered.
    expect(painted.get('SUP-1')).toEqual({ Status: 'Open', Severity: 'High' });
    expect(ledger.pending('SUP-1')).toEqual(['Status', 'Severity']);
    await tick();
    // Only the first is on the wire: the second waits for it there, not on screen.
    expect(sends).toHaveLength(1);
    expect(sends[0]?.base).toEqual({ Status: 'New', Severity: 'Low' });
    sends[0]?.answer({ Status: 'Open', Severity: 'Low', v: '2' });
    expect(await first.settled).toMatchObject({ status: 'confirmed' });
    await tick();
    expect(sends).toHaveLength(2);
    // The second goes out on what the first left (its ETag, its values).
    expect(sends[1]?.base).toEqual({ Status: 'Open', Severity: 'Low', v: '2' });
    expect(painted.get('SUP-1')).toEqual({ Status: 'Open', Severity: 'High', v: '2' });
    sends[1]?.answer({ Status: 'Open', Severity: 'High', v: '3' });
    expect(await second.settled).toMatchObject({ status: 'confirmed' });
    expect(painted.get('SUP-1')).toEqual({ Status: 'Open', Severity: 'High', v: '3' });
    expect(ledger.has('SUP-1')).toBe(false);
  });

  it('rolls back one record among several in flight; the others keep going', async () => {
    const { painted, sends, write } = setup({
      'SUP-1': { Status: 'New' },
      'SUP-2': { Status: 'New' },
      'SUP-3': { Status: 'New' },
    });
    const one = write('SUP-1', { Status: 'Open' });
    const two = write('SUP-2', { Status: 'Open' });
    const three = write('SUP-3', { Status: 'Closed' });
    await tick();
    // Different records do not wait for each other.
    expect(sends).toHaveLength(3);
    sends[1]?.refuse(new Error('422'));
    expect(await two.settled).toMatchObject({ status: 'refused' });
    expect(painted.get('SUP-2')).toEqual({ Status: 'New' });
    expect(painted.get('SUP-1')).toEqual({ Status: 'Open' });
    expect(painted.get('SUP-3')).toEqual({ Status: 'Closed' });
    sends[0]?.answer({ Status: 'Open' });
    sends[2]?.answer({ Status: 'Closed' });
    expect(await one.settled).toMatchObject({ status: 'confirmed' });
    expect(await three.settled).toMatchObject({ status: 'confirmed' });
  });

  it('rolling back the first write of a record re-applies the later one over the confirmed value', async () => {
    const { painted, sends, write } = setup({ 'SUP-1': { Status: 'New', Severity: 'Low' } });
    const first = write('SUP-1', { Status: 'Open' });
    write('SUP-1', { Severity: 'High' });
    await tick();
    sends[0]?.refuse(new Error('409'));
    await first.settled;
    expect(painted.get('SUP-1')).toEqual({ Status: 'New', Severity: 'High' });
    await tick();
    expect(sends[1]?.base).toEqual({ Status: 'New', Severity: 'Low' });
  });

  it('a refusal that reveals the stored value (412 latest) rebases the later writes on it', async () => {
    const { painted, sends, write } = setup({ 'SUP-1': { Status: 'New', Title: 'A' } });
    const first = write(
      'SUP-1',
      { Status: 'Open' },
      { rebase: () => ({ Status: 'Pending', Title: 'B' }) },
    );
    write('SUP-1', { Title: 'C' });
    await tick();
    sends[0]?.refuse(new Error('412'));
    await first.settled;
    expect(painted.get('SUP-1')).toEqual({ Status: 'Pending', Title: 'C' });
    await tick();
    expect(sends[1]?.base).toEqual({ Status: 'Pending', Title: 'B' });
  });

  it('withdraws a queued write (undo before it went out), never one on the wire', async () => {
    const { painted, sends, write, ledger } = setup({ 'SUP-1': { Status: 'New' } });
    const first = write('SUP-1', { Status: 'Open' });
    const second = write('SUP-1', { Status: 'Pending' });
    await tick();
    expect(ledger.cancel(first.id)).toBe(false);
    expect(ledger.cancel(second.id)).toBe(true);
    expect(await second.settled).toEqual({ status: 'cancelled' });
    expect(painted.get('SUP-1')).toEqual({ Status: 'Open' });
    sends[0]?.answer({ Status: 'Open' });
    await first.settled;
    await tick();
    expect(sends).toHaveLength(1);
    expect(ledger.cancel(first.id)).toBe(false);
  });

  it('sends what the user saw while nothing settled since, the confirmed value after', async () => {
    const { sends, write } = setup({ 'SUP-1': { Status: 'New', Title: 'cached later' } });
    const seen = { Status: 'New', Title: 'as opened' };
    const first = write('SUP-1', { Status: 'Open' }, { seen });
    const second = write('SUP-1', { Title: 'Mine' }, { seen: { ...seen, Status: 'Open' } });
    await tick();
    expect(sends[0]?.base).toBe(seen);
    sends[0]?.answer({ Status: 'Open', Title: 'as stored' });
    await first.settled;
    await tick();
    expect(sends[1]?.base).toEqual({ Status: 'Open', Title: 'as stored' });
    sends[1]?.answer({ Status: 'Open', Title: 'Mine' });
    await second.settled;
  });

  it('takes a read that lands meanwhile as the base of the writes still to go', async () => {
    const { painted, sends, write, ledger } = setup({ 'SUP-1': { Status: 'New', Title: 'A' } });
    write('SUP-1', { Status: 'Open' });
    ledger.confirm('SUP-1', { Status: 'New', Title: 'B' });
    expect(painted.get('SUP-1')).toEqual({ Status: 'Open', Title: 'B' });
    await tick();
    expect(sends[0]?.base).toEqual({ Status: 'New', Title: 'B' });
  });

  it('tells subscribers, with a stable snapshot between changes', () => {
    const { write, ledger } = setup({ 'SUP-1': { Status: 'New' } });
    let calls = 0;
    const stop = ledger.subscribe(() => (calls += 1));
    const before = ledger.version;
    write('SUP-1', { Status: 'Open' });
    expect(calls).toBe(1);
    expect(ledger.version).toBeGreaterThan(before);
    expect(ledger.pending('SUP-1')).toBe(ledger.pending('SUP-1'));
    stop();
    write('SUP-1', { Status: 'Closed' });
    expect(calls).toBe(1);
  });
});
