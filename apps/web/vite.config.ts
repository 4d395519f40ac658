import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dev server proxies the BFF so the SPA runs same-origin, exactly as when the BFF serves dist/.
// `pnpm dev` (scripts/dev.sh) passes the BFF's port.
const bff = `http://127.0.0.1:${process.env.BFF_PORT ?? '3000'}`;

export default defineConfig({
  plugins: [
    // Must run before the React plugin: it rewrites route files into lazily loaded chunks.
    tanstackRouter({ target: 'react', autoCodeSplitting: true, quoteStyle: 'single' }),
    react(),
    tailwindcss(),
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
  },
});
