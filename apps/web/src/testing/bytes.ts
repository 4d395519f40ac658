/**
 * Joins byte chunks into one array: how the tests read back what an encoder or a sink produced.
 *
 * @example
 * new TextDecoder().decode(concatBytes([...csv.start(columns), ...csv.finish()]));
 */
export function concatBytes(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
