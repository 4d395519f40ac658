// The react-admin list the side-by-side benchmark compares the console's records table with
// (bench/src/side-by-side.ts): a production build in dist/, served by the bench.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // One chunk on purpose (react-admin and MUI with the app), as a plain build of it ships.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2048 },
});
