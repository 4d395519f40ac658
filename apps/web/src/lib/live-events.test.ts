// The live events client with a fake EventSource and fake timers: backoff with jitter, the stream
// opened only while retained, presence from snapshot and deltas, this tab's presence sent after
// hello (again on a new stream) and spaced, reconnecting after an error, and record changes.
import { describe, expect, it, vi } from 'vitest';

import type { PresenceEntry } from '@wsc/api-client/bff-events';

import { backoffDelay, createLiveEvents, presenceIn, presenceOf } from './live-events.ts';

class FakeSource {
  closed = false;
  onerror: ((event: Event) => void) | null = null;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown) {
    for (const l of this.listeners.get(type) ?? []) {
      l(new MessageEvent(type, { data: JSON.stringify(data) }));
    }
  }
}

const ID_1 = '6f1c1c2e-4b0e-4a8e-9a51-0d3c2b1a0f11';
const ID_2 = '7a2d2d3f-5c1f-4b9f-8b62-1e4d3c2b1a22';

const ana = (recordId: string, editing = false, connectionId = 'c-ana'): PresenceEntry => ({
  connectionId,
  user: { id: 'u-ana', name: 'Ana Lima' },
  identity: 'api',
  recordType: 'apps',
  alias: 'tickets',
  recordId,
  editing,
  since: '2025-03-01T09:00:00.000Z',
});

function setup() {
  vi.useFakeTimers();
  const sources: FakeSource[] = [];
  const puts: unknown[] = [];
  const live = createLiveEvents({
    openSource: () => {
      const s = new FakeSource();
      sources.push(s);
      return s;
    },
    setPresence: async (input) => {
      puts.push(input);
    },
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    random: () => 0.5,
  });
  return { live, sources, puts };
}

describe('backoffDelay', () => {
  it('doubles from 1 s to at most 30 s, with up to half taken off at random', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, () => 0))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(3, () => 0.5)).toBe(6_000);
  });
});

describe('createLiveEvents', () => {
  it('opens one stream while retained and closes it with the last release', () => {
    const { live, sources } = setup();
    const a = live.retain();
    const b = live.retain();
    expect(sources).toHaveLength(1);
    a();
    expect(sources[0]?.closed).toBe(false);
    b();
    expect(sources[0]?.closed).toBe(true);
    vi.useRealTimers();
  });

  it('keeps presence from the snapshot and the deltas, by record', () => {
    const { live, sources } = setup();
    live.retain();
    const seen = vi.fn();
    live.subscribe(seen);
    sources[0]?.emit('presence', { kind: 'snapshot', entries: [ana('SUP-1')] });
    expect(presenceOf(live.snapshot(), 'apps', 'tickets', 'SUP-1')).toEqual([ana('SUP-1')]);
    sources[0]?.emit('presence', {
      kind: 'delta',
      upserts: [ana('SUP-2', true), ana('SUP-1', false, 'c-bo')],
      removed: [],
    });
    // Ana moved on to SUP-2; Bo has SUP-1 now.
    expect(
      presenceOf(live.snapshot(), 'apps', 'tickets', 'SUP-1')?.map((e) => e.connectionId),
    ).toEqual(['c-bo']);
    expect([...presenceIn(live.snapshot(), 'apps', 'tickets').keys()].sort()).toEqual([
      'SUP-1',
      'SUP-2',
    ]);
    sources[0]?.emit('presence', { kind: 'delta', upserts: [], removed: ['c-ana'] });
    expect(presenceOf(live.snapshot(), 'apps', 'tickets', 'SUP-2')).toBeUndefined();
    expect(seen).toHaveBeenCalledTimes(3);
    vi.useRealTimers();
  });

  it('sends the tab’s presence after hello, spaced, and again on a new stream', async () => {
    const { live, sources, puts } = setup();
    live.retain();
    live.setViewing({ recordType: 'apps', alias: 'tickets', recordId: 'SUP-1' });
    expect(puts).toEqual([]); // no stream id yet
    sources[0]?.emit('hello', { connectionId: ID_1, heartbeatMs: 15_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(puts).toEqual([
      {
        connectionId: ID_1,
        record: { recordType: 'apps', alias: 'tickets', recordId: 'SUP-1', editing: false },
      },
    ]);
    // Two quick changes: only the last is sent, once the spacing has passed.
    live.setEditing(true);
    live.setViewing(null);
    await vi.advanceTimersByTimeAsync(100);
    expect(puts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(puts.at(-1)).toEqual({ connectionId: ID_1, record: null });

    // The stream fails: closed, presence forgotten, reconnected after the backoff.
    live.setViewing({ recordType: 'apps', alias: 'tickets', recordId: 'SUP-3' });
    sources[0]?.emit('presence', { kind: 'snapshot', entries: [ana('SUP-3')] });
    sources[0]?.onerror?.(new Event('error'));
    expect(sources[0]?.closed).toBe(true);
    expect(live.snapshot().size).toBe(0);
    await vi.advanceTimersByTimeAsync(749);
    expect(sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(2);
    sources[1]?.emit('hello', { connectionId: ID_2, heartbeatMs: 15_000 });
    await vi.advanceTimersByTimeAsync(400);
    expect(puts.at(-1)).toEqual({
      connectionId: ID_2,
      record: { recordType: 'apps', alias: 'tickets', recordId: 'SUP-3', editing: false },
    });
    vi.useRealTimers();
  });

  it('backs off longer after each failed attempt and stops when released', async () => {
    const { live, sources } = setup();
    const release = live.retain();
    sources[0]?.onerror?.(new Event('error'));
    await vi.advanceTimersByTimeAsync(750);
    sources[1]?.onerror?.(new Event('error'));
    await vi.advanceTimersByTimeAsync(1_499);
    expect(sources).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sources).toHaveLength(3);
    sources[2]?.onerror?.(new Event('error'));
    release();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sources).toHaveLength(3);
    vi.useRealTimers();
  });

  it('hands record changes to every subscriber until it unsubscribes', () => {
    const { live, sources } = setup();
    live.retain();
    const one = vi.fn();
    const stop = live.onRecordChanged(one);
    const change = {
      recordType: 'apps',
      alias: 'tickets',
      recordId: 'SUP-1',
      kind: 'updated',
      actor: { id: 'u-ana', name: 'Ana Lima' },
      identity: 'api',
      source: 'editor',
      at: '2025-03-01T09:00:00.000Z',
    };
    sources[0]?.emit('record-changed', change);
    stop();
    sources[0]?.emit('record-changed', change);
    expect(one).toHaveBeenCalledTimes(1);
    expect(one).toHaveBeenCalledWith(change);
    vi.useRealTimers();
  });
});
