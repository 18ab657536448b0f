// @ts-check
/**
 * Money in and out as a new player does it (issue 11): sign up, deposit 50 TND through the
 * sandbox's card page inside the payment frame and see the balance change without a reload,
 * in English and in Arabic (the Arabic run goes through the /home top-up block, which sends a
 * web sign-up — paykassma-flagged, spec §3 — to the Paykassma deposit, whose emulated page is
 * framed the same way); a Paykassma withdrawal to a phone; and every payment screen at 320 and
 * 390 px in French and Arabic with no horizontal overflow.
 */

const CARD_OK = '4242 4242 4242 4242';

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  /** The real balance in minor units (TND: 3 decimals), from the API. @param {import('playwright-core').Page} page */
  const balanceMinor = async (page) =>
    page.evaluate(async () => {
      const r = await fetch('/api/user/balance');
      const env = await r.json();
      return Math.round(Number(env.result.balance) * 1000);
    });
  /** @param {number} minor */
  const major = (minor) => `${Math.floor(minor / 1000)}.${String(minor % 1000).padStart(3, '0')}`;

  /**
   * Pays with the test card on the page inside the payment frame, then waits for the app's
   * result and checks the header balance moved by `minor` with no reload.
   * @param {import('playwright-core').Page} page
   * @param {number} before
   * @param {number} minor
   * @param {string} prefix screenshot name prefix
   */
  async function payInFrame(page, before, minor, prefix) {
    await page.evaluate(() => {
      /** @type {any} */ (window).__noReload = true;
    });
    const frameEl = page.getByTestId('payment-frame');
    await frameEl.waitFor();
    const frame = page.frameLocator('[data-testid="payment-frame"]');
    await frame.locator('input[name="card"]').waitFor();
    await h.shot(page, `${prefix}-frame`);
    await frame.locator('input[name="card"]').fill(CARD_OK);
    await frame.locator('input[name="exp"]').fill('12/34').catch(() => {});
    await frame.locator('input[name="cvc"]').fill('123').catch(() => {});
    await frame.locator('button[name="action"][value="card"]').click();
    await page.getByTestId('frame-succeeded').waitFor({ timeout: 30_000 });
    const expected = major(before + minor);
    await page.getByTestId('header-balance').filter({ hasText: expected }).waitFor({ timeout: 20_000 });
    await page.getByTestId('frame-balance').filter({ hasText: expected }).waitFor();
    h.assert(await page.evaluate(() => /** @type {any} */ (window).__noReload === true), 'the page reloaded');
    h.assert((await balanceMinor(page)) === before + minor, 'the server balance is not the shown one');
    await h.shot(page, `${prefix}-success`);
    return expected;
  }

  return [
    {
      name: 'payments: sign up, deposit 50 TND through the sandbox page inside the payment frame, balance updates without reload (English)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
        const before = await balanceMinor(page);
        // Profile → Balance → Deposit: the operator's card provider (the sandbox).
        await page.getByTestId('header-account').click();
        await page.getByRole('link', { name: 'Balance', exact: true }).click();
        await page.getByRole('link', { name: 'Deposit', exact: true }).click();
        await page.waitForURL(/\/profile\/top-up$/);
        await page.getByRole('button', { name: '50.000 TND' }).click();
        await h.shot(page, 'payments-top-up-en');
        await page.getByTestId('top-up-submit').click();
        await page.waitForURL(/\/payment-frame$/);
        const shown = await payInFrame(page, before, 50_000, 'payments-deposit-en');
        note(`balance ${major(before)} → ${shown} TND, shown without a reload`);
        // The history shows the deposit, completed.
        await page.getByRole('link', { name: 'Operations history' }).click();
        await page.getByTestId('operations').waitFor();
        await page.getByRole('tab', { name: 'Deposits and withdrawals' }).click();
        await page.getByTestId('pay-history').getByTestId('pay-status').filter({ hasText: 'Completed' }).first().waitFor();
        await h.shot(page, 'payments-history-en');
        h.assertNoPageErrors(errors);
      },
    },
    {
      name: 'payments: a declined card shows the refusal and leaves the balance; a 3-D Secure card is confirmed inside the frame',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
        const before = await balanceMinor(page);
        await page.goto('/profile/top-up');
        await page.getByTestId('amount-input').fill('20');
        await page.getByTestId('top-up-submit').click();
        await page.waitForURL(/\/payment-frame$/);
        const frame = page.frameLocator('[data-testid="payment-frame"]');
        await frame.locator('input[name="card"]').fill('4000 0000 0000 0002');
        await frame.locator('button[name="action"][value="card"]').click();
        await page.getByTestId('frame-failed').waitFor({ timeout: 30_000 });
        await page.getByText('Payment not completed').waitFor();
        h.assert((await balanceMinor(page)) === before, 'a declined card moved the balance');
        await h.shot(page, 'payments-declined-en');
        // "Try again" goes back to the amount; a card that asks for the bank's confirmation
        // (3-D Secure) is confirmed on the second page, still inside the frame.
        await page.getByRole('link', { name: 'Try again' }).click();
        await page.waitForURL(/\/profile\/top-up$/);
        await page.getByTestId('amount-input').fill('20');
        await page.getByTestId('top-up-submit').click();
        await page.waitForURL(/\/payment-frame$/);
        await frame.locator('input[name="card"]').fill('4000 0000 0000 3220');
        await frame.locator('button[name="action"][value="card"]').click();
        await frame.locator('button[name="action"][value="confirm"]').click();
        await page.getByTestId('frame-succeeded').waitFor({ timeout: 30_000 });
        await page.getByTestId('header-balance').filter({ hasText: major(before + 20_000) }).waitFor({ timeout: 20_000 });
        note('declined card: refusal shown, balance unchanged; 3-D Secure card confirmed in the frame: +20 TND');
        h.assertNoPageErrors(errors);
      },
    },
    {
      name: 'payments: the /home top-up block, Paykassma deposit of 50 TND inside the payment frame, in Arabic',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
        await page.evaluate(() => localStorage.setItem('carthage.lang', 'ar'));
        await page.reload();
        await page.waitForFunction(() => document.documentElement.dir === 'rtl');
        const before = await balanceMinor(page);
        // A web sign-up is paykassma-flagged: the header shows 'Online deposit', /home goes straight there.
        await page.getByTestId('online-deposit').waitFor();
        await page.getByTestId('withdraw-banner').waitFor();
        await h.shot(page, 'payments-home-ar');
        await page.getByTestId('home-top-up-button').click();
        await page.waitForURL(/\/profile\/paykassma\/deposit$/);
        await page.getByTestId('amount-preset').nth(2).waitFor();
        // Presets of eTopUp (10–5000): 10, 20, 50, …
        await page.getByTestId('amount-input').fill('50');
        await h.shot(page, 'payments-paykassma-deposit-ar');
        await page.getByTestId('paykassma-deposit-submit').click();
        await page.waitForURL(/\/payment-frame$/);
        const shown = await payInFrame(page, before, 50_000, 'payments-deposit-ar');
        note(`Arabic: balance ${major(before)} → ${shown} TND through the Paykassma page, without a reload`);
        h.assertNoPageErrors(errors);
      },
    },
    {
      name: 'payments: a Telegram Mini App user deposits 10 USDT at the recorded rate through the frame',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        // The Mini App: Telegram's script gives the user (the app reads initDataUnsafe.user.id).
        await context.addInitScript(() => {
          /** @type {any} */ (window).Telegram = { WebApp: { initDataUnsafe: { user: { id: 777000111 } }, expand() {} } };
        });
        const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
        const before = await balanceMinor(page);
        // A Telegram user has no withdrawal path: no banner; the profile offers the USDT deposit.
        await page.getByTestId('home-top-up').waitFor();
        h.assert((await page.getByTestId('withdraw-banner').count()) === 0, 'a Telegram user sees the withdraw banner');
        await page.getByTestId('header-account').click();
        await page.getByRole('link', { name: 'Deposit in USDT' }).click();
        await page.waitForURL(/\/profile\/top-up-tg$/);
        await page.getByTestId('amount-input').fill('10');
        const replyP = page.waitForResponse((r) => r.url().endsWith('/api/payment/telegram/deposit'));
        await page.getByTestId('tg-submit').click();
        const reply = (await (await replyP).json()).result;
        h.assert(reply && typeof reply.rate === 'string', `telegram deposit reply ${JSON.stringify(reply)}`);
        await page.getByTestId('tg-quote').waitFor();
        const creditMinor = Math.round(Number(reply.credit_amount) * 1000);
        await page.getByTestId('tg-credit').filter({ hasText: major(creditMinor) }).waitFor();
        await page.getByTestId('tg-rate').filter({ hasText: reply.rate.replace(/\.?0+$/, '') }).waitFor();
        await h.shot(page, 'payments-tg-quote-en');
        await page.getByTestId('tg-pay').click();
        await page.waitForURL(/\/payment-frame$/);
        const frame = page.frameLocator('[data-testid="payment-frame"]');
        await frame.locator('button[name="action"][value="paid"]').click();
        await page.getByTestId('frame-succeeded').waitFor({ timeout: 30_000 });
        await page.getByTestId('header-balance').filter({ hasText: major(before + creditMinor) }).waitFor({ timeout: 20_000 });
        h.assert((await balanceMinor(page)) === before + creditMinor, 'the credit is not the recorded one');
        await h.shot(page, 'payments-tg-success-en');
        note(`10 USDT at ${reply.rate} → ${major(creditMinor)} TND credited`);
        h.assertNoPageErrors(errors);
      },
    },
    {
      name: 'payments: a Paykassma withdrawal to a phone holds the funds at once',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
        const before = await balanceMinor(page);
        await page.getByTestId('header-account').click();
        // A website sign-up is offered both withdrawals (issue 18 item 15): to a phone here.
        await page.getByRole('link', { name: 'Withdraw to phone', exact: true }).click();
        await page.waitForURL(/\/profile\/paykassma\/withdrawal$/);
        // The registered phone is filled in.
        await page.waitForFunction((want) => /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="phone_number"]'))?.value === want, phone.replace(/^216/, ''));
        await page.getByTestId('amount-input').fill('25');
        await h.shot(page, 'payments-paykassma-withdrawal-en');
        await page.getByTestId('paykassma-withdrawal-submit').click();
        await page.waitForURL(/\/payment-frame$/);
        await page.locator('[data-testid="frame-withdrawalPending"], [data-testid="frame-withdrawalSucceeded"]').first().waitFor({ timeout: 20_000 });
        const expected = major(before - 25_000);
        await page.getByTestId('header-balance').filter({ hasText: expected }).waitFor({ timeout: 20_000 });
        h.assert((await balanceMinor(page)) === before - 25_000, 'the server did not hold 25 TND');
        await h.expectToast(page, /Withdrawal \(25\.000 TND\) successfully initiated/);
        await h.shot(page, 'payments-withdrawal-en');
        note(`withdrawal of 25 TND to ${phone}: balance ${major(before)} → ${expected}`);
        h.assertNoPageErrors(errors);
      },
    },
    ...(/** @type {const} */ (['fr', 'ar'])).map((lang) => ({
      name: `payments: every payment screen at 320 and 390 px in ${lang === 'fr' ? 'French' : 'Arabic'}, without horizontal overflow`,
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
        const screens = [
          ['/profile/top-up', 'top-up-form'],
          ['/profile/paykassma/deposit', 'paykassma-deposit-form'],
          ['/profile/paykassma/withdrawal', 'paykassma-withdrawal-form'],
          ['/profile/top-up-tg', 'tg-missing'],
          ['/payment-frame', 'frame-nothing'],
          ['/profile', 'profile-payments'],
          ['/profile/history', 'history-tab-payments'],
          ['/home', 'home-top-up'],
        ];
        let count = 0;
        {
          await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
          for (const width of [320, 390]) {
            await page.setViewportSize({ width, height: 844 });
            for (const [path, testId] of screens) {
              await page.goto(path);
              await page.getByTestId(testId).first().waitFor();
              await page.waitForFunction((l) => document.documentElement.lang === l, lang);
              const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
              h.assert(overflow <= 0, `${path} in ${lang} at ${width} px overflows by ${overflow} px`);
              // Nothing sticks out of its card either.
              const spill = await page.evaluate((id) => {
                const box = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
                if (!box) return 'no box';
                const out = [...document.querySelectorAll(`[data-testid="${id}"] *`)].find((el) => {
                  const r = el.getBoundingClientRect();
                  return r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1);
                });
                return out ? `${out.tagName}.${out.className} ${out.textContent?.slice(0, 30)}` : '';
              }, testId);
              h.assert(spill === '', `${path} in ${lang} at ${width} px: ${spill} sticks out of its card`);
              if (testId === 'history-tab-payments') {
                await page.getByTestId(testId).click();
                await page.locator('[data-testid="pay-history"], [data-testid="pay-history-empty"]').first().waitFor();
              }
              await h.shot(page, `payments-${path.replace(/\//g, '-').replace(/^-/, '')}-${lang}-${width}`);
              count += 1;
            }
            // The frame with the hosted page, then its result (cancelled on the page).
            await page.goto('/profile/top-up');
            await page.getByTestId('amount-input').fill('20');
            await page.getByTestId('top-up-submit').click();
            await page.getByTestId('payment-frame').waitFor();
            const frame = page.frameLocator('[data-testid="payment-frame"]');
            await frame.locator('button[name="action"][value="cancel"]').waitFor();
            for (const [state, action] of /** @type {const} */ ([['frame', null], ['cancelled', 'cancel']])) {
              if (action) {
                await frame.locator(`button[name="action"][value="${action}"]`).click();
                await page.getByTestId('frame-failed').waitFor({ timeout: 30_000 });
              }
              const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
              h.assert(overflow <= 0, `payment ${state} in ${lang} at ${width} px overflows by ${overflow} px`);
              await h.shot(page, `payments-frame-${state}-${lang}-${width}`);
              count += 1;
            }
          }
        }
        note(`${count} screens, no horizontal overflow`);
        h.assertNoPageErrors(errors);
      },
    })),
    {
      name: 'payments: the demo player of the README deposits online (issue 18 item 9)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, note }) {
        const page = await context.newPage();
        const errors = h.collectErrors(page);
        await h.openHome(page);
        await h.signIn(page, 'player@carthage.local', 'Player123');
        const me = await page.evaluate(async () => (await (await fetch('/api/user/check')).json()).result);
        h.assert(me.canDepositOnline === true, `the demo player may not deposit online: ${JSON.stringify(me)}`);
        const before = await balanceMinor(page);
        await page.goto('/profile');
        await page.getByTestId('profile-payments').getByRole('link').first().click();
        await page.getByTestId('amount-input').fill('10');
        await h.shot(page, 'payments-demo-player-deposit-en');
        await page.locator('[data-testid="top-up-submit"], [data-testid="paykassma-deposit-submit"]').first().click();
        await page.waitForURL(/\/payment-frame$/);
        await payInFrame(page, before, 10_000, 'payments-demo-player');
        note(`player@carthage.local deposited 10 TND online: ${major(before)} → ${major(before + 10_000)}`);
        h.assertNoPageErrors(errors);
      },
    },
    ...(/** @type {const} */ (['en', 'fr', 'ar'])).flatMap((lang) => [390, 320].map((width) => ({
      name: `payments: every payment state at ${width} px in ${lang} — limits, frame, 3-D Secure, refusal with the amount to wager, history (issue 18)`,
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors, phone } = await h.newPlayerPage(context, signal);
        await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
        // A daily deposit limit, so the form says what it still allows.
        await page.evaluate(async () => {
          const r = await fetch('/api/user/responsible-gambling/deposit-limits', {
            method: 'PUT',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ day: 300 }),
          });
          if ((await r.json()).status !== 0) throw new Error('deposit limit not set');
        });
        /** The app's number format for this language (formatMoney). @param {number} minor */
        const money = (minor) =>
          `${new Intl.NumberFormat(`${lang}-u-nu-latn`, { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(minor / 1000)} TND`;
        const fits = async (/** @type {string} */ what) => {
          const out = await page.evaluate(() => {
            const w = document.documentElement.clientWidth;
            const over = [...document.querySelectorAll('main *')].filter((e) => {
              const r = e.getBoundingClientRect();
              return r.width > 0 && (r.right > w + 0.5 || r.left < -0.5);
            });
            return { doc: document.documentElement.scrollWidth - w, over: over.slice(0, 3).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`) };
          });
          h.assert(out.doc <= 0 && out.over.length === 0, `${what}: wider than the screen by ${out.doc}px; ${out.over.join(', ')}`);
        };
        const frame = page.frameLocator('[data-testid="payment-frame"]');
        let deposited = 0;
        const states = [];
        {
          await page.setViewportSize({ width, height: 844 });
          const tag = `${lang}-${width}`;
          // The form, with what the daily limit still allows.
          await page.goto('/profile/top-up');
          const allowance = page.getByTestId('deposit-allowance');
          await allowance.waitFor();
          h.assert((await allowance.innerText()).includes(money(300_000 - deposited)), `allowance: ${await allowance.innerText()}`);
          await fits(`top-up ${tag}`);
          await h.shot(page, `payux-top-up-${tag}`);
          states.push('form');

          // In progress: the card form inside the frame, the status line under it wraps.
          await page.getByTestId('amount-input').fill('12');
          await page.getByTestId('top-up-submit').click();
          await frame.locator('input[name="card"]').waitFor();
          const amountText = (await frame.locator('.amount bdi').innerText()).trim();
          h.assert(amountText === money(12_000), `the payment page shows ${JSON.stringify(amountText)}, the app ${money(12_000)}`);
          await fits(`payment in progress ${tag}`);
          const status = await page.getByTestId('frame-status').boundingBox();
          h.assert(status !== null && status.x >= 0 && status.x + status.width <= width + 0.5, `status line ${JSON.stringify(status)} on ${width}px`);
          // Expiry and CVC side by side, aligned (Arabic labels wrap differently).
          const exp = await frame.locator('input[name="exp"]').boundingBox();
          const cvc = await frame.locator('input[name="cvc"]').boundingBox();
          h.assert(exp && cvc && Math.abs(exp.y - cvc.y) <= 1 && Math.abs(exp.height - cvc.height) <= 1, `expiry ${JSON.stringify(exp)} and CVC ${JSON.stringify(cvc)} are not aligned`);
          await h.shot(page, `payux-frame-card-${tag}`);
          states.push('in progress');
          // The 3-D-Secure card: its confirmation step, then success.
          await frame.locator('input[name="card"]').fill('4000 0000 0000 3220');
          await frame.locator('button[name="action"][value="card"]').click();
          await frame.locator('button[name="action"][value="confirm"]').waitFor();
          await fits(`3-D Secure ${tag}`);
          await h.shot(page, `payux-frame-3ds-${tag}`);
          await frame.locator('button[name="action"][value="confirm"]').click();
          await page.getByTestId('frame-succeeded').waitFor({ timeout: 30_000 });
          deposited += 12_000;
          await fits(`succeeded ${tag}`);
          await h.shot(page, `payux-frame-succeeded-${tag}`);
          states.push('3-D Secure', 'succeeded');
          // A declined card: not completed, nothing credited.
          await page.goto('/profile/top-up');
          await page.getByTestId('amount-input').fill('5.5');
          await page.getByTestId('top-up-submit').click();
          await frame.locator('input[name="card"]').fill('4000 0000 0000 0002');
          await frame.locator('button[name="action"][value="card"]').click();
          await page.getByTestId('frame-failed').waitFor({ timeout: 30_000 });
          await fits(`declined ${tag}`);
          await h.shot(page, `payux-frame-declined-${tag}`);
          states.push('declined');

          // The Paykassma page: the same number format, and the 3-D-Secure card asks to confirm.
          await page.goto('/profile/paykassma/deposit');
          await page.getByTestId('deposit-allowance').waitFor();
          await page.getByTestId('amount-input').fill('10');
          await page.getByTestId('paykassma-deposit-submit').click();
          await frame.locator('input[name="card"]').waitFor();
          const pkAmount = (await frame.locator('.amount bdi').innerText()).trim();
          h.assert(pkAmount === money(10_000), `the Paykassma page shows ${JSON.stringify(pkAmount)}, the app ${money(10_000)}`);
          await frame.locator('input[name="card"]').fill('4000 0000 0000 3220');
          await frame.locator('button[name="action"][value="card"]').click();
          await frame.locator('button[name="action"][value="confirm"]').waitFor();
          await h.shot(page, `payux-paykassma-3ds-${tag}`);
          await frame.locator('button[name="action"][value="confirm"]').click();
          await page.getByTestId('frame-succeeded').waitFor({ timeout: 30_000 });
          deposited += 10_000;
          states.push('Paykassma 3-D Secure');

          // A withdrawal to the registered phone, refused until the deposits are wagered: the
          // amount to wager in money, in the frame and back on the form.
          await page.goto('/profile/paykassma/withdrawal');
          const phoneInput = page.locator('input[name="phone_number"]');
          await phoneInput.waitFor();
          await page.waitForFunction((want) => /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="phone_number"]'))?.value === want, phone.slice(3));
          await page.getByTestId('amount-input').fill('20');
          await page.getByTestId('paykassma-withdrawal-submit').click();
          await page.getByTestId('frame-error').waitFor({ timeout: 20_000 });
          const refusal = await page.getByTestId('frame-error-text').innerText();
          h.assert(refusal.includes(money(deposited)), `refusal ${JSON.stringify(refusal)} lacks ${money(deposited)}`);
          h.assert((await page.getByTestId('wager-left').innerText()).includes(money(deposited)), 'the amount to wager is shown');
          await fits(`wagering refusal ${tag}`);
          await h.shot(page, `payux-withdrawal-wager-${tag}`);
          await page.getByTestId('frame-error').getByRole('button').first().click();
          await page.getByTestId('paykassma-withdrawal-form').waitFor();
          await page.getByTestId('wager-left').waitFor();
          await fits(`withdrawal form ${tag}`);
          await h.shot(page, `payux-withdrawal-form-${tag}`);
          states.push('wagering refusal');

          // The history: the declined deposit is no money; both withdrawals are offered.
          await page.goto('/profile/history');
          await page.getByTestId('history-tab-payments').click();
          const voided = page.getByTestId('pay-history').locator('[data-tone="void"]').first();
          await voided.waitFor();
          h.assert((await voided.locator('s').count()) === 1, 'the declined deposit is struck through');
          await fits(`pay history ${tag}`);
          await h.shot(page, `payux-pay-history-${tag}`);
          await page.getByTestId('history-tab-all').click();
          await page.getByTestId('operations').waitFor();
          await h.shot(page, `payux-operations-${tag}`);
          await page.goto('/profile');
          await page.getByTestId('profile-payments').waitFor();
          const links = page.getByTestId('profile-payments').getByRole('link');
          h.assert((await links.count()) === 3, `profile payment links: ${await links.count()}`);
          h.assert((await links.nth(2).getAttribute('href')) === '/profile/withdrawal', 'the cashier withdrawal is linked');
          await fits(`profile ${tag}`);
          await h.shot(page, `payux-profile-${tag}`);
          states.push('history', 'profile');
        }
        await page.evaluate(() => localStorage.setItem('carthage.lang', 'en'));
        note(`${lang} at ${width} px: ${states.length} states fit the screen; amounts read ${money(12_000)} in the app and on both payment pages`);
        h.assertNoPageErrors(errors);
      },
    }))),
  ];
}
