// @ts-check
/**
 * Browser tests of the casino (web/src/features/casino, the /home strips): lobby and provider
 * rows, "view all" with sP, search, the game pop-up (guest block), favourites, the game page
 * framing the studio client, live casino's empty state, and screenshots in English and Arabic.
 * Loaded by scripts/e2e.mjs, which passes its helpers.
 */

/** @typedef {import('playwright-core').Page} Page */

const PASSWORD = 'Casino12';

/**
 * @param {any} h the helpers of scripts/e2e.mjs
 * @returns {{ name: string, run: (t: { context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (line: string) => void }) => Promise<void> }[]}
 */
export function tests(h) {
  const { assert, collectErrors, assertNoPageErrors, expectToast, shot, signIn, openHome, phoneAccount } = h;

  /** @param {Page} page */
  const studioRow = (page) => page.locator('[data-testid="provider-row"][data-provider="studio"]').first();

  /** A player with a fresh account, signed in on `page` at /home. @param {Page} page @param {AbortSignal} signal */
  async function signedInPlayer(page, signal) {
    const phone = await phoneAccount(signal, PASSWORD);
    await openHome(page);
    await signIn(page, phone, PASSWORD, 'phone');
    return phone;
  }

  return [
    {
      name: 'casino: /slots/lobby shows the studio row; a guest opening a game is told to log in and the pop-up closes',
      async run({ context, note }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        const response = await page.goto('/slots/lobby');
        assert(response?.status() === 200, `GET /slots/lobby answered HTTP ${response?.status()}`);
        await page.getByRole('heading', { name: 'Slots', level: 1 }).waitFor();
        const row = studioRow(page);
        await row.waitFor();
        const tiles = row.getByTestId('game-tile');
        await tiles.first().waitFor();
        const count = await tiles.count();
        assert(count >= 1 && count <= 6, `the studio row has ${count} tiles (1 to 6 expected)`);
        note(`studio row: ${(await tiles.allTextContents()).map((t) => t.trim()).join(' | ')}`);
        assert((await tiles.first().getAttribute('href')) === '#', 'a guest game link does not resolve to #');
        assert(await row.getByText('Carthage Studio').first().isVisible(), 'the row title lacks the provider name');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(overflow <= 0, `the lobby overflows the 390px viewport by ${overflow}px`);
        await page.waitForTimeout(600);
        await shot(page, 'casino-lobby-en');

        await tiles.first().click();
        const dialog = page.getByTestId('game-popup');
        await dialog.waitFor();
        const rtp = (await dialog.getByTestId('game-rtp').textContent())?.trim() ?? '';
        assert(/^\d{2}(\.\d{2})?%$/.test(rtp), `RTP shown as ${JSON.stringify(rtp)}`);
        await dialog.getByText('Volatility').waitFor();
        note(`pop-up RTP ${rtp}`);
        await page.waitForTimeout(500);
        await shot(page, 'casino-popup-en');
        await dialog.getByRole('button', { name: 'Play' }).click();
        await expectToast(page, 'To use slots, please log in.');
        await dialog.waitFor({ state: 'detached' });
        assert(page.url().endsWith('/slots/lobby'), `a guest pressing play went to ${page.url()}`);
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'casino: a provider row on /home leads to /slots/main?sP=studio keeping the query; back returns',
      async run({ context }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await page.goto('/home?utm_source=e2e');
        await page.getByTestId('home-casino').waitFor();
        const row = studioRow(page);
        await row.scrollIntoViewIfNeeded();
        await row.getByTestId('game-tile').first().waitFor();
        await page.waitForTimeout(500);
        await shot(page, 'casino-home-en');
        await row.getByTestId('view-all').click();
        await page.waitForURL((url) => url.pathname === '/slots/main' && url.searchParams.get('sP') === 'studio');
        const url = new URL(page.url());
        assert(url.searchParams.get('utm_source') === 'e2e', `the other query parameters were dropped: ${page.url()}`);
        await page.getByTestId('game-grid').getByTestId('game-tile').first().waitFor();
        const tiles = await page.getByTestId('game-grid').getByTestId('game-tile').count();
        assert(tiles >= 1, 'the provider page shows no game');
        await page.getByRole('heading', { name: 'Carthage Studio' }).waitFor();
        await shot(page, 'casino-main-en');
        await page.getByRole('button', { name: 'Back' }).click();
        await page.waitForURL((u) => u.pathname === '/home');
        assert(new URL(page.url()).search === '?utm_source=e2e', `back went to ${page.url()}`);
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'casino: search, category chips, crash games, providers and the live casino guest state',
      async run({ context, note }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await page.goto('/slots/main');
        await page.getByTestId('game-grid').getByTestId('game-tile').first().waitFor();
        const all = await page.getByTestId('game-grid').getByTestId('game-tile').count();
        note(`/slots/main shows ${all} games`);
        await page.getByRole('searchbox', { name: 'Search games' }).fill('des');
        const results = page.getByTestId('search-results');
        await results.getByRole('link', { name: 'Desert Gold' }).waitFor();
        await page.getByRole('button', { name: 'Clear the search' }).click();
        await results.waitFor({ state: 'detached' });

        await page.goto('/slots/crash-games');
        await page.getByTestId('crash-games').getByTestId('game-tile').first().waitFor();
        const crash = await page.getByTestId('crash-games').getByTestId('game-tile').allTextContents();
        note(`crash games: ${crash.join(' | ')}`);

        await page.goto('/slots/providers');
        const card = page.getByTestId('providers').getByRole('link', { name: /Carthage Studio/ });
        await card.waitFor();
        assert(/\d+ games?/.test((await card.textContent()) ?? ''), 'the provider card shows no game count');

        for (const path of ['/casinolive/main', '/casinolive/lobby', '/casinolive/anything']) {
          await page.goto(path);
          // Demo mode's live tables (the Evolution fake) need an account: a guest is asked to log in.
          await page.getByTestId('live-guest').waitFor();
        }
        await shot(page, 'casino-live-en');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'casino: a player adds a game to favourites and removes it',
      async run({ context, signal, note }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        const phone = await signedInPlayer(page, signal);
        note(`player ${phone}`);
        await page.goto('/slots/favorites');
        await page.getByTestId('favorites-empty').waitFor();

        await page.goto('/slots/lobby');
        const row = studioRow(page);
        await row.getByTestId('game-tile').first().waitFor();
        const name = (await row.getByTestId('game-tile').first().getAttribute('aria-label')) ?? '';
        await row.getByTestId('game-tile').first().click();
        let dialog = page.getByTestId('game-popup');
        await dialog.getByRole('button', { name: 'Add to favourites' }).click();
        await expectToast(page, 'The game was added to favourites.');
        await dialog.getByRole('button', { name: 'Remove from favourites' }).waitFor();
        await page.keyboard.press('Escape');

        // The lobby gains a favourites row; the favourites page lists the game.
        await page.locator('[data-testid="provider-row"][data-provider="favorite"]').waitFor();
        await page.goto('/slots/favorites');
        const tile = page.getByTestId('favorites').getByRole('link', { name, exact: true });
        await tile.waitFor();
        await shot(page, 'casino-favorites-en');
        await tile.click();
        dialog = page.getByTestId('game-popup');
        await dialog.getByRole('button', { name: 'Remove from favourites' }).click();
        await expectToast(page, 'The game was removed from favourites.');
        await page.keyboard.press('Escape');
        await page.getByTestId('favorites-empty').waitFor();
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'casino: a player opens a game from its pop-up; the game page frames the studio client',
      async run({ context, signal }) {
        const page = await context.newPage();
        await signedInPlayer(page, signal);
        await page.goto('/slots/lobby');
        // Game links are real once the auth check (500 ms after start) has answered.
        await page.getByTestId('header-id').waitFor();
        const row = studioRow(page);
        await row.getByRole('link', { name: 'Desert Gold', exact: true }).waitFor();
        const href = await row.getByRole('link', { name: 'Desert Gold', exact: true }).getAttribute('href');
        assert(href === '/slots/studio/desert-gold', `the signed-in game link is ${href}`);
        await row.getByRole('link', { name: 'Desert Gold', exact: true }).click();
        await page.getByTestId('game-popup').getByRole('button', { name: 'Play' }).click();
        await page.waitForURL((u) => u.pathname === '/slots/studio/desert-gold');
        const frame = page.getByTestId('game-frame');
        await frame.waitFor();
        const src = (await frame.getAttribute('src')) ?? '';
        assert(/^\/studio\/desert-gold\?.*token=/.test(src), `the frame's src is ${src}`);
        assert((await frame.getAttribute('allow')) === 'autoplay; fullscreen', 'the frame lacks allow="autoplay; fullscreen"');
        assert(((await frame.getAttribute('title')) ?? '').includes('Desert Gold'), 'the frame has no title');
        // The frame's document loads (its content is the studio client's own business).
        await page.waitForFunction(() => {
          const f = /** @type {HTMLIFrameElement | null} */ (document.querySelector('[data-testid="game-frame"]'));
          return Boolean(f?.contentWindow && f.contentWindow.location.pathname.startsWith('/studio/desert-gold'));
        });
        await page.getByRole('status').filter({ hasText: 'Loading Desert Gold' }).waitFor({ state: 'detached', timeout: 15000 });
        await page.waitForTimeout(1500);
        await shot(page, 'casino-game-en');
        await page.getByRole('button', { name: 'Back' }).click();
        await page.waitForURL((u) => u.pathname === '/slots/lobby');
      },
    },
    {
      name: 'casino: a guest opening a game page directly is blocked; an unknown game shows its error',
      async run({ context, signal }) {
        const page = await context.newPage();
        await page.goto('/slots/studio/desert-gold');
        await page.getByTestId('game-guest').waitFor();
        await expectToast(page, 'To use slots, please log in.');
        assert((await page.getByTestId('game-frame').count()) === 0, 'a guest got a game frame');
        await signedInPlayer(page, signal);
        await page.goto('/slots/studio/no-such-game');
        const error = page.getByTestId('game-error');
        await error.waitFor();
        await error.getByText('This game is not available.').waitFor();
        await shot(page, 'casino-game-error-en');
      },
    },
    {
      name: 'casino: Arabic lobby, pop-up and home strips are right-to-left',
      async run({ context }) {
        await context.addInitScript(() => localStorage.setItem('carthage.lang', 'ar'));
        const page = await context.newPage();
        const errors = collectErrors(page);
        await page.goto('/slots/lobby');
        await page.waitForFunction(() => document.documentElement.dir === 'rtl');
        await page.getByRole('heading', { name: 'ماكينات السلوت', level: 1 }).waitFor();
        const row = studioRow(page);
        await row.getByTestId('game-tile').first().waitFor();
        // The row runs right to left: the first tile is right of the second.
        const [a, b] = await Promise.all([0, 1].map((i) => row.getByTestId('game-tile').nth(i).boundingBox()));
        assert(a && b && a.x > b.x, 'tiles are not laid out right to left');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(overflow <= 0, `the Arabic lobby overflows by ${overflow}px`);
        await page.waitForTimeout(600);
        await shot(page, 'casino-lobby-ar');
        await row.getByTestId('game-tile').first().click();
        const dialog = page.getByTestId('game-popup');
        await dialog.getByRole('button', { name: 'العب' }).waitFor();
        await page.waitForTimeout(500);
        await shot(page, 'casino-popup-ar');
        await page.keyboard.press('Escape');
        await page.goto('/slots/main?sP=studio');
        await page.getByTestId('game-grid').getByTestId('game-tile').first().waitFor();
        await page.waitForTimeout(500);
        await shot(page, 'casino-main-ar');
        await page.goto('/home');
        await page.getByTestId('home-casino').waitFor();
        await studioRow(page).scrollIntoViewIfNeeded();
        await studioRow(page).getByTestId('game-tile').first().waitFor();
        await page.waitForTimeout(500);
        await shot(page, 'casino-home-ar');
        assertNoPageErrors(errors);
      },
    },
  ];
}
