import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

import { zodWithoutJsonSchema } from './build/zod-without-json-schema.ts';

// The dev server proxies the BFF so the SPA runs same-origin, exactly as when the BFF serves dist/.
// `pnpm dev` (scripts/dev.sh) passes the BFF's port.
const bff = `http://127.0.0.1:${process.env.BFF_PORT ?? '3000'}`;

export default defineConfig({
  plugins: [
    // Must run before the React plugin: it rewrites route files into lazily loaded chunks.
    tanstackRouter({ target: 'react', autoCodeSplitting: true, quoteStyle: 'single' }),
    react(),
    tailwindcss(),
    // zod's JSON Schema generator is not used by the console: left out of the bundle (ADR 0032).
    zodWithoutJsonSchema(),
    // Precompressed copies next to each text asset (x.js.br, x.js.gz): the BFF serves the one the
    // browser accepts, so no asset is compressed per request. Brotli at its best quality: the
    // build pays once.
    compression({
      include: /\.(html|js|css|svg|json|txt|webmanifest)$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      logLevel: 'silent',
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: bff, changeOrigin: false },
      '/bff': { target: bff, changeOrigin: false },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?(react|react-dom|scheduler|use-sync-external-store|@tanstack[\\/](react-router|router-core|history|react-query|query-core|store|react-store)|zod|clsx|tailwind-merge)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
