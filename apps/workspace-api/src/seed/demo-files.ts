// The demo's attachment files, made up on the fly: logs, CSV exports and small PNG screenshots.
import { crc32, deflateSync } from 'node:zlib';

import type { Rng } from './prng.ts';
import { uuidFrom } from './prng.ts';

/** A small valid PNG (a colour gradient), as a screenshot stand-in. */
function demoPng(seed: number): Buffer {
  const size = 32;
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y += 1) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x += 1) {
      const at = y * (size * 3 + 1) + 1 + x * 3;
      raw[at] = (x * 8 + seed * 40) % 256;
      raw[at + 1] = (y * 8) % 256;
      raw[at + 2] = 180;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A plausible attachment for a ticket: an application log, a CSV export or a screenshot.
 *
 * @example
 * const file = demoFile(rng, 'SUP-12', ticket.createdAt, 0);
 */
export function demoFile(
  rng: Rng,
  ticketId: string,
  at: Date,
  index: number,
): { name: string; mediaType: string; bytes: Buffer; description: string | null } {
  const kind = rng.pick(['log', 'csv', 'png'] as const);
  if (kind === 'png')
    return {
      name: `screenshot-${index + 1}.png`,
      mediaType: 'image/png',
      bytes: demoPng(index),
      description: 'Screenshot of the error',
    };
  if (kind === 'csv') {
    const lines = ['date,user,action,status'];
    for (let i = 0; i < rng.int(5, 30); i += 1) {
      lines.push(
        `${new Date(at.getTime() - i * 3_600_000).toISOString()},user${rng.int(1, 40)},${rng.pick(['login', 'export', 'sync', 'upload'])},${rng.pick(['ok', 'ok', 'ok', 'error'])}`,
      );
    }
    return {
      name: `export-${ticketId.toLowerCase()}.csv`,
      mediaType: 'text/csv',
      bytes: Buffer.from(`${lines.join('\n')}\n`),
      description: 'Export showing the failed rows',
    };
  }
  const lines: string[] = [];
  for (let i = 0; i < rng.int(10, 40); i += 1) {
    const level = rng.pick(['INFO', 'INFO', 'WARN', 'ERROR']);
    lines.push(
      `${new Date(at.getTime() - i * 61_000).toISOString()} ${level} request_id=${uuidFrom(rng).slice(0, 8)} ${level === 'ERROR' ? 'upstream timed out after 30000 ms' : 'handled in ' + String(rng.int(5, 900)) + ' ms'}`,
    );
  }
  return {
    name: `${ticketId.toLowerCase()}-app.log`,
    mediaType: 'text/plain',
    bytes: Buffer.from(`${lines.reverse().join('\n')}\n`),
    description: null,
  };
}
