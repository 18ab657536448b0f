// @ts-check
/**
 * The app shell (issue 18): a lazy chunk that a deploy removed (the app reloads once to the new
 * build, then shows its own error screen inside the shell, in the player's language, never React
 * Router's developer page), and toasts that leave the page title readable. At 390 and 320 px in
 * en, fr and ar.
 */
import { fileURLToPath } from 'node:url';
import { contextAt, LANGS, openIn } from './layout.mjs';

/** @typedef {import('playwright-core').Page} Page */

const WIDTHS = [390, 320];
const ROUTE_ERROR = {
  en: { title: 'This page could not load', reload: 'Reload', nav: 'Main navigation' },
  fr: { title: 'Cette page n’a pas pu se charger', reload: 'Recharger', nav: 'Navigation principale' },
  ar: { title: 'تعذّر تحميل هذه الصفحة', reload: 'إعادة التحميل', nav: 'التنقل الرئيسي' },
};
const CONTACTS = { en: 'Contacts', fr: 'Contacts', ar: 'اتصل بنا' };

/** A client-side navigation, as a link does (the router follows popstate). @param {Page} page @param {string} path */
async function go(page, path) {
  await page.evaluate((p) => {
    window.history.pushState(null, '', p);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}

/** Counts the page's document loads (the first one and every reload). @param {Page} page */
function countDocuments(page) {
  const loads = { n: 0 };
  page.on('request', (r) => {
    if (r.resourceType() === 'document' && r.frame() === page.mainFrame()) loads.n += 1;
  });
  return loads;
}

/** @param {any} h */
export function tests(h) {
  const { assert, shot } = h;
  return [
    {
      name: 'shell: a lazy chunk a deploy removed reloads the app once, then the error screen inside the shell (en, fr, ar; 390 and 320 px)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        for (const width of WIDTHS) {
          const ctx = await contextAt(h, context, signal, width);
          try {
            const page = await ctx.newPage();
            for (const lang of LANGS) {
              await openIn(page, lang, '/home');
              // A new deploy, long after the last automatic reload of this tab.
              await page.evaluate(() => sessionStorage.removeItem('carthage.chunkReload'));
              const loads = countDocuments(page);
              /** @type {string[]} */
              const refused = [];
              // The contacts page's chunk is gone from the server (a newer build replaced it).
              await page.route(/\/assets\/ContactsPage-[\w-]+\.js$/, (route) => {
                refused.push(route.request().url());
                return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
              });
              await go(page, '/contacts');
              const screen = page.getByTestId('route-error');
              await screen.and(page.locator('[data-kind="update"]')).waitFor({ timeout: 15_000 });
              const text = ROUTE_ERROR[lang];
              assert(loads.n === 1, `${lang} ${width}: ${loads.n} page loads after the failed chunk, expected one automatic reload`);
              assert(refused.length >= 2, `${lang} ${width}: the chunk was asked ${refused.length} times (before and after the reload)`);
              assert(new URL(page.url()).pathname === '/contacts', `${lang} ${width}: reloaded to ${page.url()}`);
              await screen.getByRole('heading', { name: text.title }).waitFor();
              assert((await page.getByText('Unexpected Application Error').count()) === 0, 'the developer error page showed');
              // The shell stays: the header and the navigation, in the page's language and direction.
              await page.getByRole('banner').waitFor();
              await page.getByRole('navigation', { name: text.nav }).waitFor();
              const dir = await page.evaluate(() => document.documentElement.dir);
              assert(dir === (lang === 'ar' ? 'rtl' : 'ltr'), `${lang}: dir ${dir}`);
              const wide = await page.evaluate(() => document.documentElement.scrollWidth);
              assert(wide <= width, `${lang} ${width}: the page is ${wide}px wide`);
              const reload = screen.getByRole('button', { name: text.reload });
              const box = await reload.boundingBox();
              assert(box && box.x >= 0 && box.x + box.width <= width && box.height >= 44, `${lang} ${width}: Reload button at ${JSON.stringify(box)}`);
              await shot(page, `route-error-${lang}-${width}`);

              // The chunk is back (the deploy finished): Reload shows the page.
              await page.unroute(/\/assets\/ContactsPage-[\w-]+\.js$/);
              await reload.click();
              await page.getByRole('heading', { name: CONTACTS[lang], level: 1 }).waitFor();
              assert((await page.getByTestId('route-error').count()) === 0, `${lang}: the error screen stayed after the reload`);
              note(`${lang} ${width}: one automatic reload, then the error screen; Reload recovered`);
              page.removeAllListeners('request');
            }
          } finally {
            await ctx.close();
          }
        }
      },
    },
    {
      name: 'shell: a chunk that is back after the automatic reload shows its page (the deploy case)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const ctx = await contextAt(h, context, signal, 390);
        try {
          const page = await ctx.newPage();
          const errors = h.collectErrors(page);
          await openIn(page, 'en', '/home');
          const loads = countDocuments(page);
          // The old page's chunk is gone; the reloaded page (the new build's index) finds its chunk.
          await page.route(/\/assets\/ContactsPage-[\w-]+\.js$/, (route) => {
            if (loads.n > 0) return route.continue();
            return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
          });
          await go(page, '/contacts');
          await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor({ timeout: 15_000 });
          assert(loads.n === 1, `${loads.n} page loads, expected the one automatic reload`);
          assert((await page.getByTestId('route-error').count()) === 0, 'the error screen showed');
          note('404 on the chunk → one reload → the page');
          // Expected: the 404 itself and React's report of the error the route's error screen caught.
          h.assertNoPageErrors(errors.filter((e) => !/status of 404|Failed to fetch dynamically imported module/.test(e)));
        } finally {
          await ctx.close();
        }
      },
    },
    // One test a width: each language waits out one toast's 7 s (90 s a test at most).
    ...WIDTHS.map((width) => ({
      name: `shell: a toast leaves the header’s page title readable, goes by itself after the spec’s 7 s and at a tap (en, fr, ar; ${width} px)`,
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const ctx = await contextAt(h, context, signal, width);
        try {
          const page = await ctx.newPage();
          for (const lang of LANGS) {
            await openIn(page, lang, '/contacts');
            const title = page.getByRole('heading', { name: CONTACTS[lang], level: 1 });
            await title.waitFor();
            const raise = async () => {
              // A guest asking for a partner sportsbook: "please sign in to bet".
              await page.getByTestId('nav-sport').click();
              await page.getByTestId('sport-menu').getByRole('button').filter({ hasText: 'GR8' }).click();
              const toast = page.getByTestId('toast').first();
              await toast.waitFor();
              await page.waitForTimeout(300); // its entry animation
              return toast;
            };
            const toast = await raise();
            const t = await toast.boundingBox();
            const hd = await title.boundingBox();
            assert(t && hd, 'no boxes');
            const overlap = t.y < hd.y + hd.height && hd.y < t.y + t.height && t.x < hd.x + hd.width && hd.x < t.x + t.width;
            assert(!overlap, `${lang} ${width}: the toast (y ${Math.round(t.y)}–${Math.round(t.y + t.height)}) covers the page title (y ${Math.round(hd.y)}–${Math.round(hd.y + hd.height)})`);
            assert(t.x >= 0 && t.x + t.width <= width, `${lang} ${width}: the toast is outside the screen (${Math.round(t.x)}, ${Math.round(t.width)})`);
            // With the toast showing (shot() would close it first).
            await page.screenshot({ path: fileURLToPath(new URL(`../screenshots/toast-${lang}-${width}.png`, import.meta.url)) });
            // A tap on the toast dismisses it.
            await toast.locator('span').nth(1).tap();
            await toast.waitFor({ state: 'detached', timeout: 1000 });
            // Left alone, it goes by itself after the spec's 7 s.
            const again = await raise();
            const since = Date.now();
            await again.waitFor({ state: 'detached', timeout: 10000 });
            const lasted = Date.now() - since;
            assert(lasted >= 5500 && lasted <= 8500, `${lang} ${width}: the toast stayed ${lasted} ms (spec: 7000)`);
            note(`${lang} ${width}: toast y ${Math.round(t.y)}–${Math.round(t.y + t.height)}, title y ${Math.round(hd.y)}–${Math.round(hd.y + hd.height)}; a tap closes it; gone by itself after ${lasted} ms`);
          }
        } finally {
          await ctx.close();
        }
      },
    })),
  ];
}
