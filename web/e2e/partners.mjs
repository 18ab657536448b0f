// @ts-check
/**
 * The partner sportsbooks in frames (web/src/features/partners; spec §4 "Digitain token" and
 * "Second-provider link"), against the real server in demo mode:
 * - a guest opens /digsport/live: no token is asked, the frame carries `token=anonymous` and the
 *   server's demo page loads in it (English and Arabic, right-to-left);
 * - a new player opens /betting/gr/live: the server's `game_link` gets the `all-live` deep link
 *   after its language segment, its `jwt=` kept (English and Arabic);
 * - a guest on /betting/gr/uefa is asked to log in to bet, and the button opens the login;
 * - a player on /digsport/line gets the server's token (not the placeholder).
 * The page never scrolls (only the frame does). Screenshots at 390×844.
 */
import { readFileSync } from 'node:fs';

/** @param {string} lang @param {string} ns */
const texts = (lang, ns) => JSON.parse(readFileSync(new URL(`../src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  /**
   * The language before the app starts (the top window only: the demo frame may be same-origin).
   * @param {import('playwright-core').Page} page @param {string} lang
   */
  const useLanguage = (page, lang) =>
    page.addInitScript((l) => {
      if (window === window.top) localStorage.setItem('carthage.lang', l);
    }, lang);

  /** @param {import('playwright-core').Page} page @param {string} lang */
  const expectDirection = async (page, lang) => {
    await page.waitForFunction((rtl) => document.documentElement.dir === (rtl ? 'rtl' : 'ltr'), lang === 'ar');
  };

  /**
   * The frame is there and has loaded (the skeleton goes away on its load event); returns its src.
   * @param {import('playwright-core').Page} page
   */
  const loadedFrame = async (page) => {
    const frame = page.getByTestId('partner-frame');
    await frame.waitFor({ state: 'attached', timeout: 15_000 });
    await page.getByTestId('frame-skeleton').waitFor({ state: 'detached', timeout: 20_000 }).catch(async () => {
      const failed = await page.getByTestId('frame-error-text').textContent().catch(() => null);
      throw new Error(failed ? `the frame's address failed: ${failed}` : 'the frame did not load within 20 s');
    });
    const src = await frame.getAttribute('src');
    h.assert(src, 'the frame has no src');
    return src;
  };

  /** Only the frame scrolls: the document is no taller or wider than the screen. @param {import('playwright-core').Page} page */
  const expectNoPageScroll = async (page) => {
    const m = await page.evaluate(() => {
      const d = document.scrollingElement ?? document.documentElement;
      return { h: d.scrollHeight - window.innerHeight, w: d.scrollWidth - d.clientWidth };
    });
    h.assert(m.h <= 0 && m.w <= 0, `the page itself scrolls (${m.h} px down, ${m.w} px across): only the frame should`);
  };

  /**
   * Every call of `path` the page makes.
   * @param {import('playwright-core').Page} page @param {string} path
   */
  const callsTo = (page, path) => {
    /** @type {string[]} */
    const seen = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === path) seen.push(u.pathname + u.search);
    });
    return seen;
  };

  /** @param {'en' | 'ar'} lang */
  const digitainGuest = (lang) => ({
    name: `partners: a guest opens /digsport/live and sees the Digitain demo frame with token=anonymous (${lang})`,
    /** @param {{ context: import('playwright-core').BrowserContext, note: (l: string) => void }} t */
    async run({ context, note }) {
      const page = await context.newPage();
      const errors = h.collectErrors(page);
      const tokenCalls = callsTo(page, '/digitain/front/token');
      await useLanguage(page, lang);
      await page.goto('/digsport/live');
      await expectDirection(page, lang);
      const src = await loadedFrame(page);
      note(`frame src: ${src}`);
      const u = new URL(src, h.BASE);
      h.assert(u.searchParams.get('token') === 'anonymous', `a guest's token is the placeholder: ${src}`);
      h.assert(u.pathname.endsWith(`/${lang}/Live/1`), `the frame path is {base}/${lang}/Live/1: ${src}`);
      h.assert(tokenCalls.length === 0, `a guest asked for a token: ${tokenCalls.join(', ')}`);
      // The server answered the frame's address with its demo page, not with this app (SPA fallback).
      const framed = await (await page.getByTestId('partner-frame').elementHandle())?.contentFrame();
      h.assert(framed, 'no frame document');
      const t = texts(lang, 'partners');
      h.assert((await page.getByTestId('partner-frame').getAttribute('title')) === t.digitain.title, 'the frame has its translated title');
      if (new URL(framed.url()).origin === new URL(h.BASE).origin) {
        h.assert((await framed.locator('[data-testid="bottom-menu"]').count()) === 0, `${framed.url()} is the player app, not the demo frame`);
      }
      h.assert((await page.getByTestId('digitain-tab-live').getAttribute('aria-current')) === 'page', 'the Live tab is the current one');
      await expectNoPageScroll(page);
      await h.shot(page, `partners-digitain-guest-${lang}-390`);
      h.assertNoPageErrors(errors);
    },
  });

  /** @param {'en' | 'ar'} lang */
  const gr8Player = (lang) => ({
    name: `partners: a player opens /betting/gr/live and the GR8 link opens all-live with its jwt (${lang})`,
    /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
    async run({ context, signal, note }) {
      const { page, errors } = await h.newPlayerPage(context, signal);
      const linkCalls = callsTo(page, '/gr8/game_link');
      const frameCalls = callsTo(page, '/gr8/frame');
      await useLanguage(page, lang);
      await page.goto('/betting/gr/live');
      await expectDirection(page, lang);
      await page.getByTestId('header-id').waitFor();
      const src = await loadedFrame(page);
      note(`frame src: ${src.replace(/jwt=[^&]+/, 'jwt=…')}`);
      h.assert(src.includes('/all-live'), `the live deep link is in the frame's address: ${src}`);
      h.assert(src.includes('jwt='), `the player's jwt is kept: ${src}`);
      h.assert(linkCalls.some((c) => c === `/gr8/game_link?lang=${lang}`), `game_link was asked in ${lang}: ${linkCalls.join(', ') || 'never'}`);
      h.assert(frameCalls.length === 0, `a player asked for the guest frame: ${frameCalls.join(', ')}`);
      h.assert((await page.getByTestId('gr8-guest-notice').count()) === 0, 'a player is not asked to log in');
      await expectNoPageScroll(page);
      await h.shot(page, `partners-gr8-player-${lang}-390`);

      // Another tab is another deep link of the same link: nothing is asked again.
      const before = linkCalls.length;
      await page.getByTestId('gr8-tab-mybets').click();
      await page.waitForURL('**/betting/gr/mybets');
      const mybets = await loadedFrame(page);
      h.assert(mybets.includes('/my-bets/open') && mybets.includes('jwt='), `my bets opens my-bets/open: ${mybets}`);
      h.assert(linkCalls.length === before, 'changing tabs asked for the link again');
      h.assertNoPageErrors(errors);
    },
  });

  return [
    digitainGuest('en'),
    digitainGuest('ar'),
    gr8Player('en'),
    gr8Player('ar'),
    {
      name: 'partners: a guest on /betting/gr/uefa sees the GR8 frame and a notice to log in that opens the login',
      /** @param {{ context: import('playwright-core').BrowserContext, note: (l: string) => void }} t */
      async run({ context, note }) {
        const page = await context.newPage();
        const errors = h.collectErrors(page);
        const linkCalls = callsTo(page, '/gr8/game_link');
        await page.goto('/betting/gr/uefa');
        const src = await loadedFrame(page);
        note(`frame src: ${src}`);
        h.assert(src.includes('/football/uefa-champions-league/play-offs'), `uefa opens the play-offs prematch page: ${src}`);
        h.assert(linkCalls.length === 0, 'a guest asked for a player link');
        const notice = page.getByTestId('gr8-guest-notice');
        await notice.waitFor();
        h.assert((await notice.textContent())?.includes(texts('en', 'partners').gr8.guestNotice), 'the notice asks to log in to bet');
        await expectNoPageScroll(page);
        await h.shot(page, 'partners-gr8-guest-en-390');
        await page.getByTestId('gr8-login').click();
        await page.getByRole('dialog', { name: 'Sign in' }).waitFor();
        h.assertNoPageErrors(errors);
      },
    },
    {
      name: "partners: a player's Digitain frame carries the server's token",
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors } = await h.newPlayerPage(context, signal);
        const tokenCalls = callsTo(page, '/digitain/front/token');
        await page.goto('/digsport/line');
        await page.getByTestId('header-id').waitFor();
        const src = await loadedFrame(page);
        const token = new URL(src, h.BASE).searchParams.get('token');
        note(`frame path: ${new URL(src, h.BASE).pathname}`);
        h.assert(tokenCalls.length >= 1, 'the token was not asked');
        h.assert(token && token !== 'anonymous', `a player's frame has a player token, not ${JSON.stringify(token)}`);
        h.assert(new URL(src, h.BASE).pathname.endsWith('/en/SportEvent'), `line opens {url}/en/SportEvent: ${src}`);
        h.assertNoPageErrors(errors);
      },
    },
  ];
}
