/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by Trove under /_app/ (its API owns /assets, so the build's assets live below /_app/assets/).
// `npm run dev` proxies the API to a Trove on TROVE_URL (default http://127.0.0.1:39300).
const trove = process.env.TROVE_URL ?? 'http://127.0.0.1:39300';

export default defineConfig({
  base: '/_app/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: Object.fromEntries(
      [
        '/assets',
        '/asset',
        '/conversations',
        '/conversation',
        '/qgpt',
        '/models',
        '/model',
        '/applications',
        '/.well-known',
        '/trove',
        '/connect',
        '/search',
      ].map((path) => [path, { target: trove, ws: true, changeOrigin: true }]),
    ),
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
