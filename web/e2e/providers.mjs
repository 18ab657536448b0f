// @ts-check
/**
 * Browser tests of the game providers (crates/providers, docs/PROVIDERS.md): in demo mode every
 * provider is its local fake; a player opens a fake provider's game, spins, and the stake and
 * the result travel through that provider's own wallet protocol to our server. The balance the
 * game shows, the app's balance and the server's agree to the millime.
 * Loaded by scripts/e2e.mjs, which passes its helpers.
 */

/** @typedef {import('playwright-core').Page} Page */

/** Minor units (millimes) from a text like "Balance: 499.500 TND". @param {string} text */
function millimes(text) {
  const m = /(\d+)\.(\d{3})/.exec(text.replace(/\s/g, ''));
  if (!m) throw new Error(`no TND amount in ${JSON.stringify(text)}`);
  return Number(m[1]) * 1000 + Number(m[2]);
}

/**
 * @param {any} h the helpers of scripts/e2e.mjs
 * @returns {{ name: string, run: (t: { context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (line: string) => void }) => Promise<void> }[]}
 */
export function tests(h) {
  const { assert, assertNoPageErrors, shot, newPlayerPage } = h;

  /** The server's real balance of the signed-in player, in millimes. @param {Page} page */
  async function serverBalance(page) {
    const reply = await page.evaluate(async () => (await fetch('/api/user/balance', { headers: { Accept: 'application/json' } })).json());
    return millimes(String(reply.result.balance.toFixed ? reply.result.balance.toFixed(3) : reply.result.balance));
  }

  /**
   * One spin of 1.000 TND in the fake provider's game page framed by `frameSelector`; returns
   * [balance before, balance after, win] as the game shows them.
   * @param {Page} page @param {string} frameSelector
   */
  async function spinOnce(page, frameSelector) {
    const frame = page.frameLocator(frameSelector);
    await frame.getByText('Demo provider').waitFor();
    const before = millimes((await frame.locator('.balance').textContent()) ?? '');
    const game = page.frames().find((f) => f.url().includes('/demo-providers/'));
    assert(game, 'no game frame');
    await frame.locator('select[name="stake"]').selectOption('1000');
    await Promise.all([game.waitForNavigation(), frame.getByRole('button', { name: 'Spin' }).click()]);
    const message = (await frame.getByRole('status').textContent()) ?? '';
    const after = millimes((await frame.locator('.balance').textContent()) ?? '');
    const win = /You won/.test(message) ? millimes(message) : 0;
    assert(after === before - 1000 + win, `${message}; the balance went ${before} → ${after}`);
    return [before, after, win];
  }

  return [
    {
      name: 'providers: the live casino\'s TV tiles open a TV game with a TV token; a draw stakes and pays through the universal wallet',
      async run({ context, signal, note }) {
        const { page, errors } = await newPlayerPage(context, signal);
        await page.goto('/casinolive/main');
        const tiles = page.getByTestId('tv-tiles');
        await tiles.waitFor();
        for (const id of ['purple', 'red', 'black']) await page.getByTestId(`tv-tile-${id}`).waitFor();
        await shot(page, 'tv-tiles-en');
        const tokenReply = page.waitForResponse((r) => r.url().includes('/api/tvbet/token'));
        await page.getByTestId('tv-tile-purple').click();
        await page.waitForURL(/\/casinolive\/tvbet\//);
        assert((await tokenReply).ok(), 'the TV token request failed');
        const [start, , win] = await spinOnce(page, '[data-testid="game-frame"]');
        const server = await serverBalance(page);
        assert(server === start - 1000 + win, `the server holds ${server}, expected ${start} − 1000 + ${win}`);
        note(`a TV draw of 1.000 TND through /api/providers/tvbet: ${start} → ${server} millimes`);
        await shot(page, 'tv-game-en');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'providers: /slots/inbet/:gameId mounts the game with the loader script from /inbet/media; a spin moves money once',
      async run({ context, signal, note }) {
        const { page, errors } = await newPlayerPage(context, signal);
        const script = page.waitForResponse((r) => r.url().endsWith('/inbet/media/loader.js'));
        await page.goto('/slots/inbet/inbet-sahara');
        assert((await script).status() === 200, 'the loader script did not load');
        await page.locator('[data-testid="game-loader"] iframe').waitFor();
        const [start, , win] = await spinOnce(page, '[data-testid="game-loader"] iframe');
        const server = await serverBalance(page);
        assert(server === start - 1000 + win, `the server holds ${server}, expected ${start} − 1000 + ${win}`);
        note(`an InBet spin of 1.000 TND mounted by /inbet/media/loader.js: ${start} → ${server} millimes`);
        await shot(page, 'inbet-game-en');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'providers: a demo Pragmatic game stakes and pays through Pragmatic\'s wallet protocol; game, app and server agree',
      async run({ context, signal, note }) {
        const { page, errors } = await newPlayerPage(context, signal);
        await page.goto('/slots/pragmatic/vs20demo');
        const frame = page.frameLocator('[data-testid="game-frame"]');
        await frame.getByText('Demo provider').waitFor();
        const start = millimes((await frame.locator('.balance').textContent()) ?? '');
        assert(start === (await serverBalance(page)), 'the game shows another balance than the server');
        let balance = start;
        let staked = 0;
        let won = 0;
        for (let spin = 1; spin <= 3; spin += 1) {
          const game = page.frames().find((f) => f.url().includes('/demo-providers/'));
          assert(game, 'no game frame');
          await frame.locator('select[name="stake"]').selectOption('1000');
          // The spin is a form post: wait for the frame's new page, not the old one's status.
          await Promise.all([game.waitForNavigation(), frame.getByRole('button', { name: 'Spin' }).click()]);
          const status = frame.getByRole('status');
          await status.waitFor();
          const message = (await status.textContent()) ?? '';
          const shown = millimes((await frame.locator('.balance').textContent()) ?? '');
          const win = /You won/.test(message) ? millimes(message) : 0;
          staked += 1000;
          won += win;
          assert(shown === balance - 1000 + win, `spin ${spin}: ${message}; the balance went ${balance} → ${shown}`);
          balance = shown;
        }
        const server = await serverBalance(page);
        assert(server === start - staked + won, `the server holds ${server}, expected ${start} − ${staked} + ${won}`);
        note(`3 spins of 1.000 TND through Pragmatic's protocol: ${start} → ${server} millimes (won ${won})`);
        await shot(page, 'provider-pragmatic-en');
        assertNoPageErrors(errors);
      },
    },
  ];
}
