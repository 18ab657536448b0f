// @ts-check
/**
 * Browser tests of the promotion screens (issue 19): the jackpot widget on /home (the three
 * pools, to /profile/jackpots), the coupon machine for a guest (rules, sign-in) and for a player
 * (today's spins after three studio spins, a draw announced and drawn by the admin, "Verify" ✓),
 * the weekly cashback page (the server's tiers), and the profile's cashback page (a cashback of
 * 12.5 credited by the admin, moved to real money through the confirmation modal, then the
 * button disabled with its reason). Every screen at 390 and 320 px in en, fr and ar, no overflow.
 * Loaded by scripts/e2e.mjs, which passes its helpers.
 */
import { readFileSync } from 'node:fs';

/** @param {string} lang @param {string} ns */
const texts = (lang, ns) => JSON.parse(readFileSync(new URL(`../src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
/** @param {string | null} s */
const plain = (s) => (s ?? '').replace(/[\u2066-\u2069\u200e\u200f]/g, '').replace(/[\u202f\u00a0]/g, ' ');
const PASSWORD = 'Coupons42';

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
  /** @param {import('playwright-core').APIRequestContext} request @param {string} path @param {unknown} [body] @param {Record<string, string>} [headers] */
  const call = async (request, path, body, headers = {}) => {
    const res =
      body === undefined
        ? await request.get(urlOf(path), { headers: { Origin: BASE, ...headers } })
        : await request.post(urlOf(path), { data: body, headers: { Origin: BASE, ...headers } });
    const env = await res.json();
    assert(env.status === 0, `${path}: ${JSON.stringify(env).slice(0, 200)}`);
    return env.result;
  };

  /** @param {'en' | 'fr' | 'ar'} lang */
  const scenario = (lang) => ({
    name: `promotion screens (${lang}): jackpot widget on /home, coupon machine with a verified draw, weekly cashback, cashback transfer modal`,
    /** @param {{ context: import('playwright-core').BrowserContext, browser: import('playwright-core').Browser, signal: AbortSignal, note: (l: string) => void }} t */
    async run({ context, signal, note }) {
      const P = texts(lang, 'promotions');
      const A = texts(lang, 'account');
      const page = await context.newPage();
      const errors = h.collectErrors(page);
      await page.addInitScript((l) => localStorage.setItem('carthage.lang', l), lang);
      await page.setViewportSize({ width: 390, height: 844 });

      // A guest: the widget on /home, the coupon machine's rules and call to sign in.
      await page.goto('/home', { waitUntil: 'domcontentloaded' });
      if (lang === 'ar') await page.waitForFunction(() => document.documentElement.dir === 'rtl');
      const widget = page.getByTestId('home-jackpots');
      await widget.waitFor();
      assert((await widget.getAttribute('href')) === '/profile/jackpots', 'the widget does not link to /profile/jackpots');
      assert((await page.getByTestId('home-jackpot-mega').count()) === 1 && (await page.getByTestId('home-jackpot-small').count()) === 1, 'not the three pools');
      note(`${lang}: widget ${plain(await widget.textContent())}`);
      await shots(page, `promo-home-${lang}`);
      await page.goto('/promotions/coupon-machine', { waitUntil: 'domcontentloaded' });
      await page.getByTestId('coupon-guest').waitFor();
      await shots(page, `promo-coupons-guest-${lang}`);

      // The admin announces and runs a draw; the player spins three times.
      const phone = await h.phoneAccount(signal, PASSWORD);
      const admin = context.request;
      const asAdmin = { Authorization: `Bearer ${await h.adminToken()}` };
      const drawId = `e2e-${lang}-${Date.now()}`;
      await call(admin, '/api/admin/promotions/coupon-draws', { id: drawId, winners: 12 }, asAdmin);
      const drawn = await call(admin, `/api/admin/promotions/coupon-draws/${drawId}/draw`, {}, asAdmin);
      note(`${lang}: draw ${drawId}: ${drawn.coupons?.length ?? 0} coupons, winners ${JSON.stringify(drawn.winners)}`);
      await call(context.request, '/api/user/login', { login: phone, password: PASSWORD });
      const me = await call(context.request, '/api/user/check');
      await call(context.request, '/api/admin/wallet/adjust', { userId: me.id, kind: 'real', amount: '50', reason: 'e2e', idempotencyKey: `e2e-real-${drawId}` }, asAdmin);
      await call(context.request, '/api/admin/wallet/adjust', { userId: me.id, kind: 'cashback', amount: '12.5', reason: 'e2e cashback', idempotencyKey: `e2e-cb-${drawId}` }, asAdmin);
      const session = await call(context.request, '/api/casino/session', { provider: 'studio', gameId: 'neon-fruits', lang, platform: 'mobile' });
      for (let i = 0; i < 3; i += 1) await call(context.request, '/api/studio/slots/spin', { bet: 1000 }, { 'X-Game-Session': session.sessionToken });

      // The player's coupon machine: 3 of 500 spins, the draw verified in the browser.
      await page.goto('/promotions/coupon-machine', { waitUntil: 'domcontentloaded' });
      await page.getByTestId('coupon-today').waitFor();
      const spins = plain(await page.getByTestId('coupon-spins').textContent());
      assert(spins === P.coupons.spins.replace('{{done}}', '3').replace('{{limit}}', '500'), `${lang}: spins ${spins}`);
      await shots(page, `promo-coupons-${lang}`);
      const draw = page.getByTestId('coupon-draw').filter({ hasText: drawId });
      await draw.getByTestId('coupon-verify').click();
      const verdict = draw.getByTestId('coupon-verdict');
      await verdict.waitFor();
      assert(plain(await verdict.textContent()) === P.coupons.verified, `${lang}: verdict ${await verdict.textContent()}`);
      await draw.scrollIntoViewIfNeeded();
      await shots(page, `promo-coupons-draw-${lang}`);

      // The weekly cashback page: the server's tiers, this week's amount.
      await page.goto('/promotions/cashback-percent', { waitUntil: 'domcontentloaded' });
      await page.getByTestId('cashback-tiers').waitFor();
      assert((await page.getByTestId('cashback-tiers').locator('tbody tr').count()) === 4, `${lang}: not four tiers`);
      await page.getByTestId('weekly-accrued').filter({ hasText: /\d/ }).waitFor();
      await shots(page, `promo-cashback-percent-${lang}`);

      // The profile's cashback: the modal, the transfer, then disabled with its reason.
      await page.goto('/profile/cashback', { waitUntil: 'domcontentloaded' });
      const amount = page.getByTestId('cashback-amount');
      await amount.filter({ hasText: /12[.,]500/ }).waitFor();
      await page.getByTestId('cashback-row').first().waitFor();
      await shots(page, `promo-cashback-${lang}`);
      await page.getByTestId('cashback-transfer').click();
      const dialog = page.getByRole('dialog', { name: A.cashback.modalTitle });
      await dialog.waitFor();
      await shots(page, `promo-cashback-modal-${lang}`);
      await dialog.getByTestId('cashback-confirm').click();
      await page.getByTestId('cashback-why').waitFor();
      assert(await page.getByTestId('cashback-transfer').isDisabled(), `${lang}: the transfer is not disabled at 0`);
      // The history is fetched again after the transfer: wait for its row, not only for the balance.
      await page.getByTestId('cashback-row').nth(1).waitFor({ timeout: 10_000 }).catch(() => {});
      assert((await page.getByTestId('cashback-row').count()) >= 2, `${lang}: the transfer is not in the history`);
      await shots(page, `promo-cashback-after-${lang}`);
      h.assertNoPageErrors(errors);
    },
  });
  return [scenario('en'), scenario('fr'), scenario('ar')];
}
