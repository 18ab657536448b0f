// @ts-check
/**
 * Layout at phone widths (issue 10, point 1): every page of the app, in English, French and
 * Arabic, at 320 and 390 px, as a guest and signed in, with the auth modal, the side menu, a
 * pop-up and a toast open: nothing is wider than the screen, no header or bottom-bar control
 * or label is clipped, modals and toasts sit in the middle.
 *
 * One browser context per width (the runner's options, another viewport), one page per test,
 * the language set through the app's own storage key; routes are visited client-side.
 */

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} Context */

export const LANGS = /** @type {const} */ (['en', 'fr', 'ar']);
/** The first is the width the pages are visited at; each is checked. */
const WIDTHS = [390, 320];
const PASSWORD = 'Layout42';

/** Every route of web/src/app/router.tsx and features/casino/routes/CasinoRoutes.tsx. */
const ROUTES = [
  '/home',
  '/auth/login',
  '/auth/registration',
  '/auth/restore',
  '/verify',
  '/flatPages/terms',
  '/flatPages/responsible-gaming',
  '/contacts',
  '/promotions',
  '/promotions/cashback-percent',
  '/partner',
  '/slots/main',
  '/slots/lobby',
  '/slots/favorites',
  '/slots/crash-games',
  '/slots/providers',
  '/slots/some-category',
  '/casinolive/main',
  '/casinolive/lobby',
  '/virtual-games',
  '/digsport',
  '/betting',
  '/betting/gr',
  '/payment-frame',
  '/promotions/coupon-machine',
  '/no/such/page',
];
/** The /profile children (a guest sees the sign-in invitation on each). */
const PROFILE_ROUTES = [
  '/profile',
  '/profile/personal',
  '/profile/balance',
  '/profile/password',
  '/profile/history',
  '/profile/bets',
  '/profile/cashback',
  '/profile/responsible-gambling',
  '/profile/withdrawal',
  '/profile/top-up',
  '/profile/top-up-tg',
  '/profile/paykassma/deposit',
  '/profile/paykassma/withdrawal',
  '/profile/not-built-yet',
];

/**
 * A context like the runner's (web/scripts/e2e.mjs runTest) at another width, closed when the
 * test ends or times out.
 * @param {any} h @param {Context} context @param {AbortSignal} signal @param {number} width
 */
export async function contextAt(h, context, signal, width) {
  const browser = context.browser();
  if (!browser) throw new Error('no browser behind the test context');
  const major = browser.version().split('.')[0];
  const ctx = await browser.newContext({
    baseURL: `${h.BASE}/`,
    viewport: { width, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    userAgent: `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`,
    serviceWorkers: 'block',
  });
  ctx.setDefaultTimeout(15_000);
  signal.addEventListener('abort', () => void ctx.close().catch(() => {}));
  return ctx;
}

/** Signs a fresh phone player in on the context's cookie jar (the API, as the app does). @param {any} h @param {Context} ctx @param {AbortSignal} signal */
export async function signInByApi(h, ctx, signal) {
  const phone = await h.phoneAccount(signal, PASSWORD);
  const res = await ctx.request.post(h.urlOf('/api/user/login'), { data: { login: phone, password: PASSWORD }, headers: { Origin: h.BASE } });
  const env = await res.json();
  h.assert(env.status === 0, `login: ${JSON.stringify(env).slice(0, 200)}`);
  return phone;
}

/** Loads the app in `lang` (its own storage key) at `path`. @param {Page} page @param {string} lang @param {string} [path] */
export async function openIn(page, lang, path = '/home') {
  if (!page.url().startsWith('http')) await page.goto('/home', { waitUntil: 'domcontentloaded' });
  await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
  await page.goto(path, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  await page.getByTestId('bottom-menu').waitFor();
  await settled(page).catch((err) => {
    throw new Error(`${lang} ${path} never settled: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
  });
}

/**
 * Where a route ends up: /verify (no code) reports it and goes home; a signed-in player asking
 * for the auth pages is shown the account.
 * @param {string} path @param {boolean} signedIn
 */
const landsOn = (path, signedIn) => (path === '/verify' ? '/home' : signedIn && path.startsWith('/auth/') ? '/profile' : path);

/**
 * A client-side navigation (the router follows popstate).
 * @param {Page} page @param {string} path @param {boolean} [signedIn]
 */
async function go(page, path, signedIn = false) {
  await page.evaluate((p) => {
    window.history.pushState(null, '', p);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  await page.waitForFunction((p) => window.location.pathname === p, landsOn(path, signedIn));
  await settled(page).catch((err) => {
    throw new Error(`${path} never settled: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
  });
}

/** The page has content and no loading overlay in it. @param {Page} page */
async function settled(page) {
  await page.waitForFunction(
    () => {
      const main = document.getElementById('main');
      return !!main && main.innerText.trim().length > 0 && !main.querySelector('[role="status"]');
    },
    undefined,
    { polling: 50 },
  );
  // Two frames: layout after the last render.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));
}

/**
 * Everything wrong with the layout on screen now, as sentences (empty: all good).
 * `screen`: the phone's width. A mobile browser widens its layout viewport to content wider than
 * the screen (innerWidth grows with it), so both are compared with the screen's width.
 * @param {Page} page @param {number} screen
 */
export async function layoutProblems(page, screen) {
  return page.evaluate((screenWidth) => {
    /** @type {string[]} */
    const out = [];
    const vw = screenWidth;
    if (window.innerWidth > vw) out.push(`the layout viewport is ${window.innerWidth}px wide on a ${vw}px screen`);
    /** @param {Element} el */
    const name = (el) => {
      const id = el.getAttribute('data-testid');
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 30);
      return `<${el.tagName.toLowerCase()}${id ? ` data-testid=${id}` : cls}> "${text}"`;
    };
    /** @param {Element} el */
    const shown = (el) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
    };
    /** Inside a box that clips or scrolls horizontally (its own overflow is that box's business). @param {Element} el */
    const clippedByAncestor = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX !== 'visible' || s.position === 'fixed') return true;
      }
      return false;
    };

    const width = document.documentElement.scrollWidth;
    if (width > vw) {
      const culprits = [...document.querySelectorAll('body *')]
        .filter((el) => shown(el) && !clippedByAncestor(el))
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.right > vw + 0.5 || r.left < -0.5;
        })
        .slice(-3)
        .map(name);
      out.push(`page is ${width}px wide on a ${vw}px screen (${culprits.join(', ') || 'no culprit found'})`);
    }

    // Header and bottom-bar controls and labels: whole, on screen, never cut.
    const header = document.querySelector('header');
    const bottom = document.querySelector('[data-testid="bottom-menu"]');
    const controls = [
      ...(header ? header.querySelectorAll('button, a, a > span, button > span') : []),
      ...(bottom ? bottom.querySelectorAll('[class] > li > a, [class] > li > button, li > a > span, li > button > span') : []),
    ].filter((el) => shown(el) && el.getAttribute('data-testid') !== 'logo' && el.getAttribute('data-testid') !== 'logo-text');
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth) out.push(`${name(el)} is clipped: ${el.scrollWidth}px of content in ${el.clientWidth}px`);
      if (r.left < -0.5 || r.right > vw + 0.5) out.push(`${name(el)} sticks out of the screen (${Math.round(r.left)}..${Math.round(r.right)})`);
    }
    // The word mark is shown whole inside the logo, or not at all.
    const logo = document.querySelector('[data-testid="logo"]');
    const word = document.querySelector('[data-testid="logo-text"]');
    if (logo && word) {
      const l = logo.getBoundingClientRect();
      const w = word.getBoundingClientRect();
      const visible = w.top < l.bottom && w.bottom > l.top;
      if (visible && (w.left < l.left - 0.5 || w.right > l.right + 0.5 || w.bottom > l.bottom + 0.5)) out.push('the logo word mark is cut');
    }

    // Dialogs and toasts: centred, and nothing inside them wider than they are.
    for (const el of document.querySelectorAll('[role="dialog"], [data-testid="toast"]')) {
      if (!shown(el) || el.closest('[aria-hidden="true"]')) continue;
      const r = el.getBoundingClientRect();
      if (Math.abs(r.left - (vw - r.right)) > 2) out.push(`${name(el)} is off-centre: ${Math.round(r.left)}px left, ${Math.round(vw - r.right)}px right`);
      if (r.left < -0.5 || r.right > vw + 0.5) out.push(`${name(el)} is wider than the screen`);
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} overflows sideways: ${el.scrollWidth}px in ${el.clientWidth}px`);
    }
    // The side menu, when open: on screen, its content within it.
    const side = document.querySelector('[data-testid="side-menu"][data-open="true"]');
    if (side) {
      const r = side.getBoundingClientRect();
      if (r.left < -0.5 || r.right > vw + 0.5) out.push(`the side menu is off screen (${Math.round(r.left)}..${Math.round(r.right)})`);
      if (side.scrollWidth > side.clientWidth + 1) out.push(`the side menu overflows sideways: ${side.scrollWidth}px in ${side.clientWidth}px`);
    }
    return out;
  }, screen);
}

/** @param {any} h */
export function tests(h) {
  const { assert, collectErrors, assertNoPageErrors, shot } = h;

  /**
   * @param {Page} page @param {string[]} problems @param {string} where
   */
  async function check(page, problems, where) {
    const width = page.viewportSize()?.width ?? WIDTHS[0];
    for (const p of await layoutProblems(page, width)) problems.push(`${where}: ${p}`);
  }

  /**
   * Checks the screen at every width: the page as it is, then resized (media queries and
   * container queries respond as on a phone of that width); the page stays at the last width.
   * @param {Page} page @param {string[]} problems @param {string} where
   */
  async function checkWidths(page, problems, where) {
    // The current width first, then the others; the page stays at the last (fewer resizes).
    const now = page.viewportSize()?.width ?? WIDTHS[0];
    for (const width of [now, ...WIDTHS.filter((w) => w !== now)]) {
      if (width !== now) {
        await page.setViewportSize({ width, height: 844 });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))));
      }
      await check(page, problems, `${where} at ${width}px`);
    }
  }

  /** Every route, then the overlays, in one language, at every width. */
  function languageTest(/** @type {string} */ lang, /** @type {boolean} */ signedIn) {
    return {
      name: `layout: every page fits ${WIDTHS.join(' and ')}px in ${lang} ${signedIn ? 'signed in' : 'as a guest'}, overlays centred, header and bottom bar whole`,
      /** @param {{ context: Context, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const ctx = await contextAt(h, context, signal, WIDTHS[0]);
        const shots = Boolean(process.env.E2E_LAYOUT_SHOTS);
        let step = 'start';
        /** @type {string[]} */
        const problems = [];
        try {
          if (signedIn) await signInByApi(h, ctx, signal);
          const page = await ctx.newPage();
          const errors = collectErrors(page);
          let visited = 0;
          const started = Date.now();
          const suffix = signedIn ? '-signed-in' : '';
          step = 'opening';
          await openIn(page, lang);
          if (signedIn) await page.getByTestId('header-id').waitFor();
          else await page.getByTestId('header-register').waitFor();
          // The header and home, looked at by people (web/screenshots/).
          for (const width of [...WIDTHS].reverse()) {
            await page.setViewportSize({ width, height: 844 });
            await shot(page, `layout-home-${lang}-${width}${suffix}`);
          }
          for (const path of [...ROUTES, ...PROFILE_ROUTES]) {
            step = path;
            await go(page, path, signedIn);
            await checkWidths(page, problems, path);
            visited += 1;
          }
          // The side menu.
          step = 'side menu';
          await go(page, '/home');
          await page.getByTestId('header-menu').click();
          await page.locator('[data-testid="side-menu"][data-open="true"]').waitFor();
          await page.waitForTimeout(320); // its slide-in
          await checkWidths(page, problems, 'side menu');
          if (shots) await shot(page, `layout-side-${lang}-${page.viewportSize()?.width}${suffix}`);
          await page.keyboard.press('Escape');
          await page.locator('[data-testid="side-menu"][data-open="false"]').waitFor({ state: 'attached' });
          // A pop-up: the first game's card.
          step = 'game pop-up';
          await go(page, '/slots/lobby');
          await page.getByTestId('game-tile').first().click();
          await page.getByTestId('game-popup').waitFor();
          await page.waitForTimeout(250); // its pop-in
          await checkWidths(page, problems, 'game pop-up');
          if (shots) await shot(page, `layout-popup-${lang}-${page.viewportSize()?.width}${suffix}`);
          await page.keyboard.press('Escape');
          await page.getByTestId('game-popup').waitFor({ state: 'detached' });
          if (!signedIn) {
            // The auth modal, and a toast (a guest asking for a sport book).
            step = 'auth modal';
            await go(page, '/home');
            await page.getByTestId('header-register').click();
            await page.getByRole('dialog').waitFor();
            await page.waitForTimeout(250);
            await checkWidths(page, problems, 'auth modal');
            if (shots) await shot(page, `layout-auth-${lang}-${page.viewportSize()?.width}`);
            await page.keyboard.press('Escape');
            await page.getByRole('dialog').waitFor({ state: 'detached' });
            step = 'toast';
            await page.getByTestId('nav-sport').click();
            // A partner's entry (GR8): our own sportsbook is open to guests.
            await page.getByTestId('sport-menu').getByRole('button').filter({ hasText: 'GR8' }).click();
            await page.getByTestId('toast').first().waitFor();
            await page.waitForTimeout(250);
            await checkWidths(page, problems, 'toast');
          }
          note(`${visited} pages and the overlays at ${WIDTHS.join(' and ')}px in ${((Date.now() - started) / 1000).toFixed(1)} s`);
          assert(problems.length === 0, `${problems.length} layout problems:\n${problems.slice(0, 25).join('\n')}`);
          assertNoPageErrors(errors);
        } catch (err) {
          if (err instanceof Error && !err.message.includes('layout problems')) {
            // The layout problems met before, which may be why the step failed.
            const seen = problems.length ? `\nlayout problems before it:\n${problems.slice(0, 15).join('\n')}` : '';
            err.message = `at ${step}: ${err.message.split('\n')[0]}${seen}`;
          } else if (err instanceof Error) err.message = `at ${step}: ${err.message}`;
          for (const [i, p] of ctx.pages().entries()) await shot(p, `failed-layout-${lang}${signedIn ? '-signed-in' : ''}-${i}`).catch(() => {});
          throw err;
        } finally {
          await ctx.close().catch(() => {});
        }
      },
    };
  }

  return LANGS.flatMap((lang) => [languageTest(lang, false), languageTest(lang, true)]);
}
