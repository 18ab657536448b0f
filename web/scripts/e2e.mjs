// @ts-check
/**
 * Browser end-to-end checks of a running Carthage server (the Rust server
 * serving web/dist, or anything that behaves like it).
 *
 *   E2E_BASE_URL=http://127.0.0.1:8080 npm run e2e
 *
 * Environment:
 *   E2E_BASE_URL         required: origin of the server under test
 *   E2E_CHROMIUM         Chromium binary (default /usr/bin/chromium)
 *   E2E_TEST_TIMEOUT_MS  per-test timeout in ms (default 30000)
 *
 * Output: one `ok - NAME` / `not ok - NAME` line per test (details on `  # `
 * lines), then `N passed, M failed`. Exit status: 0 all passed, 1 a test
 * failed, 2 usage or setup error. Screenshots go to web/screenshots/.
 *
 * Depends on playwright-core only, driving the system Chromium: never run
 * `playwright install`.
 */
import { access, mkdir } from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const rawBase = process.env.E2E_BASE_URL?.trim();
if (!rawBase) {
  console.error('e2e: E2E_BASE_URL is required, e.g. E2E_BASE_URL=http://127.0.0.1:8080 npm run e2e');
  process.exit(2);
}
/** @type {URL} */
let baseUrl;
try {
  baseUrl = new URL(rawBase);
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new Error('not http(s)');
} catch {
  console.error(`e2e: E2E_BASE_URL is not an http(s) URL: ${rawBase}`);
  process.exit(2);
}
const BASE = baseUrl.toString().replace(/\/+$/, '');
const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';
const TEST_TIMEOUT_MS = Number.parseInt(process.env.E2E_TEST_TIMEOUT_MS ?? '', 10) || 30_000;
const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots/', import.meta.url));
const DEEP_LINK = '/profile/some/deep/path';

const LAUNCH_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** @param {string} path */
const urlOf = (path) => `${BASE}${path}`;

// ---------------------------------------------------------------- helpers

class AssertionError extends Error {}

/**
 * @param {unknown} condition
 * @param {string} message
 * @returns {asserts condition}
 */
function assert(condition, message) {
  if (!condition) throw new AssertionError(message);
}

/**
 * A plain HTTP request (no browser), never following redirects so that a
 * redirect cannot pass for the real thing.
 * @param {string} path
 * @param {AbortSignal} signal
 * @param {Record<string, string>} [headers]
 */
async function http(path, signal, headers = {}) {
  /** @type {Response} */
  let response;
  try {
    response = await fetch(urlOf(path), { redirect: 'manual', signal, headers });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
    throw new Error(`GET ${urlOf(path)}: ${err instanceof Error ? err.message : String(err)}${cause}`);
  }
  const body = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    cacheControl: response.headers.get('cache-control') ?? '',
    body,
  };
}

/** @param {string} text */
function parseJson(text) {
  try {
    return /** @type {unknown} */ (JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** @param {string} text */
const snippet = (text) => JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);

/**
 * The settings the server advertises, to compare with what the page shows.
 * @param {AbortSignal} signal
 * @returns {Promise<string[]>}
 */
async function expectedCurrencies(signal) {
  const res = await http('/api/site/settings', signal, { Accept: 'application/json' });
  const envelope = /** @type {any} */ (parseJson(res.body));
  assert(envelope !== undefined, `GET /api/site/settings: body is not JSON (HTTP ${res.status}): ${snippet(res.body)}`);
  assert(envelope.status === 0, `GET /api/site/settings: envelope status ${envelope.status}, expected 0`);
  const currencies = envelope.result?.currencies;
  assert(
    Array.isArray(currencies) && currencies.every((c) => typeof c === 'string'),
    'GET /api/site/settings: result.currencies is not an array of strings',
  );
  return [...new Set(/** @type {string[]} */ (currencies))];
}

/**
 * Throws if the page logged uncaught errors or console errors.
 * @param {string[]} errors
 */
function assertNoPageErrors(errors) {
  assert(errors.length === 0, `page reported errors:\n${errors.join('\n')}`);
}

/**
 * Records uncaught exceptions and console errors of a page.
 * @param {import('playwright-core').Page} page
 */
function collectErrors(page) {
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  return errors;
}

// ---------------------------------------------------------------- tests

/**
 * @typedef {object} TestContext
 * @property {import('playwright-core').BrowserContext} context fresh mobile browser context
 * @property {AbortSignal} signal aborted when the test times out
 * @property {(line: string) => void} note diagnostic line printed under the result
 */

/** @type {{ name: string, run: (t: TestContext) => Promise<void> }[]} */
const tests = [
  {
    name: 'home page shows the brand and the currencies from the API',
    async run({ context, signal, note }) {
      const currencies = await expectedCurrencies(signal);
      note(`API currencies: ${currencies.join(', ') || '(none)'}`);

      const page = await context.newPage();
      const errors = collectErrors(page);
      const response = await page.goto('/', { waitUntil: 'domcontentloaded' });
      assert(response?.status() === 200, `GET / answered HTTP ${response?.status()}`);

      const html = page.locator('html');
      assert((await html.getAttribute('lang')) === 'en', '<html> lacks lang="en"');
      assert((await html.getAttribute('dir')) === 'ltr', '<html> lacks dir="ltr"');
      assert((await page.title()).includes('Carthage'), `title is ${JSON.stringify(await page.title())}`);

      await page.getByRole('banner').getByText('Carthage', { exact: true }).waitFor({ state: 'visible' });

      if (currencies.length === 0) {
        await page.getByText('No currencies available.').waitFor({ state: 'visible' });
      } else {
        const list = page.getByRole('list', { name: 'Available currencies' });
        await list.waitFor({ state: 'visible' });
        const shown = await list.locator('[data-currency]').evaluateAll((els) =>
          els.map((el) => el.getAttribute('data-currency')),
        );
        assert(
          JSON.stringify(shown) === JSON.stringify(currencies),
          `page shows currencies ${JSON.stringify(shown)}, API has ${JSON.stringify(currencies)}`,
        );
        for (const code of currencies) {
          await list.locator(`[data-currency="${code}"]`).getByText(code, { exact: true }).waitFor({ state: 'visible' });
        }
      }
      assert((await page.getByRole('alert').count()) === 0, 'page shows an error alert');

      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert(overflow <= 0, `page overflows the 390px mobile viewport horizontally by ${overflow}px`);

      await mkdir(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOT_DIR}home.png` });
      await page.screenshot({ path: `${SCREENSHOT_DIR}home-full.png`, fullPage: true });
      note(`screenshots: ${SCREENSHOT_DIR}home.png, home-full.png`);

      assertNoPageErrors(errors);
    },
  },
  {
    name: `deep link ${DEEP_LINK} serves the app (SPA fallback)`,
    async run({ context, signal }) {
      const res = await http(DEEP_LINK, signal, { Accept: 'text/html' });
      assert(res.status === 200, `GET ${DEEP_LINK} answered HTTP ${res.status}, expected 200`);
      assert(res.contentType.includes('text/html'), `GET ${DEEP_LINK} content-type is ${JSON.stringify(res.contentType)}`);
      assert(res.body.includes('<div id="root">'), `GET ${DEEP_LINK} is not the app's index.html`);

      const page = await context.newPage();
      const errors = collectErrors(page);
      const response = await page.goto(DEEP_LINK, { waitUntil: 'domcontentloaded' });
      assert(response?.status() === 200, `browser GET ${DEEP_LINK} answered HTTP ${response?.status()}`);
      await page.getByRole('banner').getByText('Carthage', { exact: true }).waitFor({ state: 'visible' });
      assertNoPageErrors(errors);
    },
  },
  {
    name: 'unknown /api route answers a JSON envelope with a non-zero status',
    async run({ signal, note }) {
      // Also as a browser navigation would ask (Accept: text/html): the SPA
      // fallback must never swallow /api.
      for (const accept of ['application/json', 'text/html,application/xhtml+xml,*/*;q=0.8']) {
        const res = await http('/api/does-not-exist', signal, { Accept: accept });
        const where = `GET /api/does-not-exist (Accept: ${accept.split(',')[0]})`;
        assert(res.contentType.includes('application/json'), `${where}: content-type is ${JSON.stringify(res.contentType)}`);
        const envelope = /** @type {any} */ (parseJson(res.body));
        assert(envelope !== undefined, `${where}: body is not JSON: ${snippet(res.body)}`);
        assert(typeof envelope === 'object' && envelope !== null && typeof envelope.status === 'number', `${where}: no numeric "status" in ${snippet(res.body)}`);
        assert(envelope.status !== 0, `${where}: envelope status is 0`);
        note(`${where}: HTTP ${res.status}, envelope status ${envelope.status}`);
      }
    },
  },
  {
    name: 'hashed JS asset is served with an immutable cache-control',
    async run({ signal, note }) {
      const index = await http('/', signal, { Accept: 'text/html' });
      assert(index.status === 200, `GET / answered HTTP ${index.status}`);
      assert(!/immutable/i.test(index.cacheControl), `index.html must not be immutable (cache-control: ${index.cacheControl})`);

      const match = /<script[^>]*\bsrc="(\/assets\/[^"]+\.js)"/.exec(index.body);
      assert(match?.[1], 'index.html references no /assets/*.js script');
      const asset = match[1];
      assert(/-[A-Za-z0-9_-]{8,}\.js$/.test(asset), `${asset} has no content hash in its name`);

      const res = await http(asset, signal);
      assert(res.status === 200, `GET ${asset} answered HTTP ${res.status}`);
      assert(/javascript/i.test(res.contentType), `GET ${asset} content-type is ${JSON.stringify(res.contentType)}`);
      assert(/\bimmutable\b/i.test(res.cacheControl), `GET ${asset} cache-control is ${JSON.stringify(res.cacheControl)}, lacks "immutable"`);
      note(`${asset}: cache-control: ${res.cacheControl}; index.html: ${index.cacheControl || '(none)'}`);
    },
  },
];

// ---------------------------------------------------------------- runner

/** @type {import('playwright-core').Browser | undefined} */
let browser;

async function closeBrowser() {
  const b = browser;
  browser = undefined;
  if (b) await b.close().catch(() => {});
}

// Output piped into e.g. `head` may close early: keep running so the browser is still closed.
process.stdout.on('error', (err) => {
  if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EPIPE') throw err;
});

for (const signalName of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signalName, () => {
    console.error(`e2e: ${signalName}, closing the browser`);
    void closeBrowser().finally(() => process.exit(signalName === 'SIGINT' ? 130 : 143));
  });
}

/**
 * @param {import('playwright-core').Browser} b
 * @param {{ name: string, run: (t: TestContext) => Promise<void> }} test
 * @returns {Promise<boolean>}
 */
async function runTest(b, test) {
  /** @type {string[]} */
  const notes = [];
  const abort = new AbortController();
  const major = b.version().split('.')[0];
  const context = await b.newContext({
    baseURL: `${BASE}/`,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    userAgent: `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`,
    serviceWorkers: 'block',
  });
  context.setDefaultTimeout(TEST_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(TEST_TIMEOUT_MS);

  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`timed out after ${TEST_TIMEOUT_MS} ms`));
    }, TEST_TIMEOUT_MS);
  });
  const running = test.run({ context, signal: abort.signal, note: (line) => notes.push(line) });
  running.catch(() => {}); // a test left behind by its timeout must not crash the runner

  /** @type {unknown} */
  let failure;
  try {
    await Promise.race([running, timeout]);
  } catch (err) {
    failure = err;
  } finally {
    clearTimeout(timer);
    abort.abort();
    await context.close().catch(() => {});
  }

  console.log(`${failure === undefined ? 'ok' : 'not ok'} - ${test.name}`);
  for (const line of notes) console.log(`  # ${line}`);
  if (failure !== undefined) {
    const text = failure instanceof Error ? failure.message : String(failure);
    for (const line of text.split('\n')) console.log(`  # ${line}`);
  }
  return failure === undefined;
}

async function main() {
  try {
    await access(CHROMIUM, fsConstants.X_OK);
  } catch {
    console.error(`e2e: no Chromium at ${CHROMIUM} (set E2E_CHROMIUM or install Debian's chromium package)`);
    return 2;
  }

  let passed = 0;
  let failed = 0;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS, timeout: 60_000 });
    console.log(`# ${BASE} with Chromium ${browser.version()}, 390x844@2x mobile, ${TEST_TIMEOUT_MS} ms per test`);
    for (const test of tests) {
      if (await runTest(browser, test)) passed += 1;
      else failed += 1;
    }
  } catch (err) {
    // Browser launch (or context creation) failed: every test not yet run fails.
    console.log(`not ok - browser setup`);
    for (const line of (err instanceof Error ? err.message : String(err)).split('\n')) console.log(`  # ${line}`);
    failed = tests.length - passed;
  } finally {
    await closeBrowser();
  }

  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
