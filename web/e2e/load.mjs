// @ts-check
/**
 * Loading the app: a reload of a signed-in page (never the guest header; the remembered record
 * dropped once the server says the session is gone), the first load's real JavaScript weight
 * (what Chromium transfers, brotli), and the installable app (manifest, service worker, the
 * branded offline page in the player's language, /api never cached).
 */
import { describe, FIRST_LOAD_BUDGET, isJs, kib, measureFirstLoad } from '../scripts/first-load.mjs';

const REMEMBERED_KEY = 'carthage.session';
const ALLOWED_RECORD_KEYS = ['at', 'balance', 'firstName', 'id', 'lastName', 'login', 'role'];

/**
 * Watches the banner from the very first node: records whether a guest "Log in" button ever
 * appears, and when the header first shows a balance (performance.now(), ms from navigation).
 */
function watchHeader() {
  const w = /** @type {any} */ (window);
  w.__guestSeen = false;
  w.__balanceAt = null;
  const check = () => {
    const banner = document.querySelector('header');
    if (!banner) return;
    for (const button of banner.querySelectorAll('button')) {
      if (button.textContent?.trim() === 'Log in') w.__guestSeen = true;
    }
    const balance = banner.querySelector('[data-testid="header-balance"]');
    if (w.__balanceAt === null && balance && /\d/.test(balance.textContent ?? '')) w.__balanceAt = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  return [
    {
      name: 'load: a reload of a signed-in page never shows the guest header; a session ended elsewhere ends in it',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const password = 'Reload42';
        const phone = await h.phoneAccount(signal, password);
        const page = await context.newPage();
        const errors = h.collectErrors(page);
        await h.openHome(page);
        await h.signIn(page, phone, password, 'phone');
        await page.getByTestId('header-balance').filter({ hasText: /\d/ }).waitFor();

        // The record: the header's few fields, never the session token.
        const record = await page.evaluate((key) => localStorage.getItem(key), REMEMBERED_KEY);
        h.assert(record, 'no remembered record after sign-in');
        const parsed = JSON.parse(record);
        const extra = Object.keys(parsed).filter((k) => !ALLOWED_RECORD_KEYS.includes(k));
        h.assert(extra.length === 0, `the record holds more than it should: ${extra.join(', ')}`);
        h.assert(parsed.login === phone && parsed.role === 0 && typeof parsed.balance?.balance === 'number', `record ${record}`);
        const session = (await context.cookies()).find((c) => c.name === 'carthage_session');
        h.assert(session && session.httpOnly, 'the session cookie is not HttpOnly');
        h.assert(!record.includes(session.value), 'the record holds the session token');

        await page.addInitScript(watchHeader);
        /** @type {string[]} */
        const asked = [];
        page.on('request', (r) => asked.push(new URL(r.url()).pathname));
        for (const path of ['/home', '/profile']) {
          asked.length = 0;
          const confirmed = page.waitForResponse((r) => r.url().endsWith('/api/user/balance'));
          await page.goto(path);
          await page.getByTestId('header-balance').filter({ hasText: /\d/ }).waitFor();
          await confirmed;
          await page.waitForTimeout(300);
          // Confirmed at once (no 500 ms wait), each asked once: the start-up hooks share the requests.
          const count = (/** @type {string} */ p) => asked.filter((a) => a === p).length;
          h.assert(count('/api/user/check') === 1 && count('/api/user/balance') === 1, `${path}: check ×${count('/api/user/check')}, balance ×${count('/api/user/balance')}`);
          const seen = await page.evaluate(() => /** @type {any} */ (window).__guestSeen);
          h.assert(seen === false, `${path}: the guest "Log in" button appeared during the reload`);
          const at = await page.evaluate(() => /** @type {any} */ (window).__balanceAt);
          note(`${path}: balance in the header ${Math.round(at)} ms after navigation start`);
        }
        await page.reload();
        await page.getByTestId('header-balance').filter({ hasText: /\d/ }).waitFor();
        h.assert((await page.evaluate(() => /** @type {any} */ (window).__guestSeen)) === false, 'reload: guest header seen');
        await h.shot(page, 'reload-signed-in-en');

        // The session ends elsewhere (logout through the API from another browser holding it).
        const other = await context.browser()?.newContext({ baseURL: h.BASE });
        h.assert(other, 'no browser');
        await other.addCookies([{ ...session, sameSite: session.sameSite }]);
        const out = await other.request.get('/api/user/logout', { headers: { Origin: h.BASE } });
        h.assert((await out.json()).status === 0, 'logout through the API failed');
        await other.close();

        await page.reload();
        await page.getByRole('banner').getByRole('button', { name: 'Log in' }).waitFor();
        h.assert((await page.getByTestId('header-id').count()) === 0, 'the header still shows the id');
        await page.waitForFunction((key) => localStorage.getItem(key) === null, REMEMBERED_KEY);
        // A further reload is a guest's from the start: nothing remembered to show.
        await page.reload();
        await page.getByRole('banner').getByRole('button', { name: 'Log in' }).waitFor();
        h.assert((await page.getByTestId('header-id').count()) === 0, 'a dropped record still showed');
        h.assertNoPageErrors(errors.filter((e) => !/\/api\/user\/balance/.test(e)));
      },
    },
    {
      name: `load: first load of /home transfers at most ${FIRST_LOAD_BUDGET / 1024} KiB of JavaScript, response headers included`,
      /** @param {{ context: import('playwright-core').BrowserContext, note: (l: string) => void }} t */
      async run({ context, note }) {
        const browser = context.browser();
        h.assert(browser, 'no browser');
        const { scripts, received, sent, total, files } = await measureFirstLoad(browser, h.BASE);
        const js = files.filter(isJs);
        for (const f of files.slice(0, 8)) note(describe(f));
        note(`JavaScript ${kib(scripts)} in ${js.length} files (bodies and response headers)`);
        note(`every transfer: ${files.length} requests, ${kib(received)} received + ${kib(sent)} sent = ${kib(total)}`);
        h.assert(js.length > 0, 'no JavaScript seen');
        const plain = js.filter((f) => f.encoding !== 'br' && f.body > 1024);
        h.assert(plain.length === 0, `not sent as brotli: ${plain.map((f) => `${f.url} (${f.encoding})`).join(', ')}`);
        // Headers count: a response with none reported would make the figure a body-only one.
        h.assert(js.every((f) => f.responseHeaders > 0), 'a script without response header bytes: the measure is not counting headers');
        h.assert(scripts <= FIRST_LOAD_BUDGET, `first load of /home: ${kib(scripts)} of JavaScript with headers, over the ${kib(FIRST_LOAD_BUDGET)} budget`);
      },
    },
    {
      name: 'load: installable app: manifest, service worker in control, branded offline page in en/fr/ar, /api never cached',
      /** @param {{ context: import('playwright-core').BrowserContext, note: (l: string) => void }} t */
      async run({ context, note }) {
        const browser = context.browser();
        h.assert(browser, 'no browser');
        const ctx = await browser.newContext({
          baseURL: h.BASE,
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 2,
          isMobile: true,
          hasTouch: true,
          locale: 'en-US',
          serviceWorkers: 'allow',
        });
        try {
          const page = await ctx.newPage();
          const errors = h.collectErrors(page);
          await page.goto('/home');
          await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();

          // The manifest: linked, valid, its icons load at their stated sizes.
          const href = await page.locator('link[rel="manifest"]').getAttribute('href');
          h.assert(href, 'no <link rel="manifest">');
          const res = await ctx.request.get(href);
          h.assert(res.ok() && /manifest\+json|application\/json/.test(res.headers()['content-type'] ?? ''), `manifest: ${res.status()} ${res.headers()['content-type']}`);
          const manifest = await res.json();
          h.assert(manifest.name && manifest.short_name === 'Carthage', `names: ${manifest.name} / ${manifest.short_name}`);
          h.assert(manifest.start_url === '/home' && manifest.display === 'standalone', `start_url ${manifest.start_url}, display ${manifest.display}`);
          h.assert(/^#[0-9a-f]{6}$/i.test(manifest.theme_color) && /^#[0-9a-f]{6}$/i.test(manifest.background_color), 'colours');
          h.assert(manifest.icons.some((/** @type {any} */ i) => i.purpose === 'maskable'), 'no maskable icon');
          h.assert(manifest.icons.some((/** @type {any} */ i) => i.sizes === '512x512' && i.purpose === 'any'), 'no 512 px icon');
          for (const icon of manifest.icons) {
            const size = await page.evaluate(async (src) => {
              const img = new Image();
              img.src = src;
              await img.decode();
              return `${img.naturalWidth}x${img.naturalHeight}`;
            }, icon.src);
            h.assert(icon.sizes === 'any' || icon.sizes === size, `${icon.src}: ${size}, stated ${icon.sizes}`);
          }

          // The service worker registers after load and takes control of the page.
          await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
          const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
          note(`service worker in control, scope ${scope}`);

          // The API goes to the network, never to a cache: a reply not from the worker, no cache entry.
          const apiReply = page.waitForResponse((r) => r.url().endsWith('/api/site/settings'));
          await page.evaluate(() => fetch('/api/site/settings').then((r) => r.json()));
          h.assert(!(await apiReply).fromServiceWorker(), '/api answered by the service worker');
          await page.reload();
          await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
          const cached = await page.evaluate(async () => {
            const urls = [];
            for (const name of await caches.keys()) {
              for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
            }
            return urls;
          });
          note(`cached: ${cached.join(' ')}`);
          h.assert(cached.includes('/offline.html'), 'the offline page is not precached');
          h.assert(!cached.some((u) => u.startsWith('/api')), `an /api reply is cached: ${cached.join(' ')}`);
          h.assert(!cached.some((u) => u === '/' || u.endsWith('index.html') || u === '/home'), `the app page is cached (stale after a deploy): ${cached.join(' ')}`);

          // Offline: a navigation shows the branded offline page, in the stored language; /api fails.
          await ctx.setOffline(true);
          const expected = /** @type {const} */ ([
            ['en', 'ltr', 'You are offline'],
            ['fr', 'ltr', 'Vous êtes hors ligne'],
            ['ar', 'rtl', 'أنت غير متصل بالإنترنت'],
          ]);
          for (const [lang, dir, title] of expected) {
            await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
            await page.goto('/profile/history');
            await page.getByTestId('offline-page').getByRole('heading', { name: title }).waitFor();
            const html = await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
            h.assert(html[0] === lang && html[1] === dir, `offline page ${lang}: lang/dir ${html.join('/')}`);
            await page.getByRole('button').first().waitFor();
            for (const width of [390, 320]) {
              await page.setViewportSize({ width, height: 700 });
              await h.shot(page, `offline-${lang}-${width}`);
            }
            await page.setViewportSize({ width: 390, height: 844 });
          }
          const offlineApi = await page.evaluate(() => fetch('/api/site/settings').then(() => 'answered', () => 'failed'));
          h.assert(offlineApi === 'failed', '/api answered offline (from a cache)');

          // Back online: the offline page reloads itself into the app (the page asked for, in Arabic).
          await ctx.setOffline(false);
          await page.waitForFunction(() => document.documentElement.dir === 'rtl' && !!document.querySelector('#root nav'));
          h.assert(new URL(page.url()).pathname === '/profile/history', `back online at ${page.url()}`);
          await page.evaluate(() => localStorage.setItem('carthage.lang', 'en'));
          await page.goto('/home');
          await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
          h.assertNoPageErrors(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)));
        } finally {
          await ctx.close();
        }
      },
    },
  ];
}
