import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The Rust server (crates/server) listens here in development.
// Override with CARTHAGE_BACKEND=http://host:port when it runs elsewhere.
const backend = process.env.CARTHAGE_BACKEND ?? 'http://127.0.0.1:8080';

// Paths served by the Rust server rather than by the SPA.
const proxy = Object.fromEntries(
  ['/api', '/healthz', '/metrics'].map((prefix) => [prefix, { target: backend, changeOrigin: false }]),
);

export default defineConfig({
  plugins: [react()],
  base: '/',
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy,
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    strictPort: true,
    proxy,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Everything under dist/assets/ carries a content hash in its name, so the
    // server may send it with `Cache-Control: public, max-age=31536000, immutable`.
    assetsDir: 'assets',
    sourcemap: false,
    // Evergreen mobile browsers: no down-levelling, and no modulepreload polyfill (all support it).
    target: 'es2022',
    modulePreload: { polyfill: false },
    // dist/.vite/manifest.json: scripts/size-check.mjs follows the chunks /home loads.
    manifest: true,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
