// @ts-check
/**
 * Responsible gambling as a player sees it (docs/PAYMENTS.md "Responsible gambling"): set a
 * deposit limit, raise it (shown pending for 24 h), take a cool-off through the armed
 * confirmation, be signed out, and be refused at sign-in with the break's end — in English
 * and in Arabic (right-to-left), with screenshots at 390 and 320 px (French at 320 too).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** @param {string} lang @param {string} ns */
const texts = (lang, ns) => JSON.parse(readFileSync(new URL(`../src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  /** @param {'en' | 'ar'} lang */
  const scenario = (lang) => ({
    name: `responsible gambling (${lang}): a deposit limit, a pending raise, a cool-off that signs out and refuses sign-in`,
    /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
    async run({ context, signal, note }) {
      const rg = texts(lang, 'rg');
      const account = texts(lang, 'account');
      const common = texts(lang, 'common');
      const errors = texts(lang, 'errors');
      const { page, errors: pageErrors, phone, password } = await h.newPlayerPage(context, signal);
      if (lang !== 'en') {
        await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
      }
      // From the profile menu.
      await page.goto('/profile');
      await page.getByRole('link', { name: rg.menu }).click();
      await page.waitForURL(/\/profile\/responsible-gambling$/);
      if (lang === 'ar') await page.waitForFunction(() => document.documentElement.dir === 'rtl');

      // A day limit of 100: applies at once.
      const day = page.getByLabel(rg.limits.day);
      await day.fill('100');
      await page.getByRole('button', { name: rg.limits.save }).click();
      await h.expectToast(page, rg.limits.saved);
      await page.reload();
      await page.getByLabel(rg.limits.day).waitFor();
      h.assert((await page.getByLabel(rg.limits.day).inputValue()) === '100', 'the day limit is 100 after a reload');
      h.assert((await page.getByTestId('rg-pending-day').count()) === 0, 'a first limit is not pending');
      // A raise to 250: the limit in force stays 100, the raise shows as pending.
      await page.getByLabel(rg.limits.day).fill('250');
      await page.getByRole('button', { name: rg.limits.save }).click();
      await page.getByTestId('rg-pending-day').waitFor();
      h.assert((await page.getByLabel(rg.limits.day).inputValue()) === '100', 'the raise waits: 100 still in force');
      const state = await page.evaluate(async () => (await (await fetch('/api/user/responsible-gambling')).json()).result);
      h.assert(state.deposit_limits.day.amount === 100 && state.deposit_limits.day.pending_amount === 250, `server state ${JSON.stringify(state.deposit_limits.day)}`);
      note(`day limit 100 in force, 250 pending from ${state.deposit_limits.day.pending_from}`);
      await h.shot(page, `rg-${lang}-390`);
      await page.setViewportSize({ width: 320, height: 720 });
      await h.shot(page, `rg-${lang}-320`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      h.assert(overflow <= 0, `the page overflows 320 px by ${overflow}px`);
      if (lang === 'en') {
        // French is the longest: the same screen at 320 px.
        await page.evaluate(() => localStorage.setItem('carthage.lang', 'fr'));
        await page.reload();
        await page.getByLabel(texts('fr', 'rg').limits.day).waitFor();
        await h.shot(page, 'rg-fr-320');
        const frOverflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        h.assert(frOverflow <= 0, `French overflows 320 px by ${frOverflow}px`);
        await page.evaluate(() => localStorage.setItem('carthage.lang', 'en'));
        await page.reload();
        await page.getByLabel(rg.limits.day).waitFor();
      }
      await page.setViewportSize({ width: 390, height: 844 });

      // A cool-off of 7 days: the confirmation's button is armed after a moment.
      await page.getByLabel(rg.break['7d'], { exact: true }).check();
      await page.getByRole('button', { name: rg.break.takeCoolOff }).click();
      const dialog = page.getByRole('dialog', { name: rg.break.confirmTitle });
      await dialog.waitFor();
      const confirm = dialog.getByRole('button', { name: rg.break.confirm });
      h.assert(await confirm.isDisabled(), 'the confirmation is not armed at once');
      await h.shot(page, `rg-confirm-${lang}`);
      await page.waitForFunction(() => !document.querySelector('[data-testid="rg-confirm-break"]')?.hasAttribute('disabled'));
      await confirm.click();
      // Signed out at once, back home.
      await page.getByRole('banner').getByRole('button', { name: common.login }).waitFor();
      h.assert((await page.getByTestId('header-id').count()) === 0, 'still signed in after the cool-off');
      const check = await page.evaluate(async () => (await (await fetch('/api/user/check')).json()).status);
      h.assert(check === 23, `the session still answers: ${check}`);

      // Sign-in is refused with the break's end.
      await page.getByRole('banner').getByRole('button', { name: common.login }).click();
      const auth = page.getByRole('dialog', { name: account.signInTitle });
      await auth.waitFor();
      await auth.getByRole('tab', { name: account.byPhone }).click();
      await auth.getByLabel(account.phone ?? 'Phone number').fill(phone.replace(/^216/, ''));
      await auth.getByLabel(account.password, { exact: true }).fill(password);
      await auth.getByRole('button', { name: common.signIn }).click();
      const prefix = String(errors['122-until']).split('{{')[0].trim();
      await page.getByText(prefix).first().waitFor({ timeout: 10_000 });
      h.assert((await page.getByTestId('header-id').count()) === 0, 'signed in during a cool-off');
      // The refusal as the player sees it (h.shot would close the notice first).
      await page.waitForTimeout(300);
      await page.screenshot({ path: fileURLToPath(new URL(`../screenshots/rg-refused-${lang}.png`, import.meta.url)) });
      note(`cool-off taken, signed out, sign-in refused: "${prefix}…"`);
      h.assertNoPageErrors(pageErrors);
    },
  });
  return [scenario('en'), scenario('ar')];
}
