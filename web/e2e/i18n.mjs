// @ts-check
/**
 * Translations and right-to-left details (issue 10, point 6): numbers with their units keep
 * their order in Arabic (checked on the rendered glyph positions and the dir/unicode-bidi of
 * their boxes), the French lobby tab is not called like Home, the dice shows one number format
 * per locale, the welcome slide states only an offer the settings grant, with its currency, and
 * links to a section that exists, the side menu lists Contacts once, catalogue texts take their
 * own direction.
 */
import { contextAt, openIn, signInByApi } from './layout.mjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */

/**
 * Left-to-right screen order of two characters of an element's text: true when `first` is drawn
 * to the left of `second`.
 * @param {Locator} el @param {string} first @param {string} second
 */
async function drawnBefore(el, first, second) {
  return el.evaluate(
    (node, [a, b]) => {
      /** @param {string} ch */
      const x = (ch) => {
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          const i = (t.textContent ?? '').indexOf(ch);
          if (i < 0) continue;
          const range = document.createRange();
          range.setStart(t, i);
          range.setEnd(t, i + ch.length);
          return range.getBoundingClientRect().left;
        }
        throw new Error(`no "${ch}" in ${node.textContent}`);
      };
      return x(a) < x(b);
    },
    [first, second],
  );
}

/** The box's resolved direction and bidi isolation. @param {Locator} el */
const bidiOf = (el) =>
  el.evaluate((node) => {
    const s = getComputedStyle(node);
    return { direction: s.direction, unicodeBidi: s.unicodeBidi, dir: node.getAttribute('dir') };
  });

/** @param {any} h */
export function tests(h) {
  const { assert, collectErrors, assertNoPageErrors, shot, api } = h;

  return [
    {
      name: 'i18n: Arabic keeps "18+", RTP and multipliers in order; catalogue texts take their own direction',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openIn(page, 'ar');
        assert((await page.locator('html').getAttribute('dir')) === 'rtl', 'Arabic page is not right-to-left');
        // The side menu's legal mark.
        await page.getByTestId('header-menu').click();
        const age = page.getByTestId('side-menu').getByTestId('age-mark');
        await age.waitFor();
        assert((await age.textContent())?.trim() === '18+', `age mark text ${await age.textContent()}`);
        assert((await bidiOf(age)).direction === 'ltr', 'the 18+ mark is not a left-to-right box');
        assert(await drawnBefore(age, '18', '+'), 'Arabic side menu draws "+18" instead of "18+"');
        await page.keyboard.press('Escape');
        // A casino tile and its pop-up: catalogue names and descriptions in their own direction, RTP isolated.
        await page.goto('/slots/lobby');
        const tile = page.getByTestId('game-tile').first();
        await tile.waitFor();
        const tileName = tile.locator('span[dir]').first();
        assert((await tileName.getAttribute('dir')) === 'auto', 'a game tile name is not dir="auto"');
        await tile.click();
        const popup = page.getByTestId('game-popup');
        await popup.waitFor();
        const rtp = page.getByTestId('game-rtp').locator('bdi');
        const rtpBidi = await bidiOf(rtp);
        assert(rtpBidi.dir === 'ltr' && rtpBidi.direction === 'ltr' && rtpBidi.unicodeBidi === 'isolate', `RTP box: ${JSON.stringify(rtpBidi)}`);
        const rtpText = (await rtp.textContent()) ?? '';
        const digit = /\d/.exec(rtpText)?.[0] ?? '9';
        assert(await drawnBefore(rtp, digit, '%'), `Arabic RTP "${rtpText}" draws the % before the number`);
        // A description, when the catalogue has one for a game of the first row.
        let described = 0;
        for (let i = 0; i < 6 && described === 0; i += 1) {
          const desc = page.getByTestId('game-description');
          if (await desc.count()) {
            assert((await desc.getAttribute('dir')) === 'auto', 'the game description is not dir="auto"');
            const text = (await desc.textContent()) ?? '';
            // English text keeps its own direction inside the Arabic page: a left-to-right paragraph.
            if (/^[A-Za-z]/.test(text)) assert((await bidiOf(desc)).direction === 'ltr', `English description rendered right-to-left: ${text.slice(0, 40)}`);
            described += 1;
            break;
          }
          await page.keyboard.press('Escape');
          await popup.waitFor({ state: 'detached' });
          await page.getByTestId('game-tile').nth(i + 1).click();
          await popup.waitFor();
        }
        note(described ? 'a catalogue description checked' : 'no game of the first row has a description');
        await shot(page, 'i18n-game-popup-ar');
        // The studio: dice multiplier and crash-free stats isolated left to right.
        await signInByApi(h, context, signal);
        const session = await context.request.post(h.urlOf('/api/casino/session'), {
          data: { provider: 'studio', gameId: 'dice', lang: 'ar', platform: 'mobile' },
          headers: { Origin: h.BASE },
        });
        const env = await session.json();
        assert(env.status === 0, `casino session: ${JSON.stringify(env).slice(0, 200)}`);
        await page.goto(env.result.url);
        const mult = page.getByTestId('dice-multiplier');
        await mult.waitFor();
        const multBidi = await bidiOf(mult);
        assert(multBidi.direction === 'ltr' && multBidi.unicodeBidi === 'isolate', `dice multiplier box: ${JSON.stringify(multBidi)}`);
        const multText = (await mult.textContent()) ?? '';
        assert(await drawnBefore(mult, /\d/.exec(multText)?.[0] ?? '1', '×'), `Arabic dice multiplier "${multText}" draws × before the number`);
        await shot(page, 'i18n-dice-ar');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'i18n: French lobby tab differs from Home; dice marker and result share the locale separator',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openIn(page, 'fr', '/slots/lobby');
        const home = ((await page.getByTestId('nav-home').textContent()) ?? '').trim();
        const lobby = ((await page.getByTestId('casino-slots').locator('a[href="/slots/lobby"]').first().textContent()) ?? '').trim();
        assert(home && lobby && home.toLowerCase() !== lobby.toLowerCase(), `French Home tab "${home}" and Lobby tab "${lobby}" read the same`);
        note(`fr: Home "${home}", Lobby "${lobby}"`);
        for (const lang of ['ar']) {
          await openIn(page, lang, '/slots/lobby');
          const h2 = ((await page.getByTestId('nav-home').textContent()) ?? '').trim();
          const l2 = ((await page.getByTestId('casino-slots').locator('a[href="/slots/lobby"]').first().textContent()) ?? '').trim();
          assert(h2 !== l2, `${lang} Home tab "${h2}" and Lobby tab "${l2}" read the same`);
        }
        // One dice roll in French: the marker over the track and the result read alike ("35,78").
        await signInByApi(h, context, signal);
        const session = await context.request.post(h.urlOf('/api/casino/session'), {
          data: { provider: 'studio', gameId: 'dice', lang: 'fr', platform: 'mobile' },
          headers: { Origin: h.BASE },
        });
        const env = await session.json();
        assert(env.status === 0, `casino session: ${JSON.stringify(env).slice(0, 200)}`);
        await page.goto(env.result.url);
        await page.getByTestId('dice-roll').click();
        await page.getByTestId('dice-marker').waitFor();
        await page.waitForFunction(() => !document.querySelector('[data-testid="dice-roll"]')?.hasAttribute('disabled'));
        const result = ((await page.getByTestId('dice-result-value').textContent()) ?? '').trim();
        const marker = ((await page.getByTestId('dice-marker').textContent()) ?? '').trim();
        assert(result === marker, `French dice result "${result}" and marker "${marker}" differ`);
        assert(/^\d{1,3},\d{2}$/.test(result), `French dice result "${result}" lacks the French decimal comma`);
        note(`fr dice: result ${result}, marker ${marker}`);
        await shot(page, 'i18n-dice-fr');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'i18n: the welcome slide states only the granted offer, with its currency, and leads to its section; Contacts listed once',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const settings = await api('/api/site/settings', signal);
        const granted = Number(settings?.limits?.bonus?.registrationBonus ?? 0);
        const page = await context.newPage();
        const errors = collectErrors(page);
        // The server as it is.
        await openIn(page, 'en');
        await page.locator('section[aria-roledescription="carousel"] a').first().waitFor();
        const alts = await page.locator('section[aria-roledescription="carousel"] img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt') ?? ''));
        assert(!alts.some((a) => /1000/.test(a)), `a slide still claims an amount: ${alts.join(' | ')}`);
        if (granted > 0) {
          await page.getByTestId('welcome-slide').waitFor();
        } else {
          assert((await page.getByTestId('welcome-slide').count()) === 0, 'a welcome slide is shown while the settings grant no registration bonus');
          await page.goto('/promotions');
          await page.getByRole('heading', { name: 'Promotions' }).waitFor();
          assert((await page.getByTestId('welcome-offer').count()) === 0, '/promotions shows a welcome offer the settings do not grant');
        }
        note(`settings: registrationBonus ${granted} ${settings.defaultCurrency}`);
        // The same app with a registration bonus set by the operator (the settings document the server
        // serves, bonus changed): the slide and the section say exactly that amount, in that currency.
        const bonus = 25;
        await context.route('**/api/site/settings', async (route) => {
          const res = await route.fetch();
          const body = await res.json();
          body.result.limits.bonus.registrationBonus = bonus;
          await route.fulfill({ response: res, json: body });
        });
        for (const lang of ['en', 'fr', 'ar']) {
          await openIn(page, lang);
          const slide = page.getByTestId('welcome-slide');
          await slide.waitFor({ state: 'attached' });
          const caption = ((await page.getByTestId('welcome-caption').textContent()) ?? '').replace(/[\u2066-\u2069\u200e\u200f]/g, '');
          assert(caption.includes(String(bonus)) && caption.includes(settings.defaultCurrency), `${lang} welcome caption "${caption}" lacks ${bonus} ${settings.defaultCurrency}`);
          const href = await slide.getAttribute('href');
          assert(href === '/promotions#welcome', `${lang} welcome slide links to ${href}`);
          // Bring it on screen (the first dot is the first slide) for a look.
          await page.locator('section[aria-roledescription="carousel"] button').first().click();
          await page.waitForTimeout(500);
          await shot(page, `i18n-welcome-slide-${lang}`);
          await page.goto(href);
          const section = page.locator('#welcome');
          await section.waitFor();
          const amount = ((await section.getByTestId('welcome-amount').textContent()) ?? '').trim();
          assert(amount.includes(String(bonus)) && amount.includes(settings.defaultCurrency), `${lang} welcome section shows "${amount}"`);
          assert(await section.isVisible(), `${lang} the #welcome section is not visible`);
        }
        await shot(page, 'i18n-welcome-section-ar');
        await context.unroute('**/api/site/settings');
        // The side menu: Contacts once.
        await openIn(page, 'en');
        await page.getByTestId('header-menu').click();
        const menu = page.locator('[data-testid="side-menu"][data-open="true"]');
        await menu.waitFor();
        await menu.getByTestId('info-pages').waitFor();
        const contacts = await menu.getByRole('link', { name: 'Contacts', exact: true }).count();
        assert(contacts === 1, `the side menu lists Contacts ${contacts} times`);
        assert((await menu.locator('a[href="/flatPages/contacts"]').count()) === 0, 'the contacts flat page is listed besides /contacts');
        assertNoPageErrors(errors);
      },
    },
  ];
}
