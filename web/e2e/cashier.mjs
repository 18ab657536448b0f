// @ts-check
/**
 * The cashier network as a player and a cashier see it: a cashier withdrawal requested on
 * /profile/withdrawal (code shown, history), cancelled (the amount comes back), requested
 * again, then paid at the cashier desk (/desk) by the seeded demo cashier with the player's
 * code — in English and in Arabic (right to left), with screenshots at 390 and 320 px.
 */

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  /**
   * @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t
   * @param {'en' | 'ar'} lang
   */
  async function flow({ context, signal, note }, lang) {
    const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
    if (lang === 'ar') await page.evaluate(() => localStorage.setItem('carthage.lang', 'ar'));
    await page.goto('/profile/withdrawal');
    const form = page.getByTestId('withdrawal-form');
    await form.waitFor();
    if (lang === 'ar') await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    // The seeded demo cashier is in the list.
    const select = page.getByTestId('cashier-select');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="cashier-select"] option').length > 1);
    const label = await select.locator('option').nth(1).textContent();
    h.assert(label?.startsWith('Demo cashier'), `first cashier option is ${label}`);
    await select.selectOption({ index: 1 });

    // Request 25, read the code, cancel it.
    await page.getByTestId('withdrawal-amount').fill('25');
    await page.getByTestId('withdrawal-submit').click();
    await h.expectToast(page, lang === 'ar' ? 'تم إرسال طلب السحب بنجاح' : 'Withdrawal request sent successfully');
    const code1 = (await page.getByTestId('withdrawal-code').textContent())?.replace(/\s/g, '') ?? '';
    h.assert(/^\d{8}$/.test(code1), `code shown: ${code1}`);
    const first = page.getByTestId('withdrawal-item').first();
    await first.and(page.locator('[data-status="CREATED"]')).waitFor();
    h.assert((await first.getByTestId('withdrawal-item-code').textContent())?.replace(/\s/g, '') === code1, 'history shows the code');
    await h.shot(page, `withdrawal-${lang}`);
    await first.getByTestId('withdrawal-cancel').click();
    await page.getByTestId('withdrawal-cancel-confirm').click();
    await page.getByTestId('withdrawal-item').first().and(page.locator('[data-status="CANCELED"]')).waitFor();
    const rejected = await page.getByTestId('withdrawal-item').first().getByTestId('withdrawal-status').textContent();
    h.assert(rejected === (lang === 'ar' ? 'مرفوض' : 'Rejected'), `cancelled shows ${rejected}`);
    const afterCancel = await page.evaluate(async () => (await (await fetch('/api/user/balance')).json()).result.balance);
    h.assert(afterCancel === 500, `balance after the cancel: ${afterCancel}`);

    // Request 40 and keep its code for the desk.
    await page.getByTestId('withdrawal-amount').fill('40');
    await page.getByTestId('withdrawal-submit').click();
    await page.getByTestId('withdrawal-item').first().and(page.locator('[data-status="CREATED"]')).waitFor();
    const code2 = (await page.getByTestId('withdrawal-code').textContent())?.replace(/\s/g, '') ?? '';
    h.assert(/^\d{8}$/.test(code2) && code2 !== code1, `second code: ${code2}`);
    await page.getByTestId('withdrawal-history').scrollIntoViewIfNeeded();
    await h.shot(page, `withdrawal-history-${lang}`);
    if (lang === 'en') {
      // French is the longest: the page at 320 px.
      await page.evaluate(() => localStorage.setItem('carthage.lang', 'fr'));
      await page.setViewportSize({ width: 320, height: 700 });
      await page.goto('/profile/withdrawal');
      await page.getByTestId('withdrawal-item').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      h.assert(overflow <= 0, `the French page at 320 px overflows by ${overflow}px`);
      await h.shot(page, 'withdrawal-fr-320');
      await page.getByTestId('withdrawal-history').scrollIntoViewIfNeeded();
      await h.shot(page, 'withdrawal-history-fr-320');
      await page.setViewportSize({ width: 390, height: 844 });
    }

    // The desk: the demo cashier signs in and pays the second request by its code.
    await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
    await page.goto('/desk');
    // Still signed in as the player: the desk refuses that account and offers to sign out.
    const refused = page.getByTestId('desk-refused');
    await refused.waitFor();
    await refused.getByRole('button').click();
    const signin = page.getByTestId('desk-signin');
    await signin.waitFor();
    h.assert((await page.locator('html').getAttribute('dir')) === (lang === 'ar' ? 'rtl' : 'ltr'), 'desk direction');
    await h.shot(page, `desk-signin-${lang}`);
    await signin.locator('input[name="login"]').fill('cashier@carthage.local');
    await signin.locator('input[name="password"]').fill('Cashier123');
    await signin.locator('button[type="submit"]').click();
    await page.getByTestId('desk-me').waitFor();
    const floatBefore = await page.evaluate(async () => (await (await fetch('/api/desk/me')).json()).result.float);
    await page.getByTestId('desk-tab-payout').click();
    // A wrong code first: refused with the catalogue's message.
    await page.getByTestId('desk-code').fill('0000 0000');
    await page.getByTestId('desk-payout-submit').click();
    await page.getByTestId('desk-error').waitFor();
    await page.getByTestId('desk-code').fill(`${code2.slice(0, 4)} ${code2.slice(4)}`);
    await page.getByTestId('desk-payout-submit').click();
    const paid = page.getByTestId('desk-paid');
    await paid.waitFor();
    h.assert((await paid.textContent())?.includes('40.000'), `paid card: ${await paid.textContent()}`);
    const floatAfter = await page.evaluate(async () => (await (await fetch('/api/desk/me')).json()).result.float);
    h.assert(Math.round((floatAfter - floatBefore) * 1000) === 40_000, `float moved by ${floatAfter - floatBefore}`);
    await h.shot(page, `desk-payout-${lang}`);
    // A cash deposit to the same player, found by phone (8 local digits).
    await page.getByTestId('desk-tab-deposit').click();
    await page.getByTestId('desk-find').fill(phone.slice(3));
    await page.getByTestId('desk-find').press('Enter');
    await page.getByTestId('desk-player').waitFor();
    await page.getByTestId('desk-deposit-amount').fill('15.5');
    await page.getByTestId('desk-deposit-submit').click();
    await page.getByTestId('desk-ok').waitFor();
    const floatDeposit = await page.evaluate(async () => (await (await fetch('/api/desk/me')).json()).result.float);
    h.assert(Math.round((floatAfter - floatDeposit) * 1000) === 15_500, `the deposit took ${floatAfter - floatDeposit} from the float`);
    await h.shot(page, `desk-deposit-${lang}`);
    await page.getByTestId('desk-tab-report').click();
    await page.getByTestId('desk-report').waitFor();
    await h.shot(page, `desk-report-${lang}`);
    if (lang === 'en') {
      await page.evaluate(() => localStorage.setItem('carthage.lang', 'fr'));
      await page.setViewportSize({ width: 320, height: 700 });
      await page.goto('/desk');
      await page.getByTestId('desk-me').waitFor();
      await page.getByTestId('desk-tab-deposit').click();
      await h.shot(page, 'desk-fr-320');
      // Every tab fits 320 px: no element wider than the screen.
      for (const tab of ['deposit', 'payout', 'report']) {
        await page.getByTestId(`desk-tab-${tab}`).click();
        await page.waitForTimeout(200);
        const over = await page.evaluate(() =>
          [...document.querySelectorAll('main *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).length,
        );
        h.assert(over === 0, `the French desk's ${tab} tab at 320 px has ${over} element(s) past the screen edge`);
      }
      await h.shot(page, 'desk-report-fr-320');
      await page.setViewportSize({ width: 390, height: 844 });
    }
    await page.evaluate(() => localStorage.setItem('carthage.lang', 'en'));
    note(`${lang}: request 25 cancelled (balance back to 500), request 40 paid at the desk with code ${code2}; float +40`);
    // Expected: the desk's who-am-I call refused for the player's session (403) and before the
    // cashier signs in (401) — the browser logs those responses.
    const expected = /status of (401|403) .*\/api\/desk\/me$/;
    h.assertNoPageErrors(errors.filter((e) => !expected.test(e)));
  }

  /** @param {{ context: import('playwright-core').BrowserContext, note: (l: string) => void }} t */
  async function agentFlow({ context, note }) {
    const page = await context.newPage();
    const errors = h.collectErrors(page);
    await page.goto('/desk');
    const signin = page.getByTestId('desk-signin');
    await signin.waitFor();
    await signin.locator('input[name="login"]').fill('agent@carthage.local');
    await signin.locator('input[name="password"]').fill('Agent1234');
    await signin.locator('button[type="submit"]').click();
    await page.getByTestId('desk-me').waitFor();
    await page.getByTestId('desk-tab-network').click();
    const list = page.getByTestId('desk-cashiers');
    await list.getByText('Demo cashier', { exact: false }).first().waitFor();
    const before = await page.evaluate(async () => (await (await fetch('/api/desk/cashiers')).json()).result[0].float);
    await page.getByTestId('desk-float-cashier').selectOption({ index: 1 });
    await page.getByTestId('desk-float-amount').fill('100');
    await page.getByTestId('desk-float-submit').click();
    await page.getByTestId('desk-ok').waitFor();
    const after = await page.evaluate(async () => (await (await fetch('/api/desk/cashiers')).json()).result[0].float);
    h.assert(Math.round((after - before) * 1000) === 100_000, `cashier float moved by ${after - before}`);
    await h.shot(page, 'desk-network-en');
    note(`super agent moved 100 TND to the demo cashier (${before} → ${after})`);
    h.assertNoPageErrors(errors.filter((e) => !/status of 401 .*\/api\/desk\/me$/.test(e)));
  }

  /**
   * The player keeps /profile/withdrawal and the pay history open while the desk pays: both
   * show the request completed without a reload (issue 18 item 11).
   * @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t
   */
  async function paidWhileOpen({ context, signal, note }) {
    const { page, errors } = await h.newPlayerPage(context, signal);
    await page.goto('/profile/withdrawal');
    await page.getByTestId('withdrawal-amount').fill('30');
    await page.getByTestId('withdrawal-submit').click();
    const code = (await page.getByTestId('withdrawal-code').textContent())?.replace(/\s/g, '') ?? '';
    h.assert(/^\d{8}$/.test(code), `code shown: ${code}`);
    const item = page.getByTestId('withdrawal-item').first();
    await item.and(page.locator('[data-status="CREATED"]')).waitFor();
    await page.evaluate(() => {
      /** @type {any} */ (window).__noReload = true;
    });
    // The desk, in its own browser (its own session), pays the code.
    const browser = context.browser();
    h.assert(browser !== null, 'no browser');
    const desk = await /** @type {import('playwright-core').Browser} */ (browser).newContext({ baseURL: `${h.BASE}/` });
    try {
      const login = await desk.request.post('/api/user/login', { data: { login: 'cashier@carthage.local', password: 'Cashier123' }, headers: { Origin: h.BASE } });
      h.assert((await login.json()).status === 0, 'the desk signs in');
      const paid = await desk.request.post('/api/desk/payout', { data: { code }, headers: { Origin: h.BASE } });
      const env = await paid.json();
      h.assert(env.status === 0 && env.result.status === 'PAID', `payout: ${JSON.stringify(env)}`);
    } finally {
      await desk.close();
    }
    const started = Date.now();
    await item.and(page.locator('[data-status="PAID"]')).waitFor({ timeout: 15_000 });
    const seconds = (Date.now() - started) / 1000;
    h.assert(await page.evaluate(() => /** @type {any} */ (window).__noReload === true), 'the page reloaded');
    await h.shot(page, 'withdrawal-paid-live-en');
    // The pay history shows it completed too.
    await page.goto('/profile/history');
    await page.getByTestId('history-tab-payments').click();
    await page.getByTestId('pay-history').getByTestId('pay-status').filter({ hasText: 'Completed' }).first().waitFor();
    await h.shot(page, 'pay-history-cashier-paid-en');
    note(`the desk paid code ${code}; the open page showed it completed ${seconds.toFixed(1)} s later, without a reload`);
    h.assertNoPageErrors(errors);
  }

  return [
    { name: 'cashier: a request the desk pays shows completed on the open page without a reload', run: (/** @type {any} */ t) => paidWhileOpen(t) },
    { name: 'cashier: the super agent sees its cashiers and moves float at the desk', run: (/** @type {any} */ t) => agentFlow(t) },
    { name: 'cashier: withdrawal with cancel, then the desk pays by code (English)', run: (/** @type {any} */ t) => flow(t, 'en') },
    { name: 'cashier: withdrawal with cancel, then the desk pays by code (Arabic)', run: (/** @type {any} */ t) => flow(t, 'ar') },
  ];
}
