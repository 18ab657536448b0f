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
                console: fileURLToPath(new URL('./console.html', import.meta.url)),
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
 * What /home needs after the entry, in as few files as possible (issue 18: every response costs
 * its headers, ~0.7 KiB here, and each small file compresses worse on its own). The home route
 * and the parts the app composes into it (the casino strip and provider list, the payments
 * top-up block, the shared pieces they use) become one `home` chunk with one stylesheet instead of
 * twelve scripts and four stylesheets; each language's strings that /home shows (common, casino,
 * payments) one `strings-<lang>` chunk instead of three. Other routes that use these modules
 * import the same chunks (cached by then). Only the app's build: the studio and desk share nothing.
 */
const HOME_MODULES = [
  '/src/features/home/',
  '/src/features/casino/components/HomeCasino',
  '/src/features/casino/components/ProviderList',
  '/src/features/casino/components/ProviderRow',
  '/src/features/casino/components/GameTile',
  '/src/features/casino/components/GamePopupHost',
  '/src/features/casino/components/Casino.module.css',
  '/src/features/casino/api.ts',
  '/src/features/casino/logic.ts',
  '/src/features/casino/popup.ts',
  '/src/features/casino/useCasinoAuthRefresh.ts',
  '/src/features/payments/components/HomePayments',
  '/src/features/payments/components/TopUpBlock',
  '/src/features/payments/components/WithdrawBanner',
  '/src/features/payments/components/Payments.module.css',
  '/src/features/payments/usePaymentPaths.ts',
  '/src/features/payments/specialUser.ts',
  // The jackpot widget (features/promotions/home): a few hundred bytes, not worth a request.
  '/src/features/promotions/home/',
  '/src/components/LazyImage',
  '/src/components/welcomeOffer',
  '/src/components/MobileButton',
  '/src/components/PopupModal',
];
const HOME_STRINGS = /\/src\/locales\/(\w+)\/(common|casino|payments)\.json$/;

type ModuleInfoOf = (id: string) => { importedIds: readonly string[] } | null;

/** The modules the entry (src/main.tsx) imports statically, directly or not: the shell. */
function staticClosure(entry: string, info: ModuleInfoOf): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const dep of info(id)?.importedIds ?? []) stack.push(dep);
  }
  return seen;
}

let shellModules: Set<string> | null = null;

/**
 * Rollup pulls every unassigned dependency of a manual chunk into it (React itself would move
 * into `home`, and the entry would import it statically), so the entry's own modules are named
 * too: they stay in the entry chunk.
 */
export function appChunk(id: string, { getModuleInfo }: { getModuleInfo: ModuleInfoOf }): string | undefined {
  shellModules ??= staticClosure(here('./src/main.tsx'), getModuleInfo);
  if (shellModules.has(id)) return 'index';
  const path = id.replace(/\\/g, '/').split('?')[0] ?? '';
  const strings = HOME_STRINGS.exec(path);
  if (strings) return `strings-${strings[1]}`;
  if (HOME_MODULES.some((m) => path.includes(m))) return 'home';
  return undefined;
}

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
    // Terser, two passes: the entry 5 % smaller after brotli than esbuild's minifier (131.1 → 124.5 KB),
    // the first load's largest lever left (docs/PERFORMANCE.md, issue 18).
    minify: 'terser',
    terserOptions: { module: true, compress: { passes: 2 }, format: { comments: false } },
    // dist/.vite/manifest.json: which file each source module became (for inspecting chunks).
    manifest: true,
    rollupOptions: {
      // The player app. The studio game client (studio.html, served for every /studio/* path) is the
      // second entry: built by studioEntry() above in its own pass, so that it shares no chunk with
      // the app and /home loads only its own (scripts/first-load.mjs measures it).
      input: { index: fileURLToPath(new URL('./index.html', import.meta.url)) },
      output: { ...output, manualChunks: appChunk },
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
