// @ts-check
/**
 * Browser tests of the jackpots (issue 19): the admin forces a drop of `small` (demo mode: the pool
 * is topped up to one unit below its committed drop point), a player spins a studio slot and wins
 * it; the app shows the win modal (amount counting up after 2 s), closing it calls
 * jackpot_is_shown; the history lists the drop and "Verify" recomputes its drop point in the
 * browser (✓). The pages at 390 and 320 px in en, fr and ar. The revealed seed and drop point are
 * compared with the browser's own computation (the unit test's port of the algorithm).
 * Loaded by scripts/e2e.mjs, which passes its helpers.
 */
import { readFileSync } from 'node:fs';

/** @param {string} lang @param {string} ns */
const texts = (lang, ns) => JSON.parse(readFileSync(new URL(`../src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
/** @param {string | null} s */
const plain = (s) => (s ?? '').replace(/[\u2066-\u2069]/g, '').replace(/[\u202f\u00a0]/g, ' ');
const PASSWORD = 'Jackpot42';

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  const { assert, urlOf, BASE } = h;
  /** @param {import('playwright-core').Page} page @param {string} name */
  const shots = async (page, name) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await h.shot(page, `${name}-390`);
    await page.setViewportSize({ width: 320, height: 720 });
    await h.shot(page, `${name}-320`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert(overflow <= 0, `${name}: the page overflows 320 px by ${overflow}px`);
    await page.setViewportSize({ width: 390, height: 844 });
  };

  /** @param {import('playwright-core').BrowserContext} context @param {string} path @param {unknown} [body] @param {Record<string, string>} [headers] */
  const call = async (context, path, body, headers = {}) => {
    const res =
      body === undefined
        ? await context.request.get(urlOf(path), { headers: { Origin: BASE, ...headers } })
        : await context.request.post(urlOf(path), { data: body, headers: { Origin: BASE, ...headers } });
    return res.json();
  };
  /** @param {import('playwright-core').BrowserContext} context @param {string} login @param {string} password */
  const login = async (context, login, password) => {
    const env = await call(context, '/api/user/login', { login, password });
    assert(env.status === 0, `login ${login}: ${JSON.stringify(env).slice(0, 200)}`);
  };

  /**
   * The admin forces a drop of `small`, then the player (signed in on `context` afterwards) spins
   * until the pool drops to them: another test's stake may take a forced drop, so it forces again.
   * @param {import('playwright-core').BrowserContext} context @param {string} phone @param {string} lang @param {(l: string) => void} note
   */
  const winSmall = async (context, phone, lang, note) => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const forced = await call(context, '/api/admin/jackpots/small/force-drop', {}, { Authorization: `Bearer ${await h.adminToken()}` });
      assert(forced.status === 0, `force-drop: ${JSON.stringify(forced).slice(0, 200)}`);
      await login(context, phone, PASSWORD);
      const session = await call(context, '/api/casino/session', { provider: 'studio', gameId: 'neon-fruits', lang, platform: 'mobile' });
      assert(session.status === 0, `casino session: ${JSON.stringify(session).slice(0, 200)}`);
      const spin = await call(context, '/api/studio/slots/spin', { bet: 1000 }, { 'X-Game-Session': session.result.sessionToken });
      assert(spin.status === 0, `spin: ${JSON.stringify(spin).slice(0, 200)}`);
      // The folder job pays the drop within a few hundred ms.
      for (let i = 0; i < 20; i += 1) {
        const data = await call(context, '/api/user/jackpot_data');
        assert(data.status === 0, `jackpot_data: ${JSON.stringify(data).slice(0, 200)}`);
        const win = data.result.wonJackpots.find((/** @type {any} */ w) => w.pool === 'small');
        if (win) return win;
        await new Promise((r) => setTimeout(r, 250));
      }
      note(`${lang}: attempt ${attempt}: the forced drop went to another stake; forcing again`);
    }
    throw new Error('the player never won the forced drop of small');
  };

  /** @param {'en' | 'fr' | 'ar'} lang */
  const scenario = (lang) => ({
    name: `jackpots (${lang}): forced drop of small, a slot spin wins it, the modal counts up and closes, the history verifies it ✓`,
    /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
    async run({ context, signal, note }) {
      const P = texts(lang, 'promotions').jackpots;
      const phone = await h.phoneAccount(signal, PASSWORD);
      const win = await winSmall(context, phone, lang, note);
      note(`${lang}: won ${win.amount} ${win.currency}; cycle ${win.cycle}, seed ${win.serverSeed}, hash ${win.seedHash}, seed amount ${win.seedAmount}, cap ${win.capAmount}, drop point ${win.dropPoint}`);

      const page = await context.newPage();
      const errors = h.collectErrors(page);
      await page.addInitScript((l) => localStorage.setItem('carthage.lang', l), lang);
      await page.setViewportSize({ width: 390, height: 844 });
      const opened = Date.now();
      await page.goto('/home', { waitUntil: 'domcontentloaded' });
      if (lang === 'ar') await page.waitForFunction(() => document.documentElement.dir === 'rtl');

      // The modal: the pool's name, the amount at zero, then counting up to the exact amount.
      const modal = page.getByTestId('jackpot-win');
      await modal.waitFor();
      const amount = page.getByTestId('jackpot-win-amount');
      const total = plain(await amount.getAttribute('data-total'));
      assert(/^0[.,]000 TND$/.test(plain(await amount.textContent())), `${lang}: the amount did not start at zero: ${await amount.textContent()}`);
      assert(plain(await modal.textContent()).includes(P.wonText.replace('{{name}}', P.pools.small)), `${lang}: modal text ${await modal.textContent()}`);
      await page.waitForFunction((t) => (document.querySelector('[data-testid="jackpot-win-amount"]')?.textContent ?? '').replace(/[\u2066-\u2069]/g, '').replace(/[\u202f\u00a0]/g, ' ') === t, total);
      const counted = Date.now() - opened;
      assert(counted >= 2000, `${lang}: the count-up ended ${counted} ms after load, before its 2 s delay`);
      note(`${lang}: modal shows ${total} (counted up within ${counted} ms of the load)`);
      await h.shot(page, `jackpots-modal-${lang}-390`);
      const closed = page.waitForResponse((r) => r.url().endsWith('/api/user/jackpot_is_shown') && r.request().method() === 'POST');
      await page.getByTestId('jackpot-win-close').click();
      const reply = await (await closed).json();
      assert(reply.status === 0 && !reply.result.wonJackpots.some((/** @type {any} */ w) => w.id === win.id), `${lang}: jackpot_is_shown: ${JSON.stringify(reply).slice(0, 200)}`);
      await modal.waitFor({ state: 'detached' });

      // The pools, then the history: the drop listed, verified in the browser.
      await page.goto('/profile/jackpots', { waitUntil: 'domcontentloaded' });
      await page.getByTestId('jackpot-pool').first().waitFor();
      assert((await page.getByTestId('jackpot-pool').count()) === 3, `${lang}: not three pools`);
      await shots(page, `jackpots-pools-${lang}`);
      await page.goto('/profile/jackpots-history', { waitUntil: 'domcontentloaded' });
      const drop = page.locator(`[data-testid="jackpot-drop"][data-id="${win.id}"]`);
      await drop.waitFor();
      const text = plain(await drop.textContent());
      assert(text.includes(P.pools.small) && text.includes(total), `${lang}: history item ${text}`);
      await drop.getByTestId('jackpot-verify').click();
      const verdict = drop.getByTestId('jackpot-verdict');
      await verdict.waitFor();
      assert((await verdict.getAttribute('data-ok')) === 'true', `${lang}: Verify said ${await verdict.textContent()}`);
      assert(plain(await verdict.textContent()) === P.verified, `${lang}: verdict ${await verdict.textContent()}`);
      await drop.scrollIntoViewIfNeeded();
      await shots(page, `jackpots-history-${lang}`);
      h.assertNoPageErrors(errors);
    },
  });
  return [scenario('en'), scenario('fr'), scenario('ar')];
}
