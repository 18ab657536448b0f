// @ts-check
/**
 * Promotions as a new player sees them (issue 19, docs/PROMOTIONS.md), against the real server in
 * demo mode (codes WELCOME: 50 TND casino bonus, 10× wagering, max bet 5 TND; FREEBET: one 10 TND
 * free bet): sign up with WELCOME (checked inline), see the bonus with its wagering bar, give it
 * up through the confirmation; activate FREEBET in the profile and activate the free bet — in
 * English, French and Arabic, with screenshots at 390 and 320 px.
 */
import { readFileSync } from 'node:fs';

/** @param {string} lang @param {string} ns */
const texts = (lang, ns) => JSON.parse(readFileSync(new URL(`../src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
/** @param {string | null} s */
const plain = (s) => (s ?? '').replace(/[\u2066-\u2069]/g, '').replace(/[\u202f\u00a0]/g, ' ');

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  /** @param {import('playwright-core').Page} page @param {string} name */
  const shots = async (page, name) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await h.shot(page, `${name}-390`);
    await page.setViewportSize({ width: 320, height: 720 });
    await h.shot(page, `${name}-320`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    h.assert(overflow <= 0, `${name}: the page overflows 320 px by ${overflow}px`);
    await page.setViewportSize({ width: 390, height: 844 });
  };

  /** @param {'en' | 'fr' | 'ar'} lang */
  const scenario = (lang) => ({
    name: `promotions (${lang}): sign up with WELCOME, the bonus and its wagering bar, give it up; FREEBET in the profile, activate the free bet`,
    /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
    async run({ context, signal, note }) {
      const P = texts(lang, 'promotions');
      const account = texts(lang, 'account');
      const page = await context.newPage();
      const errors = h.collectErrors(page);
      await page.addInitScript((l) => localStorage.setItem('carthage.lang', l), lang);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/home', { waitUntil: 'domcontentloaded' });
      if (lang === 'ar') await page.waitForFunction(() => document.documentElement.dir === 'rtl');

      // Sign-up by phone with the code WELCOME: valid inline (state 2) before the account exists.
      await page.getByTestId('header-register').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('auth-registration').waitFor();
      const phone = h.freshPhone();
      await dialog.locator('input[name="phone"]').fill(phone.slice(3));
      const sent = Date.now();
      await dialog.getByRole('button', { name: account.sendCode }).click();
      const code = await h.outbox(phone, signal, 'code', sent);
      await dialog.locator('input[name="code"]').fill(code);
      await dialog.locator('input[name="password"]').fill('Player42');
      await dialog.locator('input[name="repeat"]').fill('Player42');
      await dialog.locator('input[name="promocode"]').fill('welcome');
      await dialog.getByTestId('promo-valid').waitFor();
      h.assert(plain(await dialog.getByTestId('promo-valid').textContent()).includes(account.promocodeValid), 'the code shows valid');
      await dialog.getByRole('checkbox').check();
      await dialog.locator('input[name="promocode"]').scrollIntoViewIfNeeded();
      await h.shot(page, `promotions-signup-${lang}-390`);
      await dialog.locator('form button[type="submit"]').click();
      await page.getByTestId('header-id').waitFor();

      // The bonus, from the profile menu: 50 TND, a bar at 0 %, 500 TND to wager, max bet 5 TND.
      await page.goto('/profile');
      await page.getByRole('link', { name: P.menu.bonuses }).click();
      await page.waitForURL(/\/profile\/bonuses$/);
      const card = page.getByTestId('bonus').first();
      await card.waitFor();
      h.assert((await card.getAttribute('data-status')) === 'active', 'the WELCOME bonus is being wagered');
      const bar = card.getByRole('progressbar');
      h.assert((await bar.getAttribute('aria-valuenow')) === '0', `bar at ${await bar.getAttribute('aria-valuenow')} %`);
      const dec = lang === 'fr' ? ',' : '.';
      const left = plain(await card.getByTestId('wagering-left').textContent());
      h.assert(left.includes(`500${dec}000 TND`), `left to wager: ${left}`);
      const maxBet = plain(await card.getByTestId('bonus-max-bet').textContent());
      h.assert(maxBet === `5${dec}000 TND`, `max bet: ${maxBet}`);
      const bonusMoney = plain(await page.getByTestId('bonus-balance').textContent());
      const realMoney = plain(await page.getByTestId('real-balance').textContent());
      h.assert(bonusMoney === `50${dec}000 TND`, `bonus money: ${bonusMoney}`);
      note(`${lang}: bonus ${bonusMoney} apart from real ${realMoney}; ${left}; max bet ${maxBet}`);
      await shots(page, `promotions-bonus-${lang}`);

      // Give it up: the confirmation says what is lost (the bonus) and what is kept (real money).
      await card.getByTestId('give-up').click();
      const confirm = page.getByRole('dialog', { name: P.bonuses.giveUpTitle });
      await confirm.waitFor();
      const terms = plain(await confirm.getByTestId('give-up-terms').textContent());
      h.assert(terms.includes(`50${dec}000 TND`) && terms.includes(P.bonuses.giveUpKeep), `terms: ${terms}`);
      await h.shot(page, `promotions-give-up-${lang}-390`);
      await confirm.getByTestId('give-up-confirm').click();
      await page.getByTestId('no-bonus').waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid="bonus"]')?.getAttribute('data-status') === 'given_up');
      await page.waitForFunction((want) => document.querySelector('[data-testid="bonus-balance"]')?.textContent?.includes(want), `0${dec}000 TND`);
      const realAfter = plain(await page.getByTestId('real-balance').textContent());
      h.assert(realAfter === realMoney, `real money kept: ${realMoney} → ${realAfter}`);

      // FREEBET in the profile, then the free bet activated.
      await page.goto('/profile');
      await page.getByRole('link', { name: P.menu.freeBets }).click();
      await page.waitForURL(/\/profile\/free-bets$/);
      await page.getByTestId('no-free-bet').waitFor();
      await page.locator('input[name="promocode"]').fill('FREEBET');
      await page.getByTestId('promo-activate').click();
      await h.expectToast(page, 'FREEBET');
      const bet = page.getByTestId('free-bet').first();
      await bet.waitFor();
      h.assert((await bet.getAttribute('data-status')) === 'inactive', 'the free bet arrives inactive');
      h.assert(plain(await bet.textContent()).includes('2.20'), 'min odds 2.20 shown');
      await page.getByTestId('activate-free-bets').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="free-bet"]')?.getAttribute('data-status') === 'active');
      note(`${lang}: FREEBET → ${plain(await bet.textContent())}`);
      await shots(page, `promotions-free-bets-${lang}`);
      // None left: 506 says so.
      await page.getByTestId('activate-free-bets').click();
      await h.expectToast(page, texts(lang, 'errors')['506']);
      h.assertNoPageErrors(errors);
      await page.close();
    },
  });
  return [scenario('en'), scenario('fr'), scenario('ar')];
}
