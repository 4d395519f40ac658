// readUpTo stops at a size and can keep the rest: a reply too large to hold streams on to the
// browser whole, even when another 'data' listener (the idle watch) is on the stream and the
// browser starts reading only later. Deterministic: the later chunks are written after the read
// stopped and after several turns of the event loop, before anyone reads the rest.
import { PassThrough } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';

import { readUpTo } from './proxy-history.ts';

async function text(stream: AsyncIterable<Buffer | string>): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

describe('readUpTo', () => {
  it('reads a short stream whole', async () => {
    const source = new PassThrough();
    source.end('abc');
    const read = await readUpTo(source, 10);
    expect(read.over).toBe(false);
    expect(Buffer.concat(read.chunks).toString()).toBe('abc');
  });

  it('keeps every byte of the rest when another data listener is on the stream', async () => {
    const source = new PassThrough();
    const reading = readUpTo(source, 4, { keepRest: true });
    let watched = 0;
    source.on('data', (chunk: Buffer) => (watched += chunk.length));
    source.write('12345');
    const read = await reading;
    expect(read.over).toBe(true);
    expect(Buffer.concat(read.chunks).toString()).toBe('12345');
    for (let n = 0; n < 5; n++) await turn();
    source.write('678');
    for (let n = 0; n < 5; n++) await turn();
    source.end('90');
    if (!read.rest) throw new Error('no rest kept');
    expect(await text(read.rest)).toBe('67890');
    expect(watched).toBe(10);
  });

  it('ends the rest with the error of the stream', async () => {
    const source = new PassThrough();
    const reading = readUpTo(source, 2, { keepRest: true });
    source.write('abc');
    const read = await reading;
    source.destroy(new Error('upstream went away'));
    if (!read.rest) throw new Error('no rest kept');
    await expect(text(read.rest)).rejects.toThrow('upstream went away');
  });
});
