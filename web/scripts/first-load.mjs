// @ts-check
/**
 * What a browser really fetches when a guest opens /home: every JavaScript response of the page
 * from navigation until the network has been idle for IDLE_MS (the side menu mounts 1.2 s after
 * start and counts), with Chromium's own Accept-Encoding (br included) and an empty cache.
 * The figure is the sum of the compressed bytes transferred (Resource Timing `encodedBodySize`),
 * and each file's Content-Encoding is reported too.
 *
 * Used by `npm run size` (scripts/size-check.mjs) and by the browser test
 * "load: first load of /home ..." (e2e/load.mjs), both against a running server.
 */

/** The budget of the first load of /home: compressed JavaScript actually transferred. */
export const FIRST_LOAD_BUDGET = 150 * 1024;
const IDLE_MS = 2000;

/**
 * @param {import('playwright-core').Browser} browser
 * @param {string} base server origin, e.g. http://127.0.0.1:8080
 * @returns {Promise<{ total: number, files: { url: string, bytes: number, encoding: string }[] }>}
 */
export async function measureFirstLoad(browser, base) {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    serviceWorkers: 'allow',
  });
  try {
    const page = await context.newPage();
    /** @type {Map<string, string>} */
    const encodings = new Map();
    let inFlight = 0;
    let lastActivity = Date.now();
    page.on('request', () => {
      inFlight += 1;
      lastActivity = Date.now();
    });
    const settle = () => {
      inFlight = Math.max(0, inFlight - 1);
      lastActivity = Date.now();
    };
    page.on('requestfinished', settle);
    page.on('requestfailed', settle);
    page.on('response', async (response) => {
      if (!/\.m?js(\?|$)/.test(new URL(response.url()).pathname)) return;
      const headers = await response.allHeaders().catch(() => /** @type {Record<string, string>} */ ({}));
      encodings.set(response.url(), headers['content-encoding'] ?? 'identity');
    });
    await page.goto('/home', { waitUntil: 'load' });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && (inFlight > 0 || Date.now() - lastActivity < IDLE_MS)) {
      await page.waitForTimeout(100);
    }
    const entries = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => /** @type {PerformanceResourceTiming} */ (e))
        .filter((e) => /\.m?js(\?|$)/.test(new URL(e.name).pathname))
        .map((e) => ({ url: e.name, bytes: e.encodedBodySize })),
    );
    const files = entries.map((e) => ({ ...e, encoding: encodings.get(e.url) ?? 'unknown' }));
    files.sort((a, b) => b.bytes - a.bytes);
    return { total: files.reduce((s, f) => s + f.bytes, 0), files };
  } finally {
    await context.close();
  }
}

/** @param {number} n */
export const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
