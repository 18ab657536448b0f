import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The Rust server (crates/server) listens here in development.
// Override with CARTHAGE_BACKEND=http://host:port when it runs elsewhere.
const backend = process.env.CARTHAGE_BACKEND ?? 'http://127.0.0.1:8080';

// Paths served by the Rust server rather than by the SPA.
const proxy = Object.fromEntries(
  ['/api', '/healthz', '/metrics'].map((prefix) => [prefix, { target: backend, changeOrigin: false }]),
);

const output = {
  entryFileNames: 'assets/[name]-[hash].js',
  chunkFileNames: 'assets/[name]-[hash].js',
  assetFileNames: 'assets/[name]-[hash][extname]',
};

/** Second entry: web/studio.html -> dist/studio.html + its own hashed assets, after the app's build. */
function studioEntry(): Plugin {
  return {
    name: 'carthage-studio-entry',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        root: fileURLToPath(new URL('.', import.meta.url)),
        base: '/',
        logLevel: 'warn',
        plugins: [react()],
        build: {
          outDir: 'dist',
          emptyOutDir: false,
          assetsDir: 'assets',
          sourcemap: false,
          target: 'es2022',
          modulePreload: { polyfill: false },
          manifest: false,
          rollupOptions: { input: { studio: fileURLToPath(new URL('./studio.html', import.meta.url)) }, output },
        },
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), studioEntry()],
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
      // The player app. The studio game client (studio.html, served for every /studio/* path) is the
      // second entry: built by studioEntry() above in its own pass, so that it shares no chunk with
      // the app and /home loads exactly what it loaded before (scripts/size-check.mjs).
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)) },
      output,
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
