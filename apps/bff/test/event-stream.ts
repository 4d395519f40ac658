// Reads a Server-Sent Event stream the way a browser's EventSource does (named events, comment
// lines, the retry hint), for the live events tests and the two-instance integration test.
import type { HelloEvent, PresenceEvent, RecordChangedEvent } from '@wsc/api-client/bff-events';
import {
  HelloEventSchema,
  PresenceEventSchema,
  RecordChangedEventSchema,
} from '@wsc/api-client/bff-events';

export type SseMessage =
  | { kind: 'hello'; data: HelloEvent }
  | { kind: 'presence'; data: PresenceEvent }
  | { kind: 'record-changed'; data: RecordChangedEvent }
  | { kind: 'comment'; text: string }
  | { kind: 'retry'; ms: number };

export type EventStream = {
  res: Response;
  hello: HelloEvent;
  /** Every message so far, in order. */
  messages: SseMessage[];
  /** Resolves with the first message from now (or already queued) that matches, or rejects. */
  next<K extends SseMessage['kind']>(
    kind: K,
    match?: (m: Extract<SseMessage, { kind: K }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<SseMessage, { kind: K }>>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
};

function parseBlock(block: string): SseMessage | undefined {
  const lines = block.split('\n');
  if (lines.every((l) => l.startsWith(':'))) return { kind: 'comment', text: lines.join('\n') };
  let name = 'message';
  let data = '';
  for (const line of lines) {
    if (line.startsWith('retry: ')) return { kind: 'retry', ms: Number(line.slice(7)) };
    if (line.startsWith('event: ')) name = line.slice(7);
    if (line.startsWith('data: ')) data += line.slice(6);
  }
  const json: unknown = JSON.parse(data);
  if (name === 'hello') return { kind: 'hello', data: HelloEventSchema.parse(json) };
  if (name === 'presence') return { kind: 'presence', data: PresenceEventSchema.parse(json) };
  if (name === 'record-changed') {
    return { kind: 'record-changed', data: RecordChangedEventSchema.parse(json) };
  }
  throw new Error(`unknown event ${name}`);
}

/**
 * Opens `GET /bff/events` at `base` with the session cookie; resolves once `hello` arrived.
 * Throws with the status when the BFF refuses.
 *
 * @example
 * const s = await openEventStream(base, { cookie: `${SESSION_COOKIE}=${id}` });
 * await s.next('presence', (m) => m.data.kind === 'delta');
 */
export async function openEventStream(
  base: string,
  headers: Record<string, string>,
): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(`${base}/bff/events`, { headers, signal: abort.signal });
  if (res.status !== 200 || !res.body) {
    throw Object.assign(new Error(`status ${res.status}: ${await res.text()}`), { res });
  }
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  let cursor = 0;
  let endedResolve: () => void = () => {};
  const ended = new Promise<void>((resolve) => (endedResolve = resolve));
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const message = parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (message) messages.push(message);
          for (const wake of waiters) wake();
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close(), or cut by the server.
    }
    endedResolve();
    for (const wake of waiters) wake();
  })();

  const next: EventStream['next'] = (kind, match, timeoutMs = 5_000) =>
    new Promise((resolve, reject) => {
      const look = () => {
        while (cursor < messages.length) {
          const m = messages[cursor++];
          if (m?.kind === kind && (!match || match(m as never))) {
            cleanup();
            resolve(m as never);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${kind} within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(look);
      };
      waiters.add(look);
      look();
    });

  const first = await next('hello');
  return { res, hello: first.data, messages, next, ended, close: () => abort.abort() };
}
