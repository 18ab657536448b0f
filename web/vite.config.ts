import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

// The Rust server (crates/server) listens here in development.
// Override with CARTHAGE_BACKEND=http://host:port when it runs elsewhere.
const backend = process.env.CARTHAGE_BACKEND ?? 'http://127.0.0.1:8080';

// Paths served by the Rust server rather than by the SPA. The partner sportsbooks' calls
// (/digitain/front/token, /gr8/game_link, /gr8/frame) and their frames (/partners/…: the guest
// Digitain base and the demo pages) sit outside /api, as the spec names them.
const proxy = Object.fromEntries(
  ['/api', '/healthz', '/metrics', '/digitain/', '/gr8/', '/partners/'].map((prefix) => [
    prefix,
    { target: backend, changeOrigin: false },
  ]),
);

const output = {
  entryFileNames: 'assets/[name]-[hash].js',
  chunkFileNames: 'assets/[name]-[hash].js',
  assetFileNames: 'assets/[name]-[hash][extname]',
};

/** Second build: web/studio.html and web/desk.html -> dist/*.html + their own hashed assets, after the app's build. */
function studioEntry(): Plugin {
  return {
    name: 'carthage-studio-entry',
    apply: 'build',
    // Sequential: the service worker and the precompressed copies below come after it.
    closeBundle: {
      sequential: true,
      async handler() {
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
            rollupOptions: {
              input: {
                studio: fileURLToPath(new URL('./studio.html', import.meta.url)),
                // The cashier desk (src/desk): its own page, never in the player app's bundle.
                desk: fileURLToPath(new URL('./desk.html', import.meta.url)),
              },
              output,
            },
          },
        });
      },
    },
  };
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The page the service worker shows when a navigation fails offline: web/offline/* emitted at the
 * root of dist/, its texts (en, fr, ar) taken from src/locales/<lang>/common.json "offline".
 */
function offlinePage(): Plugin {
  return {
    name: 'carthage-offline-page',
    apply: 'build',
    generateBundle() {
      const texts = Object.fromEntries(
        ['en', 'fr', 'ar'].map((lang) => {
          const common = JSON.parse(readFileSync(here(`./src/locales/${lang}/common.json`), 'utf8')) as {
            offline: Record<string, string>;
          };
          return [lang, common.offline];
        }),
      );
      const script = readFileSync(here('./offline/offline.js'), 'utf8').replace('__OFFLINE_TEXTS__', JSON.stringify(texts));
      this.emitFile({ type: 'asset', fileName: 'offline.html', source: readFileSync(here('./offline/offline.html'), 'utf8') });
      this.emitFile({ type: 'asset', fileName: 'offline.css', source: readFileSync(here('./offline/offline.css'), 'utf8') });
      this.emitFile({ type: 'asset', fileName: 'offline.js', source: script });
    },
  };
}

/**
 * Precompressed copies: `x.br` (brotli, quality 11) and `x.gz` (gzip -9) beside every compressible
 * file of dist/ (both entries, the service worker and the manifest included), so the server sends
 * them as they are (crates/server/src/app.rs) instead of compressing on every request. Runs last.
 */
function precompress(): Plugin {
  const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm)$/;
  return {
    name: 'carthage-precompress',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const dist = here('./dist');
        const walk = (dir: string): string[] =>
          readdirSync(dir).flatMap((name) => {
            const path = join(dir, name);
            return statSync(path).isDirectory() ? walk(path) : [path];
          });
        for (const file of walk(dist)) {
          if (!compressible.test(file) || file.includes('/.vite/')) continue;
          const raw = readFileSync(file);
          if (raw.length < 256) continue;
          const br = brotliCompressSync(raw, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          });
          const gz = gzipSync(raw, { level: 9 });
          if (br.length < raw.length) writeFileSync(`${file}.br`, br);
          if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
        }
      },
    },
  };
}

// Design tokens of src/styles.css: --c-bg.
const APP_BACKGROUND = '#0a0e18';

export default defineConfig({
  plugins: [
    react(),
    studioEntry(),
    offlinePage(),
    // Installable app: the web app manifest (linked from index.html) and a service worker that
    // precaches only the offline page; navigations go to the network (a deploy is seen at once) and
    // fall back to the offline page; /api and every other request are left to the browser, never
    // cached. src/app/serviceWorker.ts registers it after the page has loaded.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: null,
      includeManifestIcons: false,
      manifest: {
        id: '/home',
        name: 'Carthage — casino',
        short_name: 'Carthage',
        description: 'Carthage — casino and sports betting',
        lang: 'en',
        start_url: '/home',
        scope: '/',
        display: 'standalone',
        theme_color: APP_BACKGROUND,
        background_color: APP_BACKGROUND,
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
          { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['offline.{html,css,js}', 'favicon.svg'],
        navigateFallback: null,
        inlineWorkboxRuntime: true,
        cleanupOutdatedCaches: true,
        navigationPreload: true,
        runtimeCaching: [
          {
            // Page loads (the studio's frame too), never /api: the network, else the offline page.
            urlPattern: ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api'),
            handler: 'NetworkOnly',
            options: { precacheFallback: { fallbackURL: '/offline.html' } },
          },
        ],
      },
    }),
    precompress(),
  ],
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
    // dist/.vite/manifest.json: which file each source module became (for inspecting chunks).
    manifest: true,
    rollupOptions: {
      // The player app. The studio game client (studio.html, served for every /studio/* path) is the
      // second entry: built by studioEntry() above in its own pass, so that it shares no chunk with
      // the app and /home loads only its own (scripts/first-load.mjs measures it).
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
