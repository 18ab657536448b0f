// @ts-check
/**
 * Time to balance after a reload of a signed-in page, in Chromium: for each of N reloads,
 * performance.now() (ms from navigation start) when
 *   - shown:     the header first shows a balance (the remembered one, web/src/app/remembered.ts);
 *   - confirmed: the server's balance is shown — the later of the /api/user/balance reply's
 *                responseEnd and the header showing a balance, or the header's first change after
 *                that reply when the value changed;
 * and whether the guest "Log in" button ever appeared (it must not). Prints median and p95.
 * Usage: node benches/reload.mjs <server origin> [N=30]   (benches/reload.sh starts the server)
 */
import { createRequire } from 'node:module';

const require = createRequire(new URL('../web/package.json', import.meta.url));
/** @type {typeof import('playwright-core')} */
const { chromium } = require('playwright-core');

const base = process.argv[2];
const runs = Number(process.argv[3] ?? 30);
if (!base || !(runs > 0)) {
  console.error('usage: node benches/reload.mjs <server origin> [reloads]');
  process.exit(2);
}

function watch() {
  const w = /** @type {any} */ (window);
  w.__bench = { guest: false, shown: null, changes: [] };
  const check = () => {
    const banner = document.querySelector('header');
    if (!banner) return;
    for (const b of banner.querySelectorAll('button')) if (b.textContent?.trim() === 'Log in') w.__bench.guest = true;
    const text = banner.querySelector('[data-testid="header-balance"]')?.textContent ?? '';
    if (!/\d/.test(text)) return;
    const now = performance.now();
    if (w.__bench.shown === null) w.__bench.shown = now;
    const last = w.__bench.changes[w.__bench.changes.length - 1];
    if (!last || last.text !== text) w.__bench.changes.push({ at: now, text });
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium', headless: true });
try {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    serviceWorkers: process.env.BENCH_SW === 'block' ? 'block' : 'allow',
  });
  const page = await context.newPage();
  await page.goto('/home');
  // The seeded demo player (scripts/test-server.sh seeds the fresh database).
  const login = await page.evaluate(async () => {
    const r = await fetch('/api/user/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: 'player@carthage.local', password: 'Player123' }),
    });
    return (await r.json()).status;
  });
  if (login !== 0) throw new Error(`sign-in failed: status ${login}`);
  // One reload signs the app in (the record is written), then the measured reloads.
  await page.goto('/home');
  await page.getByTestId('header-balance').filter({ hasText: /\d/ }).waitFor();
  // (An app from before the remembered record never writes it: measured all the same.)
  await page.waitForFunction(() => localStorage.getItem('carthage.session') !== null, undefined, { timeout: 5000 }).catch(() => {
    console.log('# no remembered record (an app without it): the guest header shows first');
  });
  await page.addInitScript(watch);

  /** @type {{ shown: number, confirmed: number }[]} */
  const samples = [];
  let guestSeen = 0;
  for (let i = 0; i < runs + 2; i += 1) {
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(() => {
      const b = /** @type {any} */ (window).__bench;
      return b.shown !== null && performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/user/balance'));
    });
    await page.waitForTimeout(150);
    const r = await page.evaluate(() => {
      const b = /** @type {any} */ (window).__bench;
      const reply = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/user/balance'));
      const end = /** @type {PerformanceResourceTiming} */ (reply).responseEnd;
      const after = b.changes.find((/** @type {any} */ c) => c.at >= end);
      return { guest: b.guest, shown: b.shown, confirmed: after && after !== b.changes[0] ? after.at : Math.max(end, b.shown) };
    });
    if (r.guest) guestSeen += 1;
    if (i >= 2) samples.push({ shown: r.shown, confirmed: r.confirmed }); // two warm-up reloads
  }
  /** @param {number[]} xs @param {number} q */
  const pct = (xs, q) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  };
  for (const key of /** @type {const} */ (['shown', 'confirmed'])) {
    const xs = samples.map((s) => s[key]);
    console.log(`${key.padEnd(9)} median ${pct(xs, 0.5).toFixed(0)} ms, p95 ${pct(xs, 0.95).toFixed(0)} ms, min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)} (${xs.length} reloads)`);
  }
  console.log(`guest header seen in ${guestSeen} of ${runs + 2} reloads`);
  if (guestSeen > 0) process.exitCode = 1;
} finally {
  await browser.close();
}
