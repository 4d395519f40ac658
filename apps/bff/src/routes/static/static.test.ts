import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Harness } from '../../../test/harness.ts';
import { createHarness } from '../../../test/harness.ts';

let h: Harness;
let bare: Harness;
const INDEX_HTML = '<!doctype html><title>Console</title><div id="root"></div>';
const APP_JS = `export const app = ${JSON.stringify('x'.repeat(4_000))};`;

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bff-public-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(dir, 'assets', 'index-a1b2c3.js'), 'console.log("app")');
  // What the build writes next to each text asset (vite-plugin-compression2).
  const app = path.join(dir, 'assets', 'app-d4e5f6.js');
  await writeFile(app, APP_JS);
  await writeFile(`${app}.br`, zlib.brotliCompressSync(APP_JS));
  await writeFile(`${app}.gz`, zlib.gzipSync(APP_JS));
  await writeFile(path.join(dir, 'index.html.br'), zlib.brotliCompressSync(INDEX_HTML));
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(path.dirname(dir), 'outside-secret.txt'), 'must not be served');
  h = await createHarness({ config: { publicDir: dir } });
  bare = await createHarness({ upstream: h.upstream, config: { publicDir: null } });
});
afterAll(async () => {
  await bare.close();
  await h.close();
});

const html = { headers: { accept: 'text/html,application/xhtml+xml' } };

describe('the built console', () => {
  it('serves index.html with a strict CSP and the security headers, revalidated', async () => {
    const res = await h.request('/', html);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('<div id="root">');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('unsafe');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8,}/);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('caches hashed assets immutably for a year and other files not', async () => {
    const asset = await h.request('/assets/index-a1b2c3.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("app")');
    const icon = await h.request('/favicon.svg');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves the precompressed copy the browser accepts (brotli first), with Vary', async () => {
    const get = (acceptEncoding?: string) =>
      h.request(
        '/assets/app-d4e5f6.js',
        acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } },
      );
    const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

    const br = await get('gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const brBytes = await body(br);
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.length);
    expect(brBytes.length).toBeLessThan(APP_JS.length / 10);
    expect(zlib.brotliDecompressSync(brBytes).toString()).toBe(APP_JS);

    const gz = await get('br;q=0, gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(await body(gz)).toString()).toBe(APP_JS);

    for (const identity of [undefined, 'identity', 'deflate']) {
      const plain = await get(identity);
      expect(plain.headers.get('content-encoding'), identity).toBeNull();
      expect(plain.headers.get('vary'), identity).toBe('Accept-Encoding');
      expect(await plain.text()).toBe(APP_JS);
    }
    // HEAD describes the same representation.
    const head = await h.request('/assets/app-d4e5f6.js', {
      method: 'HEAD',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(head.headers.get('content-length')).toBe(String(brBytes.length));
  });

  it('serves index.html compressed for client routes too, and files without copies as they are', async () => {
    const page = await h.request('/records/apps/support', {
      headers: { ...html.headers, 'accept-encoding': 'gzip, br' },
    });
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(Buffer.from(await page.arrayBuffer())).toString()).toBe(
      INDEX_HTML,
    );
    const icon = await h.request('/favicon.svg', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(icon.headers.get('content-encoding')).toBeNull();
    expect(icon.headers.get('vary')).toBeNull();
  });

  it('falls back to index.html for client routes that accept HTML, never for assets or /api /bff', async () => {
    const route = await h.request('/records/apps/support?filter=x', html);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<div id="root">');
    expect((await h.request('/assets/missing-zzz.js', html)).status).toBe(404);
    expect((await h.request('/records/apps/support')).status).toBe(404);
    const bff = await h.request('/bff/nothing-here', html);
    expect(bff.status).toBe(404);
    expect(bff.headers.get('content-type')).toBe('application/problem+json');
  });

  it('never serves files outside the public folder', async () => {
    // `/%2e%2e/x` is normalised to `/x` by the URL parser (then SPA fallback); the raw-target
    // guard catches it on a real socket (proxy-stream.test.ts).
    const normalised = await h.request('/%2e%2e/outside-secret.txt', html);
    expect(await normalised.text()).not.toContain('must not be served');
    for (const p of ['/..%2foutside-secret.txt', '/assets/..%5c..%5coutside-secret.txt']) {
      const res = await h.request(p, html);
      expect(res.status).toBe(400);
      expect(await res.text()).not.toContain('must not be served');
    }
  });

  it('answers / with a clear 503 when the console is not built, while /bff still works', async () => {
    const res = await bare.request('/', html);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('not built');
    expect((await bare.request('/bff/health')).status).toBe(200);
  });

  it('serves a console built after the BFF started, without a restart', async () => {
    const later = path.join(await mkdtemp(path.join(tmpdir(), 'bff-later-')), 'dist');
    const app = await createHarness({ upstream: h.upstream, config: { publicDir: later } });
    expect((await app.request('/', html)).status).toBe(503);
    await mkdir(later);
    await writeFile(path.join(later, 'index.html'), '<!doctype html><p>built</p>');
    const res = await app.request('/', html);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('built');
  });
});
