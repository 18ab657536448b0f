// @ts-check
/**
 * The console's Reports page (web/src/console/pages/ReportsPage.tsx; docs/BACKOFFICE.md
 * "Reports with rollups in the posting transaction"): real activity first — a new player
 * credited by the admin, dice rolls in the studio, a sandbox card deposit, a withdrawal held —
 * then the admin opens /console/reports: the totals are the server's and hold the activity, the
 * GGR chart's canvas is drawn (its line in the GGR colour), pointing at today reads today's
 * figures, the table by provider, and the CSV export of both groupings (the file's header).
 * English and Arabic (right to left) at 390 and 320 px; the English run switches to French (the
 * page's texts load for the new language) for its screenshots.
 */
import { readFileSync } from 'node:fs';

/** The demo admin (crates/server/src/seed.rs; docs/BACKOFFICE.md). */
const ADMIN = { login: 'admin@carthage.local', password: 'Admin1234', totp: 'INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB' };

/** The page's texts and the console's, to check what the page says in each language. @param {string} lang */
const textsOf = (lang) => ({
  reports: JSON.parse(readFileSync(new URL(`../src/locales/${lang}/console-reports.json`, import.meta.url), 'utf8')),
  console: JSON.parse(readFileSync(new URL(`../src/locales/${lang}/console.json`, import.meta.url), 'utf8')),
});

/** Today in the operator's day (Tunis, UTC+1), as the page counts it. */
const operatorToday = () => new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
/** @param {string} date @param {number} n */
const addDays = (date, n) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Major units (the API's exact decimals) as the console writes them in English and Arabic: "1,234.500 TND". @param {number} major */
const tnd = (major) => {
  const [int, frac = ''] = String(Math.abs(major)).split('.');
  return `${major < 0 ? '-' : ''}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac.padEnd(3, '0')} TND`;
};

/** The CSV's header by grouping (crates/server/src/api/reports.rs `csv`). */
const CSV_HEADER = {
  day: 'date,currency,bets,stakes,wins,ggr,bonus_cost,ngr,deposits,withdrawals,active_players',
  provider: 'product,provider,currency,bets,stakes,wins,ggr,bonus_cost,ngr,deposits,withdrawals',
};

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  const { assert, urlOf, BASE } = h;

  /**
   * Uncaught errors and console errors of a page, but "who is signed in?" answering 401 before
   * the console's sign-in and a refused sign-in (a used code).
   * @param {import('playwright-core').Page} page
   */
  function collectErrors(page) {
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() !== 'error') return;
      const url = msg.location().url ?? '';
      if (/Failed to load resource/.test(msg.text()) && /\/api\/(admin\/me|staff\/login)$/.test(url)) return;
      errors.push(`console.error: ${msg.text()} ${url}`);
    });
    return errors;
  }

  /**
   * A JSON call on the context's cookies (the player's session, or the console's); its result.
   * @param {import('playwright-core').APIRequestContext} request @param {string} path @param {unknown} [body]
   */
  async function call(request, path, body) {
    const res =
      body === undefined
        ? await request.get(urlOf(path), { headers: { Origin: BASE } })
        : await request.post(urlOf(path), { data: body, headers: { Origin: BASE } });
    const env = await res.json();
    assert(env.status === 0, `${path}: ${JSON.stringify(env).slice(0, 300)}`);
    return env.result;
  }

  /**
   * The admin signs in to the console in `lang` through the sign-in page. A code signs in once
   * per 30 s step and per account (other tests sign the admin in too): a used step (143) is
   * followed by the next one within the server's skew, then by a wait for a new step.
   * @param {import('playwright-core').Page} page @param {string} lang
   */
  async function signInAdmin(page, lang) {
    await page.goto('/console', { waitUntil: 'domcontentloaded' });
    await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.getByTestId('console-signin').waitFor();
    await page.getByTestId('signin-login').fill(ADMIN.login);
    await page.getByTestId('signin-password').fill(ADMIN.password);
    for (let round = 0; round < 3; round += 1) {
      const now = Math.floor(Date.now() / 30_000);
      for (const step of [now - 1, now, now + 1]) {
        await page.getByTestId('signin-code').fill(h.totpCode(ADMIN.totp, step));
        const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/staff/login')), page.getByTestId('signin-submit').click()]);
        const env = await res.json();
        if (env.status === 0) {
          await page.getByTestId('console-me').waitFor();
          return;
        }
        assert(env.status === 143, `console sign-in: ${JSON.stringify(env).slice(0, 200)}`);
        await page.getByTestId('signin-error').waitFor();
      }
      await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 200);
    }
    throw new Error('console sign-in: no code was taken');
  }

  /**
   * Activity of a new player today (signed in on `player.page`): 400 TND credited by the admin
   * (the console's session on `staff`), ten 5 TND dice rolls, a 50 TND sandbox card deposit, a
   * 20 TND withdrawal held.
   * @param {import('playwright-core').BrowserContext} context
   * @param {{ page: import('playwright-core').Page, errors: string[], phone: string }} player
   * @param {import('playwright-core').APIRequestContext} staff
   */
  async function activity(context, player, staff) {
    const { page, errors, phone } = player;
    const me = await call(page.request, '/api/user/check');
    const credit = await call(staff, '/api/admin/wallet/adjust', {
      userId: me.id,
      kind: 'real',
      amount: '400',
      reason: 'e2e reports: a prize paid by hand',
      idempotencyKey: `e2e-reports-${me.id}`,
    });
    assert(credit.status !== 'pending', `the 400 TND credit waits for approval: ${JSON.stringify(credit)}`);

    const rolls = await page.evaluate(async () => {
      /** @param {string} path @param {any} body @param {Record<string, string>} [headers] */
      const post = async (path, body, headers = {}) => {
        const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
        const env = await r.json();
        if (env.status !== 0) throw new Error(`${path}: ${JSON.stringify(env)}`);
        return env.result;
      };
      const launch = await post('/api/casino/session', { provider: 'studio', gameId: 'dice', lang: 'en', platform: 'mobile' });
      const headers = { 'X-Game-Session': launch.sessionToken };
      for (let i = 0; i < 10; i += 1) await post('/api/studio/dice/roll', { amount: 5000, target: 6000, over: i % 2 === 0 }, headers);
      return 10;
    });

    // The deposit: the sandbox's hosted page, paid with the test card that succeeds.
    const balance = async () => /** @type {number} */ ((await call(page.request, '/api/user/balance')).balance);
    const before = await balance();
    const deposit = await call(page.request, '/api/payment/deposit', { amount: 50, sessionToken: (await call(page.request, '/api/payment/token', {})).token });
    const pay = await context.newPage();
    await pay.goto(deposit.invoice_url);
    await pay.locator('input[name="card"]').fill('4242 4242 4242 4242');
    await pay.locator('input[name="exp"]').fill('12/34').catch(() => {});
    await pay.locator('input[name="cvc"]').fill('123').catch(() => {});
    await pay.locator('button[name="action"][value="card"]').click();
    await pay.locator('body[data-payment-status="succeeded"]').waitFor();
    await pay.close();
    for (let i = 0; i < 100 && (await balance()) < before + 50; i += 1) await page.waitForTimeout(200);
    assert((await balance()) >= before + 50, 'the deposit was not credited');

    const withdrawal = await call(page.request, '/api/payment/withdrawal', {
      amount: 20,
      phone_number: phone,
      sessionToken: (await call(page.request, '/api/payment/token', {})).token,
    });
    h.assertNoPageErrors(errors);
    await page.close();
    return { userId: me.id, rolls, withdrawal: withdrawal.id };
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
   * Screenshots at 390 and 320 px (no overflow at either; the charts follow the width), back to 390.
   * @param {import('playwright-core').Page} page @param {string} name
   */
  async function shots(page, name) {
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      await page.waitForTimeout(200);
      await noOverflow(page, `${name} at ${width} px`);
      // The five sections share the bottom bar without touching or clipping a name.
      const clash = await page.getByTestId('console-nav').getByRole('link').evaluateAll((links) => {
        const boxes = links.map((a) => a.getBoundingClientRect()).sort((x, y) => x.left - y.left);
        const touching = boxes.some((b, i) => i > 0 && b.left < boxes[i - 1].right);
        const clipped = links.some((a) => [...a.querySelectorAll('span')].some((s) => s.scrollWidth > a.clientWidth + 1));
        return touching || clipped ? links.map((a) => `${a.textContent}: ${Math.round(a.getBoundingClientRect().width)}`).join(', ') : '';
      });
      assert(clash === '', `the sections do not fit at ${width} px: ${clash}`);
      const plots = await page.locator('[data-testid$="-plot"] canvas').evaluateAll((cs) => cs.map((c) => Math.round(c.getBoundingClientRect().width)));
      for (const w of plots) assert(w > 150 && w <= width, `a chart is ${w} px wide at ${width} px`);
      await h.shot(page, `console-reports-${name}-${width}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }

  /**
   * Scrolls a part of the page to just under the console's top bar.
   * @param {import('playwright-core').Page} page @param {string | null} testId (null: the top)
   */
  const scrollTo = (page, testId) =>
    page.evaluate((id) => {
      const el = id ? document.querySelector(`[data-testid="${id}"]`) : null;
      const bar = document.querySelector('header')?.getBoundingClientRect().height ?? 0;
      window.scrollTo(0, el ? el.getBoundingClientRect().top + window.scrollY - bar - 8 : 0);
    }, testId);

  /**
   * Pixels of the chart's canvas in a colour (the line's design token), counted in the page.
   * @param {import('playwright-core').Page} page @param {string} testId @param {string} token
   */
  const linePixels = (page, testId, token) =>
    page.evaluate(
      ([id, name]) => {
        const canvas = /** @type {HTMLCanvasElement | null} */ (document.querySelector(`[data-testid="${id}"] canvas`));
        if (!canvas || canvas.width === 0) return -1;
        const probe = document.createElement('span');
        probe.style.color = `var(${name})`;
        document.body.appendChild(probe);
        const rgb = (getComputedStyle(probe).color.match(/\d+/g) ?? []).map(Number);
        probe.remove();
        const data = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d')).getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3] > 200 && Math.abs(data[i] - rgb[0]) < 24 && Math.abs(data[i + 1] - rgb[1]) < 24 && Math.abs(data[i + 2] - rgb[2]) < 24) n += 1;
        }
        return n;
      },
      [testId, token],
    );

  /** @param {'en' | 'ar'} lang */
  const flow = (lang) => ({
    name: `console reports (${lang}): a new player's stakes, deposit and withdrawal show in the admin's totals, the GGR chart is drawn, by provider, CSV export by day and by provider`,
    /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
    async run({ context, signal, note }) {
      let tx = textsOf(lang);
      // The player signs up and in first, in the player app's English (the console's language
      // choice is kept in the same storage).
      const player = await h.newPlayerPage(context, signal);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await signInAdmin(page, lang);
      const made = await activity(context, player, page.request);
      note(`activity of player ${made.userId} done`);

      // The section is in the navigation; the page opens on the last 30 days, by day.
      await page.getByTestId('nav-reports').click();
      await page.waitForURL(/\/console\/reports/);
      await page.getByRole('heading', { level: 1, name: tx.reports.title }).waitFor();
      const report = page.getByTestId('reports-report');
      await report.waitFor();
      assert((await page.locator('html').getAttribute('dir')) === (lang === 'ar' ? 'rtl' : 'ltr'), 'the page direction');
      const today = operatorToday();
      const from = addDays(today, -29);
      assert((await page.getByTestId('reports-range-30d').getAttribute('aria-current')) === 'true', 'the last 30 days are not the default');

      // The totals are the server's for the same filters, and hold this test's activity.
      const api = await call(page.request, `/api/admin/reports?from=${from}&to=${today}&by=day`);
      const totals = api.totals.find((/** @type {any} */ t) => t.currency === 'TND');
      assert(totals && totals.stakes >= 50 && totals.deposits >= 50 && totals.withdrawals >= 20 && totals.bets >= 10, `the report lacks the activity: ${JSON.stringify(totals)}`);
      for (const field of ['ggr', 'ngr', 'stakes', 'wins', 'deposits', 'withdrawals']) {
        const shown = await page.getByTestId(`total-${field}-TND`).textContent();
        assert(shown === tnd(totals[field]), `total ${field}: the page shows ${shown}, the server ${totals[field]}`);
      }
      assert((await page.getByTestId('total-bets-TND').textContent())?.replace(/\D/g, '') === String(totals.bets), 'total bets');
      const todayRow = api.rows.find((/** @type {any} */ r) => r.date === today && r.currency === 'TND');
      assert(todayRow && todayRow.activePlayers >= 1, `today's row: ${JSON.stringify(todayRow)}`);

      // The charts: both canvases drawn, the GGR line in its colour; pointing at today reads today.
      const revenue = page.getByTestId('chart-revenue-plot');
      await revenue.locator('canvas').waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid$="-plot"] canvas').length === 2);
      note('charts drawn');
      const gold = await linePixels(page, 'chart-revenue-plot', '--c-gold');
      const green = await linePixels(page, 'chart-payments-plot', '--c-success');
      assert(gold > 20 && green > 20, `the charts' lines are not drawn: ${gold} GGR and ${green} deposit pixels`);
      const over = revenue.locator('.u-over');
      await revenue.scrollIntoViewIfNeeded();
      const box = await over.boundingBox();
      assert(box, 'no chart area');
      note(`${gold} GGR pixels, ${green} deposit pixels`);
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
      await page.getByTestId('chart-revenue-value-ggr').waitFor({ timeout: 5000 });
      const read = await page.getByTestId('chart-revenue-value-ggr').textContent();
      assert(read === tnd(todayRow.ggr), `pointing at today reads ${read}, the server says ${todayRow.ggr}`);
      note('read today on the chart');
      await scrollTo(page, null);
      await shots(page, `day-${lang}`);
      await scrollTo(page, 'reports-totals-TND');
      await shots(page, `day-totals-${lang}`);
      await scrollTo(page, 'reports-charts');
      await shots(page, `day-charts-${lang}`);
      await scrollTo(page, 'reports-rows');
      await shots(page, `day-rows-${lang}`);

      // A laptop: the side navigation, the charts side by side, the table as a table.
      if (lang === 'en') {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.waitForTimeout(300);
        await noOverflow(page, 'the report at 1280 px');
        await scrollTo(page, null);
        await h.shot(page, 'console-reports-day-en-1280');
        await scrollTo(page, 'reports-charts');
        await h.shot(page, 'console-reports-day-charts-en-1280');
        await scrollTo(page, 'reports-rows');
        await h.shot(page, 'console-reports-day-rows-en-1280');
        await page.setViewportSize({ width: 390, height: 844 });
      }

      // CSV by day: the file the page downloads, with the server's header.
      const csv = async (/** @type {'day' | 'provider'} */ by) => {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('reports-export').click()]);
        assert(download.suggestedFilename() === `carthage-report-${by}-${from}-${today}.csv`, `the file is named ${download.suggestedFilename()}`);
        const text = readFileSync(/** @type {string} */ (await download.path()), 'utf8');
        const [header, ...lines] = text.split('\r\n').filter(Boolean);
        assert(header === CSV_HEADER[by], `the ${by} CSV starts with ${header}`);
        return lines;
      };
      const dayLines = await csv('day');
      assert(dayLines.length === 30, `the CSV by day has ${dayLines.length} days`);
      assert(dayLines.some((l) => l.startsWith(`${today},TND,`)), "the CSV by day lacks today's row");

      // By provider: the tab (in the URL), the rows of the server's report, the studio's dice among them.
      await page.getByTestId('tab-provider').click();
      await page.waitForURL((u) => u.searchParams.get('by') === 'provider');
      await page.locator('[data-testid="reports-report"][data-by="provider"]').waitFor();
      const byProvider = await call(page.request, `/api/admin/reports?from=${from}&to=${today}&by=provider`);
      const rows = page.getByTestId('reports-row');
      assert((await rows.count()) === Math.min(31, byProvider.rows.length), `${await rows.count()} rows by provider, the server has ${byProvider.rows.length}`);
      assert((await page.getByTestId('reports-charts').count()) === 0, 'charts by provider');
      const casino = byProvider.rows.find((/** @type {any} */ r) => r.product === 'casino' && r.stakes >= 50);
      assert(casino, `no casino provider with the dice stakes: ${JSON.stringify(byProvider.rows).slice(0, 300)}`);
      await rows.filter({ hasText: casino.provider }).first().waitFor();
      const providerLines = await csv('provider');
      assert(providerLines.length === byProvider.rows.length, `the CSV by provider has ${providerLines.length} rows, the report ${byProvider.rows.length}`);
      await scrollTo(page, 'reports-rows');
      await shots(page, `provider-${lang}`);

      if (lang === 'en') {
        // Another language on the page: its texts load for it (the console's i18n backend).
        await page.getByTestId('tab-day').click();
        await page.locator('[data-testid="reports-report"][data-by="day"]').waitFor();
        await page.getByTestId('console-lang').selectOption('fr');
        tx = textsOf('fr');
        await page.getByRole('heading', { level: 1, name: tx.reports.title }).waitFor();
        await page.getByTestId('chart-revenue-plot').locator('canvas').waitFor();
        assert((await page.getByTestId('total-ggr-TND').textContent())?.endsWith(' TND'), 'French totals');
        await page.waitForTimeout(300);
        await scrollTo(page, null);
        await shots(page, 'day-fr');
        await scrollTo(page, 'reports-totals-TND');
        await shots(page, 'day-totals-fr');
        await scrollTo(page, 'reports-charts');
        await shots(page, 'day-charts-fr');
        // Only the days with activity (kept in the address).
        await page.getByTestId('reports-only-active').check();
        await page.waitForURL((u) => u.searchParams.get('active') === '1');
        const active = api.rows.filter((/** @type {any} */ r) => r.bets || r.activePlayers || r.stakes || r.deposits || r.withdrawals || r.wins || r.bonusCost).length;
        assert((await page.getByTestId('reports-row').count()) === Math.min(31, active), `${await page.getByTestId('reports-row').count()} days with activity, the report has ${active}`);
        await scrollTo(page, 'reports-rows');
        await shots(page, 'day-rows-fr');
        await page.getByTestId('console-lang').selectOption('en');
      }
      note(`${lang}: player ${made.userId} (10 dice rolls, 50 TND deposit, withdrawal ${made.withdrawal}); totals GGR ${totals.ggr}, stakes ${totals.stakes}, deposits ${totals.deposits}, withdrawals ${totals.withdrawals} TND; ${gold} GGR line pixels; ${byProvider.rows.length} rows by provider`);
      h.assertNoPageErrors(errors);
    },
  });

  return [flow('en'), flow('ar')];
}
