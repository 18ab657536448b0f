// @ts-check
/**
 * The operator's console (issue 22 §3, web/src/console, served at /console): the admin signs in
 * through the real sign-in page with the authenticator's code, finds a player this test
 * created, opens the card, bans and unbans with a reason, adds a note, asks for a 1,500 TND
 * credit (above the four-eyes amount: a pending request); finance, in a second browser,
 * approves it on the Adjustments page; the card shows the new balance; the audit trail shows
 * the actions and its chain verifies. English and Arabic (right to left), screenshots at 390 and
 * 320 px; French (the longest) at both widths; the first load's weight.
 */
import { readFileSync } from 'node:fs';

/** The demo staff accounts (crates/server/src/seed.rs; docs/BACKOFFICE.md). */
const STAFF = {
  admin: { login: 'admin@carthage.local', password: 'Admin1234', totp: 'INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB' },
  finance: { login: 'finance@carthage.local', password: 'Finance123', totp: 'INQXE5DIMFTWKRDFNVXUM2LOMFXGGZJB' },
  support: { login: 'support@carthage.local', password: 'Support123', totp: 'INQXE5DIMFTWKRDFNVXVG5LQOBXXE5BB' },
};

/** The console's texts, to check what the page says in each language. @param {string} lang */
const textsOf = (lang) => JSON.parse(readFileSync(new URL(`../src/locales/${lang}/console.json`, import.meta.url), 'utf8'));

/** The first load of the console's sign-in page: JavaScript transferred (compressed, headers included). */
const FIRST_LOAD_BUDGET = 300 * 1024;

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  const { assert } = h;

  /**
   * Uncaught errors and console errors of a page, but the console's own "who is signed in?"
   * answering 401 before the sign-in (the sign-in page shows) and a refused sign-in's 401.
   * @param {import('playwright-core').Page} page
   */
  function collectErrors(page) {
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const url = msg.location().url ?? '';
      // Expected refusals: "who is signed in?" before the sign-in, and a refused sign-in.
      if (/Failed to load resource/.test(msg.text()) && /\/api\/(admin\/me|staff\/login)$/.test(url)) return;
      errors.push(`console.error: ${msg.text()} ${url}`);
    });
    return errors;
  }

  /**
   * Opens /console in `lang` (remembered as the app does) and waits for the sign-in page.
   * @param {import('playwright-core').Page} page @param {string} lang
   */
  async function openConsole(page, lang) {
    await page.goto('/console', { waitUntil: 'domcontentloaded' });
    await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.getByTestId('console-signin').waitFor();
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    const dir = await page.locator('html').getAttribute('dir');
    assert(dir === (lang === 'ar' ? 'rtl' : 'ltr'), `<html dir> is ${dir} in ${lang}`);
  }

  /**
   * Signs `who` in through the sign-in page with the authenticator's code. A code signs in once
   * per 30 s step and per account (other tests sign the same demo staff in): a used step (143)
   * is followed by the next one within the server's skew, then by a wait for a new step.
   * @param {import('playwright-core').Page} page @param {keyof typeof STAFF} who
   */
  async function consoleSignIn(page, who) {
    const account = STAFF[who];
    await page.getByTestId('signin-login').fill(account.login);
    await page.getByTestId('signin-password').fill(account.password);
    for (let round = 0; round < 3; round += 1) {
      const now = Math.floor(Date.now() / 30_000);
      for (const step of [now - 1, now, now + 1]) {
        await page.getByTestId('signin-code').fill(h.totpCode(account.totp, step));
        const [res] = await Promise.all([
          page.waitForResponse((r) => r.url().endsWith('/api/staff/login')),
          page.getByTestId('signin-submit').click(),
        ]);
        const env = await res.json();
        if (env.status === 0) {
          await page.getByTestId('console-me').waitFor();
          return;
        }
        assert(env.status === 143, `console sign-in of ${who}: ${JSON.stringify(env).slice(0, 200)}`);
        await page.getByTestId('signin-error').waitFor();
      }
      await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 200);
    }
    throw new Error(`console sign-in of ${who}: no code was taken`);
  }

  /**
   * No horizontal scrolling of the page at this width.
   * @param {import('playwright-core').Page} page @param {string} what
   */
  async function noOverflow(page, what) {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 0, `${what} overflows by ${overflow} px`);
  }

  /**
   * Screenshots at 390 and 320 px (the page checked for overflow at each), back to 390.
   * @param {import('playwright-core').Page} page @param {string} name
   */
  async function shots(page, name) {
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      await page.waitForTimeout(150);
      await noOverflow(page, `${name} at ${width} px`);
      await h.shot(page, `console-${name}-${width}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }

  /**
   * A staff API call on the page's session (the console cookie), for checking what the page says.
   * @param {import('playwright-core').Page} page @param {string} path
   */
  async function staffGet(page, path) {
    const res = await page.request.get(h.urlOf(path));
    const env = await res.json();
    assert(env.status === 0, `${path}: ${JSON.stringify(env).slice(0, 200)}`);
    return env.result;
  }

  /**
   * Major units as the console writes them in English and Arabic: "2,000.000 TND".
   * @param {number} major
   */
  const tnd = (major) => {
    const minor = BigInt(Math.round(major * 1000));
    const int = (minor / 1000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return `${int}.${(minor % 1000n).toString().padStart(3, '0')} TND`;
  };

  /** @param {'en' | 'ar'} lang */
  const flow = (lang) => ({
    name: `console (${lang}): admin signs in with the code, bans and unbans a new player, adds a note, asks a 1,500 TND credit; finance approves it; audit chain verified`,
    /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
    async run({ context, signal, note }) {
      const tx = textsOf(lang);
      const phone = await h.phoneAccount(signal, 'Player42');
      const page = await context.newPage();
      const errors = collectErrors(page);

      // The sign-in page, its refusal in the page's language (a wrong password, on an account
      // no other test signs in with), then the admin with the authenticator's code.
      await openConsole(page, lang);
      const code = page.getByTestId('signin-code');
      assert((await code.getAttribute('inputmode')) === 'numeric' && (await code.getAttribute('autocomplete')) === 'one-time-code', 'the code field is not a one-time-code field');
      await shots(page, `signin-${lang}`);
      await page.getByTestId('signin-login').fill(STAFF.support.login);
      await page.getByTestId('signin-password').fill('not-the-password');
      await page.getByTestId('signin-submit').click();
      const refusal = await page.getByTestId('signin-error').textContent();
      assert(refusal === tx.signIn.error['4'], `a wrong password says ${JSON.stringify(refusal)}`);
      await consoleSignIn(page, 'admin');
      assert((await page.getByTestId('console-role').textContent()) === tx.role.admin, 'the top bar names the role');
      // The sections (each named first, then how many items wait in it, if any).
      const nav = await page.getByTestId('console-nav').getByRole('link').allTextContents();
      const names = [tx.nav.players, tx.nav.withdrawals, tx.nav.adjustments, tx.nav.audit, tx.nav.reports];
      assert(nav.length === 5 && nav.every((text, i) => text.replace(/^\d+\+?/, '').startsWith(names[i])), `admin's sections: ${nav}`);

      // Players: the search lives in the URL; the new player is found by phone.
      await page.getByTestId('players-search').fill(phone);
      await page.getByTestId('players-search-submit').click();
      await page.waitForURL((u) => u.searchParams.get('q') === phone);
      const link = page.getByTestId('player-link').first();
      await link.waitFor();
      await shots(page, `players-${lang}`);
      await link.click();
      await page.waitForURL(/\/console\/players\/\d+$/);
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      await page.getByTestId('card-name').waitFor();
      const before = await staffGet(page, `/api/admin/players/${id}`);
      assert(before.player.phone === phone, `the card is of ${before.player.phone}, not ${phone}`);
      const real0 = before.balances.find((/** @type {any} */ b) => b.kind === 'real')?.amount ?? 0;
      assert((await page.getByTestId('balance-real').textContent()) === tnd(real0), `the card shows ${await page.getByTestId('balance-real').textContent()} for ${real0}`);
      await shots(page, `card-${lang}`);

      // Ban with a reason (the dialog refuses without one), then lift it.
      await page.getByTestId('ban-open').click();
      const dialog = page.getByTestId('ban-dialog');
      assert(await dialog.getByTestId('dialog-confirm').isDisabled(), 'the ban needs no reason');
      await dialog.getByTestId('reason-input').fill(`e2e ${lang}: chargeback`);
      await h.shot(page, `console-ban-dialog-${lang}-390`);
      await dialog.getByTestId('dialog-confirm').click();
      await page.getByTestId('card-status').filter({ hasText: tx.player.banned }).waitFor();
      assert((await page.getByTestId('ban-done').textContent()) === tx.ban.banned, 'no word that the ban is done');
      await page.getByTestId('unban-open').click();
      await page.getByTestId('ban-dialog').getByTestId('reason-input').fill(`e2e ${lang}: resolved`);
      await page.getByTestId('ban-dialog').getByTestId('dialog-confirm').click();
      await page.getByTestId('card-status').filter({ hasText: tx.player.active }).waitFor();

      // A note.
      const noteText = `e2e ${lang}: called the player`;
      await page.getByTestId('note-input').fill(noteText);
      await page.getByTestId('note-submit').click();
      await page.getByTestId('note-saved').waitFor();
      await page.getByTestId('note').filter({ hasText: noteText }).waitFor();

      // 1,500 TND: above the four-eyes amount, a request waits; nothing moves.
      const adjust = page.getByTestId('adjust-card');
      await adjust.scrollIntoViewIfNeeded();
      await page.getByTestId('adjust-amount').fill('1500');
      await page.getByTestId('adjust-reason').fill(`e2e ${lang}: prize paid by hand`);
      await page.getByTestId('adjust-submit').click();
      const confirm = page.getByTestId('adjust-dialog');
      await confirm.waitFor();
      assert((await confirm.textContent())?.includes('1,500.000 TND'), 'the confirmation does not show the amount');
      await confirm.getByTestId('adjust-confirm').click();
      await page.getByTestId('adjust-pending').waitFor();
      await h.shot(page, `console-adjust-pending-${lang}-390`);
      const pending = await staffGet(page, '/api/admin/wallet/adjust-requests?status=pending');
      const request = pending.find((/** @type {any} */ r) => r.userId === id);
      assert(request && request.amount === 1500 && request.kind === 'real', `no pending request for ${id}: ${JSON.stringify(pending).slice(0, 300)}`);
      const still = await staffGet(page, `/api/admin/players/${id}`);
      assert(still.balances.find((/** @type {any} */ b) => b.kind === 'real')?.amount === real0, 'the request moved money');

      // The admin may not approve their own request: the button says why.
      await page.getByTestId('nav-adjustments').click();
      const own = page.getByTestId(`approve-request-${request.id}`);
      await own.waitFor();
      assert(await own.isDisabled(), 'the requester can approve their own request');
      assert((await page.getByTestId(`request-${request.id}`).textContent())?.includes(tx.requests.ownRequest), 'the disabled approval does not say why');

      // Finance, in another browser, approves it.
      const browser = context.browser();
      assert(browser, 'no browser');
      const other = await browser.newContext({ baseURL: h.urlOf('/'), viewport: { width: 390, height: 844 }, locale: 'en-US', serviceWorkers: 'block' });
      try {
        const fin = await other.newPage();
        const finErrors = collectErrors(fin);
        await openConsole(fin, lang);
        await consoleSignIn(fin, 'finance');
        assert((await fin.getByTestId('console-role').textContent()) === tx.role.finance, 'finance is not named finance');
        await fin.getByTestId('nav-adjustments').click();
        await fin.waitForURL(/\/console\/adjustments/);
        const approve = fin.getByTestId(`approve-request-${request.id}`);
        await approve.waitFor();
        await shots(fin, `adjustments-${lang}`);
        await approve.click();
        const said = await fin.getByTestId('requests-note').textContent();
        assert(said === tx.requests.approved.replace('{{id}}', String(request.id)), `finance reads ${JSON.stringify(said)}`);
        await fin.getByTestId(`request-${request.id}`).waitFor({ state: 'detached' });
        await fin.getByTestId('tab-approved').click();
        await fin.getByTestId(`request-${request.id}`).waitFor();
        assert(new URL(fin.url()).searchParams.get('status') === 'approved', 'the status tab is not in the URL');
        h.assertNoPageErrors(finErrors);
      } finally {
        await other.close();
      }

      // The card shows the credit; the request is decided.
      await page.goto(`/console/players/${id}`);
      await page.getByTestId('balance-real').filter({ hasText: tnd(real0 + 1500) }).waitFor();
      const after = await staffGet(page, `/api/admin/players/${id}`);
      assert(after.balances.find((/** @type {any} */ b) => b.kind === 'real')?.amount === real0 + 1500, 'the balance did not grow by 1,500');

      // Withdrawals: the queue page (its screenshots).
      await page.getByTestId('nav-withdrawals').click();
      await page.waitForURL(/\/console\/withdrawals/);
      await page.getByTestId('tab-review').waitFor();
      await page.locator('[data-testid="withdrawals-empty"], [data-testid="bulk-bar"]').first().waitFor();
      await shots(page, `withdrawals-${lang}`);

      // Audit trail: this player's rows (the filter in the URL) and the chain's check.
      await page.getByTestId('nav-audit').click();
      await page.waitForURL(/\/console\/audit/);
      const filters = page.getByTestId('audit-filters');
      if ((await filters.getAttribute('open')) === null) await filters.locator('summary').click();
      await page.getByTestId('audit-filter-subject').fill(`user:${id}`);
      await page.getByTestId('audit-apply').click();
      await page.waitForURL((u) => u.searchParams.get('subject') === `user:${id}`);
      const rows = page.locator('[data-testid^="audit-row-"]');
      await rows.first().waitFor();
      // Each row's cells: row, who, action, subject, details.
      const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...(/** @type {HTMLTableRowElement} */ (tr)).cells].map((c) => c.textContent?.trim() ?? '')));
      assert(cells.every((c) => c[3] === `user:${id}`), `rows of other subjects under the filter: ${JSON.stringify(cells.map((c) => c[3]))}`);
      const actions = cells.map((c) => c[2]);
      for (const action of ['player.ban', 'player.unban', 'player.note', 'wallet.adjust.request', 'wallet.adjust']) {
        assert(actions.includes(action), `the trail lacks ${action} for user:${id}: ${actions.join(', ')}`);
      }
      await page.getByTestId('audit-verify').click();
      const check = page.getByTestId('audit-check');
      await check.waitFor();
      assert((await check.getAttribute('data-intact')) === 'true', `the chain does not verify: ${await check.textContent()}`);
      await shots(page, `audit-${lang}`);

      // Signing out returns to the sign-in page.
      await page.getByTestId('console-signout').click();
      await page.getByTestId('console-signin').waitFor();
      note(`${lang}: player ${id} banned and unbanned, note added, request ${request.id} of 1,500 TND approved by finance, chain intact`);
      h.assertNoPageErrors(errors);
    },
  });

  return [
    {
      name: `console: first load of /console (sign-in page) under ${FIRST_LOAD_BUDGET / 1024} KiB of compressed JavaScript`,
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, note }) {
        const page = await context.newPage();
        /** @type {Promise<{ url: string, bytes: number, encoding: string }>[]} */
        const scripts = [];
        page.on('requestfinished', (request) => {
          if (!/\.m?js(\?|$)/.test(new URL(request.url()).pathname)) return;
          scripts.push(
            (async () => {
              const sizes = await request.sizes();
              const headers = (await (await request.response())?.allHeaders()) ?? {};
              return { url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize, encoding: headers['content-encoding'] ?? 'identity' };
            })(),
          );
        });
        await page.goto('/console', { waitUntil: 'networkidle' });
        await page.getByTestId('console-signin').waitFor();
        const files = await Promise.all(scripts);
        const total = files.reduce((s, f) => s + f.bytes, 0);
        for (const f of files) note(`${(f.bytes / 1024).toFixed(1).padStart(6)} KiB ${f.encoding.padEnd(8)} ${new URL(f.url).pathname}`);
        note(`JavaScript for /console: ${(total / 1024).toFixed(1)} KiB in ${files.length} files (budget ${FIRST_LOAD_BUDGET / 1024} KiB)`);
        assert(files.length > 0 && files.every((f) => f.encoding === 'br'), 'the console scripts are not sent brotli-compressed');
        assert(total <= FIRST_LOAD_BUDGET, `the console's first load is ${(total / 1024).toFixed(1)} KiB`);
      },
    },
    flow('en'),
    flow('ar'),
    {
      name: 'console (fr): the main pages in French, the longest language, at 390 and 320 px',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, note }) {
        const tx = textsOf('fr');
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openConsole(page, 'fr');
        await shots(page, 'signin-fr');
        await consoleSignIn(page, 'admin');
        await page.goto('/console/players?q=player@carthage.local');
        await page.getByTestId('player-link').first().waitFor();
        await shots(page, 'players-fr');
        await page.getByTestId('player-link').first().click();
        await page.getByTestId('card-name').waitFor();
        assert((await page.getByRole('heading', { level: 2, name: tx.card.section.overview }).count()) === 1, 'the card is not in French');
        await shots(page, 'card-fr');
        await page.getByTestId('adjust-card').scrollIntoViewIfNeeded();
        await shots(page, 'card-actions-fr');
        for (const section of ['withdrawals', 'adjustments', 'audit']) {
          await page.getByTestId(`nav-${section}`).click();
          await page.waitForURL(new RegExp(`/console/${section}`));
          await page.getByRole('heading', { level: 1, name: section === 'adjustments' ? tx.requests.title : tx[section].title }).waitFor();
          await page.waitForLoadState('networkidle');
          await shots(page, `${section}-fr`);
        }
        note('fr: sign-in, players, card, withdrawals, adjustments and audit at 390 and 320 px');
        h.assertNoPageErrors(errors);
      },
    },
  ];
}
