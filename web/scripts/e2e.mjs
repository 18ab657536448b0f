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
import { access, mkdir, readdir } from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createHash, createHmac } from 'node:crypto';

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
    if (msg.type() !== 'error') return;
    // Expected: the guest auth check (401), the not-yet-existing banned-providers list (404), and
    // the balance of a remembered player whose session ended elsewhere (401: the app then drops
    // the record and shows the guest header, app/remembered.ts).
    const url = msg.location().url ?? '';
    if (/Failed to load resource/.test(msg.text()) && /\/api\/user\/(check|blocklist|balance)$/.test(url)) return;
    errors.push(`console.error: ${msg.text()} ${url}`);
  });
  return errors;
}

// ---------------------------------------------------------------- tests

/**
 * A JSON API call from Node (no browser), unwrapping the envelope.
 * @param {string} path
 * @param {AbortSignal} signal
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function api(path, signal, body) {
  /** @type {RequestInit} */
  const init = { signal, headers: { Accept: 'application/json', Origin: BASE } };
  if (body !== undefined) {
    init.method = 'POST';
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  const res = await fetch(urlOf(path), init);
  const envelope = /** @type {any} */ (parseJson(await res.text()));
  assert(envelope && envelope.status === 0, `${path}: envelope ${JSON.stringify(envelope)?.slice(0, 200)}`);
  return envelope.result;
}

/** The demo staff accounts and their authenticator secrets (crates/server/src/seed.rs). */
const DEMO_STAFF = {
  admin: { login: 'admin@carthage.local', password: 'Admin1234', totp: 'INQXE5DIMFTWKRDFNVXUCZDNNFXCCIJB' },
  finance: { login: 'finance@carthage.local', password: 'Finance123', totp: 'INQXE5DIMFTWKRDFNVXUM2LOMFXGGZJB' },
};

/**
 * The RFC 6238 code (HMAC-SHA1, 6 digits, 30 s) of `step` for a base32 secret.
 * @param {string} secret @param {number} step
 */
function totpCode(secret, step) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = digest.readUInt8(19) & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** @type {Map<string, Promise<string>>} */
const staffTokens = new Map();

/**
 * A console token of a demo staff account, signed in once per run with a code (a code signs
 * in once: a refused code is followed by the next step's, then by a wait for a new step).
 * Tests send it as `Authorization: Bearer …` on /api/admin/ calls only.
 * @param {keyof typeof DEMO_STAFF} [who] @param {AbortSignal} [signal]
 */
function staffToken(who = 'admin', signal) {
  const account = DEMO_STAFF[who];
  let token = staffTokens.get(who);
  if (!token) {
    token = (async () => {
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const now = Math.floor(Date.now() / 30_000);
        for (const step of [now, now + 1]) {
          const res = await fetch(urlOf('/api/staff/login'), {
            method: 'POST',
            signal,
            headers: { 'Content-Type': 'application/json', Origin: BASE },
            body: JSON.stringify({ login: account.login, password: account.password, code: totpCode(account.totp, step) }),
          });
          const envelope = /** @type {any} */ (parseJson(await res.text()));
          if (envelope?.status === 0) return envelope.result.token;
          assert(envelope?.status === 143, `staff sign-in of ${who}: ${JSON.stringify(envelope)?.slice(0, 200)}`);
        }
        await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 100));
      }
      throw new Error(`staff sign-in of ${who}: no code was taken`);
    })();
    staffTokens.set(who, token);
  }
  return token;
}

/** The demo admin's console token ({@link staffToken}). @param {AbortSignal} [signal] */
const adminToken = (signal) => staffToken('admin', signal);

/** A fresh Tunisian number (216 + 8 digits) per call. */
let phoneSeq = 0;
function freshPhone() {
  phoneSeq += 1;
  const tail = `${Date.now() % 100000}`.padStart(5, '0') + `${phoneSeq % 1000}`.padStart(3, '0');
  return `2169${tail.slice(1)}`;
}

/**
 * The newest code the demo outbox holds for `to` (polled: sending is asynchronous).
 * @param {string} to
 * @param {AbortSignal} signal
 * @param {'code' | 'link'} field
 * @param {number} [after] ignore messages created before this time (ms)
 */
async function outbox(to, signal, field = 'code', after = 0) {
  for (let i = 0; i < 50; i += 1) {
    const list = /** @type {any[]} */ (await api(`/api/dev/outbox?to=${encodeURIComponent(to)}`, signal));
    const hit = list.find((m) => m[field] && Date.parse(m.createdAt) >= after - 1000);
    if (hit) return /** @type {string} */ (hit[field]);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new AssertionError(`no ${field} in the outbox for ${to}`);
}

/**
 * A new player's page, signed in by phone on the home page: the prelude of most money tests.
 * @param {import('playwright-core').BrowserContext} context @param {AbortSignal} signal
 */
async function newPlayerPage(context, signal, password = 'Player42') {
  const page = await context.newPage();
  const errors = collectErrors(page);
  const phone = await phoneAccount(signal, password);
  await openHome(page);
  await signIn(page, phone, password, 'phone');
  return { page, errors, phone, password };
}

/**
 * A phone account created through the API, as the app does it.
 * @param {AbortSignal} signal
 * @param {string} password
 */
async function phoneAccount(signal, password) {
  const phone = freshPhone();
  const settings = await api('/api/site/settings', signal);
  const hash = createHash('sha256').update(phone + settings.phoneCodeSalt).digest('hex');
  await api('/api/user/phone/code', signal, { phone, hash });
  const code = await outbox(phone, signal);
  await api('/api/user/signup/phone', signal, { phone, phoneCode: code, password, currency: 'TND', login: phone });
  return phone;
}

/**
 * Dispatches a real touch swipe (CDP), for the side menu's edge gesture.
 * @param {import('playwright-core').Page} page
 * @param {[number, number]} from
 * @param {[number, number]} to
 */
async function swipe(page, from, to) {
  const cdp = await page.context().newCDPSession(page);
  const steps = 10;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from[0], y: from[1] }] });
  for (let i = 1; i <= steps; i += 1) {
    const x = from[0] + ((to[0] - from[0]) * i) / steps;
    const y = from[1] + ((to[1] - from[1]) * i) / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/**
 * @param {import('playwright-core').Page} page
 * @param {boolean} open
 */
async function expectSideMenu(page, open) {
  const menu = page.getByTestId('side-menu');
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="side-menu"]')?.getAttribute('data-open') === String(want),
    open,
    { timeout: 5000 },
  ).catch(async () => {
    throw new AssertionError(`side menu data-open is ${await menu.getAttribute('data-open').catch(() => 'missing')}, expected ${open}`);
  });
}

/**
 * @param {import('playwright-core').Page} page
 * @param {string | RegExp} text
 */
async function expectToast(page, text) {
  await page.getByTestId('toast').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: 10000 });
}

/**
 * A screenshot of the current screen, after closing the notices that would cover it.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
async function shot(page, name) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  for (const close of await page.getByTestId('toast').getByRole('button').all()) await close.click().catch(() => {});
  // Let transitions settle.
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png` });
}

/**
 * Signs in through the header's auth modal.
 * @param {import('playwright-core').Page} page
 * @param {string} login
 * @param {string} password
 * @param {'login' | 'phone'} [mode]
 */
async function signIn(page, login, password, mode = 'login') {
  await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.waitFor();
  if (mode === 'phone') {
    await dialog.getByRole('tab', { name: 'Phone' }).click();
    await dialog.getByLabel('Phone number').fill(login.replace(/^216/, ''));
  } else {
    await dialog.getByRole('tab', { name: 'Login' }).click();
    await dialog.getByLabel('Login or e-mail').fill(login);
  }
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('header-id').waitFor({ state: 'visible' });
}

/** @param {import('playwright-core').Page} page */
async function openHome(page) {
  const response = await page.goto('/home', { waitUntil: 'domcontentloaded' });
  assert(response?.status() === 200, `GET /home answered HTTP ${response?.status()}`);
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
}

/** @returns {{ name: string, run: (t: TestContext) => Promise<void> }[]} */
function appTests() {
  return [
    {
      name: '/ redirects to /home, which shows the shell and the slider in English',
      async run({ context }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        const response = await page.goto('/', { waitUntil: 'domcontentloaded' });
        assert(response?.status() === 200, `GET / answered HTTP ${response?.status()}`);
        await page.waitForURL(/\/home$/);
        const html = page.locator('html');
        assert((await html.getAttribute('lang')) === 'en', '<html> lacks lang="en"');
        assert((await html.getAttribute('dir')) === 'ltr', '<html> lacks dir="ltr"');
        assert((await page.title()).includes('Carthage'), `title is ${JSON.stringify(await page.title())}`);
        await page.getByRole('banner').getByText('Carthage', { exact: true }).waitFor({ state: 'visible' });
        // The welcome slide shows only when the settings grant a bonus (web/e2e/i18n.mjs).
        await page.getByRole('link', { name: /Weekly cashback/ }).first().waitFor({ state: 'visible' });
        await page.getByRole('link', { name: /Cashback/ }).first().waitFor();
        assert(
          (await page.getByRole('link', { name: /Cashback/ }).first().getAttribute('href')) === '/promotions/cashback-percent',
          'the cashback link does not lead to /promotions/cashback-percent',
        );
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(overflow <= 0, `page overflows the 390px mobile viewport horizontally by ${overflow}px`);
        await page.waitForTimeout(800);
        await shot(page, 'home-en');
        await page.screenshot({ path: `${SCREENSHOT_DIR}home-en-full.png`, fullPage: true });
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'unknown path shows the not-found page; sections not built yet show "coming soon"',
      async run({ context }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await page.goto('/no/such/page');
        await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        // A section of the route table not built yet (a virtual-games path other than the
        // studio races and Golden Race).
        await page.goto('/virtual-games/elsewhere');
        await page.getByRole('heading', { name: 'Coming soon' }).waitFor();
        // Protected sport entries: guests are told to sign in and stay where they are.
        await page.goto('/home');
        await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Sport' }).click();
        await page.getByTestId('sport-menu').getByRole('button', { name: /GR8/ }).click();
        await expectToast(page, 'Please sign in to bet.');
        assert(page.url().endsWith('/home'), `guest navigated to ${page.url()}`);
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'phone sign-up with the SMS code from the outbox; header shows id and balance',
      async run({ context, signal, note }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openHome(page);
        await page.getByRole('banner').getByRole('button', { name: 'Sign up' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create an account' });
        await dialog.waitFor();
        const phone = freshPhone();
        const phoneInput = dialog.getByLabel('Phone number');
        await phoneInput.fill('a1-b2');
        assert((await phoneInput.inputValue()) === '12', `phone input kept non-digits: ${await phoneInput.inputValue()}`);
        await phoneInput.fill(`${phone.slice(3)}99`);
        assert((await phoneInput.inputValue()) === phone.slice(3), 'phone input took more than 8 digits');
        const submit = dialog.getByRole('button', { name: 'Create account' });
        assert(await submit.isDisabled(), 'submit enabled on an empty form');
        await dialog.getByRole('button', { name: 'Send code' }).click();
        await expectToast(page, 'We sent a code by SMS.');
        const code = await outbox(phone, signal);
        note(`phone ${phone}, SMS code ${code}`);
        await dialog.getByLabel('SMS code').fill(code);
        await dialog.getByLabel('Password', { exact: true }).fill('Secret12');
        await dialog.getByLabel('Repeat password').fill('Secret13');
        await dialog.getByLabel('Currency').focus(); // leaving the field reports the mismatch
        await dialog.locator('[data-field="repeat"] [data-testid="field-error"]').filter({ hasText: 'The repeated password does not match.' }).waitFor();
        await dialog.getByLabel('Repeat password').fill('Secret12');
        await dialog.getByRole('checkbox').check();
        await shot(page, 'signup-phone-en');
        assert(await submit.isEnabled(), 'submit disabled on a valid form');
        await submit.click();
        await page.getByTestId('header-id').waitFor({ state: 'visible' });
        await expectToast(page, 'You are signed in');
        const balance = page.getByTestId('header-balance');
        await page.waitForFunction(() => /TND/.test(document.querySelector('[data-testid="header-balance"]')?.textContent ?? ''));
        note(`header: id ${await page.getByTestId('header-id').textContent()}, balance ${await balance.textContent()}`);
        assert(/^\d[\d,]*\.\d{3} TND$/.test((await balance.textContent())?.trim() ?? ''), 'balance is not shown with 3 decimals and TND');
        await shot(page, 'home-signed-in-en');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'side menu opens by a swipe from the edge and closes by a tap outside; Arabic flips to rtl',
      async run({ context }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openHome(page);
        await page.getByTestId('side-menu').waitFor({ state: 'attached' });
        await swipe(page, [4, 420], [220, 430]);
        await expectSideMenu(page, true);
        await page.getByTestId('info-pages').getByRole('link').first().waitFor();
        const pages = await page.getByTestId('info-pages').getByRole('link').allTextContents();
        assert(pages[0]?.includes('Terms'), `info pages not sorted by priority: ${pages.join(' | ')}`);
        await shot(page, 'side-menu-en');
        await page.touchscreen.tap(370, 420);
        await expectSideMenu(page, false);
        // Swipe over 100 px back closes it too.
        await swipe(page, [4, 420], [220, 430]);
        await expectSideMenu(page, true);
        await swipe(page, [300, 420], [120, 430]);
        await expectSideMenu(page, false);

        await swipe(page, [4, 420], [220, 430]);
        await expectSideMenu(page, true);
        await page.getByRole('button', { name: 'العربية' }).click();
        await page.waitForFunction(() => document.documentElement.dir === 'rtl');
        assert((await page.locator('html').getAttribute('lang')) === 'ar', '<html lang> is not ar');
        await page.getByRole('navigation', { name: 'التنقل الرئيسي' }).getByText('الرئيسية').waitFor();
        await shot(page, 'side-menu-ar');
        await page.touchscreen.tap(20, 420); // the backdrop is on the left in Arabic
        await expectSideMenu(page, false);
        // The left edge no longer opens it; the right edge does.
        await swipe(page, [4, 420], [220, 430]);
        await page.waitForTimeout(300);
        assert((await page.getByTestId('side-menu').getAttribute('data-open')) === 'false', 'left-edge swipe opened the menu in Arabic');
        await swipe(page, [386, 420], [170, 430]);
        await expectSideMenu(page, true);
        await page.touchscreen.tap(20, 420);
        await expectSideMenu(page, false);
        await page.waitForTimeout(800);
        await shot(page, 'home-ar');
        await page.screenshot({ path: `${SCREENSHOT_DIR}home-ar-full.png`, fullPage: true });
        // The choice survives a reload.
        await page.reload();
        await page.waitForFunction(() => document.documentElement.dir === 'rtl');
        await page.goto('/promotions');
        await page.getByRole('heading', { name: 'العروض' }).waitFor();
        await shot(page, 'promotions-ar');
        await page.getByRole('banner').getByRole('button', { name: 'تسجيل' }).click();
        await page.getByRole('dialog').waitFor();
        await shot(page, 'signup-ar');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'one-click registration shows the generated credentials with copy buttons and signs in',
      async run({ context }) {
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openHome(page);
        await page.getByRole('banner').getByRole('button', { name: 'Sign up' }).click();
        await page.getByRole('dialog', { name: 'Create an account' }).getByRole('button', { name: 'One-click registration' }).click();
        const dialog = page.getByRole('dialog', { name: 'Your account is ready' });
        await dialog.waitFor();
        const login = (await dialog.getByTestId('one-click-login').textContent()) ?? '';
        const password = (await dialog.getByTestId('one-click-password').textContent()) ?? '';
        assert(login.includes('@') && password.length >= 6, `credentials shown: ${login} / ${password}`);
        await dialog.getByRole('button', { name: 'Copy Password' }).click();
        await expectToast(page, 'Copied.');
        const copied = await page.evaluate(() => navigator.clipboard.readText());
        assert(copied === password, 'the copied text is not the password');
        await page.getByTestId('header-id').waitFor({ state: 'visible' });
        await shot(page, 'one-click-en');
        await dialog.getByRole('button', { name: 'I saved them, continue' }).click();
        await dialog.waitFor({ state: 'detached' });
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'e-mail sign-up, verification through /verify, then sign-in',
      async run({ context, signal, note }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openHome(page);
        const email = `e2e-${Date.now()}@example.com`;
        await page.getByRole('banner').getByRole('button', { name: 'Sign up' }).click();
        const dialog = page.getByRole('dialog', { name: 'Create an account' });
        await dialog.getByRole('tab', { name: 'E-mail' }).click();
        await dialog.getByLabel('E-mail').fill(email);
        await dialog.getByLabel('Password', { exact: true }).fill('Mail1234');
        await dialog.getByLabel('Repeat password').fill('Mail1234');
        await dialog.getByRole('checkbox').check();
        await dialog.getByRole('button', { name: 'Create account' }).click();
        await expectToast(page, 'Check your mailbox');
        const link = await outbox(email, signal, 'link');
        note(`verification link ${link}`);
        const url = new URL(link);
        assert(url.pathname === '/verify', `link path is ${url.pathname}`);
        await page.goto(`${url.pathname}${url.search}`);
        await page.waitForURL(/\/home$/);
        await expectToast(page, 'Your e-mail is confirmed');
        await signIn(page, email, 'Mail1234');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'password recovery by phone with the SMS code, then sign-in by phone',
      async run({ context, signal }) {
        const phone = await phoneAccount(signal, 'Old12pass');
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openHome(page);
        await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
        await page.getByRole('button', { name: 'Forgot your password?' }).click();
        const dialog = page.getByRole('dialog', { name: 'Password recovery' });
        await dialog.getByLabel('Phone number').fill(phone.slice(3));
        const started = Date.now();
        await dialog.getByRole('button', { name: 'Send code' }).click();
        const step2 = page.getByRole('dialog', { name: 'New password' });
        await step2.waitFor();
        const code = await outbox(phone, signal, 'code', started);
        const save = step2.getByRole('button', { name: 'Save the password' });
        await step2.getByLabel('Recovery code').fill(code);
        await step2.getByLabel('New password', { exact: true }).fill('New12pass');
        await step2.getByLabel('Confirm the new password').fill('New12pasX');
        assert(await save.isDisabled(), 'save enabled with a mismatched confirmation');
        await step2.getByLabel('Confirm the new password').fill('New12pass');
        await shot(page, 'restore-en');
        await save.click();
        await expectToast(page, 'Your password was changed');
        await signIn(page, phone, 'New12pass', 'phone');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'change password: mismatched and weak passwords are refused, a good one is saved',
      async run({ context, signal }) {
        const phone = await phoneAccount(signal, 'Start12ab');
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openHome(page);
        await signIn(page, phone, 'Start12ab');
        await page.goto('/profile/password');
        const form = page.locator('form');
        await form.getByLabel('Current password').fill('Start12ab');
        await form.getByLabel('New password').fill('Next12ab');
        await form.getByLabel('Repeat password').fill('Next12ax');
        await form.getByRole('button', { name: 'Save the password' }).click();
        await form.locator('[data-field="repeat"] [data-testid="field-error"]').filter({ hasText: 'Passwords do not match.' }).waitFor();
        await form.getByLabel('New password').fill('abcdef');
        await form.getByLabel('Repeat password').fill('abcdef');
        await form.getByRole('button', { name: 'Save the password' }).click();
        await form.locator('[data-field="new_password"] [data-testid="field-error"]').filter({ hasText: 'Weak password' }).waitFor();
        await shot(page, 'change-password-en');
        await form.getByLabel('New password').fill('Next12ab');
        await form.getByLabel('Repeat password').fill('Next12ab');
        await form.getByRole('button', { name: 'Save the password' }).click();
        await expectToast(page, 'The password was changed.');
        // The new password works.
        const check = await fetch(urlOf('/api/user/login'), {
          method: 'POST',
          signal,
          headers: { 'Content-Type': 'application/json', Origin: BASE },
          body: JSON.stringify({ login: phone, password: 'Next12ab' }),
        });
        const envelope = /** @type {any} */ (parseJson(await check.text()));
        assert(envelope?.status === 0, `sign-in with the new password: ${JSON.stringify(envelope)}`);
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'operations history, cashback transfer, profile screens in English and Arabic, logout',
      async run({ context }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await openHome(page);
        await signIn(page, 'player@carthage.local', 'Player123');
        await page.waitForFunction(() => /500\.000 TND/.test(document.querySelector('[data-testid="header-balance"]')?.textContent ?? ''));
        await page.getByTestId('header-account').click();
        await page.waitForURL(/\/profile$/);
        await shot(page, 'profile-en');
        await page.getByRole('link', { name: 'Operations history' }).click();
        const ops = page.getByTestId('operations');
        await ops.waitFor();
        const rows = await ops.locator('li').allTextContents();
        assert(rows.some((r) => r.includes('500.000 TND')), `history lacks the 500.000 TND credit: ${rows.join(' | ')}`);
        await page.getByLabel('From').fill('01-01-2000');
        await page.getByLabel('From').blur();
        await ops.waitFor();
        await shot(page, 'history-en');

        await page.goto('/profile/cashback');
        const transfer = page.getByRole('button', { name: 'Transfer to the real balance' });
        await page.getByTestId('cashback-amount').filter({ hasText: '15.000 TND' }).waitFor();
        assert(await transfer.isEnabled(), 'transfer disabled with 15 TND of cashback');
        await transfer.click();
        await page.getByRole('dialog', { name: 'Cashback transfer' }).getByRole('button', { name: 'Transfer', exact: true }).click();
        await expectToast(page, 'The cashback was moved');
        await page.getByTestId('cashback-amount').filter({ hasText: '0.000 TND' }).waitFor();
        assert(await transfer.isDisabled(), 'transfer enabled below 10');
        await page.waitForFunction(() => /515\.000 TND/.test(document.querySelector('[data-testid="header-balance"]')?.textContent ?? ''));
        await page.goto('/profile/history');
        await page.getByTestId('operations').getByText('Cashback transfer').first().waitFor();

        // The same screens in Arabic.
        await page.goto('/profile');
        await page.getByRole('button', { name: 'Open the menu' }).click();
        await expectSideMenu(page, true);
        await shot(page, 'side-menu-signed-in-en');
        await page.getByRole('button', { name: 'العربية' }).click();
        await page.waitForFunction(() => document.documentElement.dir === 'rtl');
        await page.touchscreen.tap(20, 420);
        await expectSideMenu(page, false);
        await page.getByRole('link', { name: 'سجل العمليات' }).waitFor();
        await shot(page, 'profile-ar');
        await page.getByRole('link', { name: 'سجل العمليات' }).click();
        await page.getByTestId('operations').waitFor();
        await shot(page, 'history-ar');
        await page.goto('/profile/cashback');
        await page.getByTestId('cashback-amount').waitFor();
        await shot(page, 'cashback-ar');
        await page.evaluate(() => localStorage.setItem('carthage.lang', 'en'));
        await page.goto('/profile');
        await page.getByRole('button', { name: 'Log out' }).click();
        await expectToast(page, 'You are signed out.');
        await page.getByRole('banner').getByRole('button', { name: 'Log in' }).waitFor();
        assert((await page.getByTestId('header-id').count()) === 0, 'header still shows the id after logout');
        assertNoPageErrors(errors);
      },
    },
  ];
}

/**
 * @typedef {object} TestContext
 * @property {import('playwright-core').BrowserContext} context fresh mobile browser context
 * @property {AbortSignal} signal aborted when the test times out
 * @property {(line: string) => void} note diagnostic line printed under the result
 */

/**
 * The helpers a suite module under web/e2e/ receives: each such module exports
 * `tests(helpers)` returning more `{ name, run }` tests (one module per feature, so
 * features add browser tests without editing this runner).
 */
const helpers = {
  BASE, urlOf, assert, http, parseJson, api, collectErrors, assertNoPageErrors, freshPhone, outbox,
  phoneAccount, newPlayerPage, swipe, expectToast, shot, signIn, openHome, adminToken, staffToken, totpCode,
};

async function suiteTests() {
  const dir = new URL('../e2e/', import.meta.url);
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.mjs')).sort();
  /** @type {{ name: string, run: (t: TestContext) => Promise<void> }[]} */
  const out = [];
  for (const file of files) {
    const mod = await import(new URL(file, dir).href);
    out.push(...mod.tests(helpers));
  }
  return out;
}

/** @type {{ name: string, run: (t: TestContext) => Promise<void> }[]} */
const tests = [
  ...appTests(),
  ...(await suiteTests()),
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
    if (failure !== undefined) {
      // What the page showed when it failed, for diagnosis.
      const slug = test.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
      await mkdir(SCREENSHOT_DIR, { recursive: true }).catch(() => {});
      for (const [i, p] of context.pages().entries()) {
        const path = `${SCREENSHOT_DIR}failed-${slug}-${i}.png`;
        if (await p.screenshot({ path, timeout: 3000 }).then(() => true, () => false)) notes.push(`failure screenshot: ${path}`);
      }
    }
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
    // E2E_ONLY=text runs the tests whose name contains it (for debugging).
    const only = process.env.E2E_ONLY;
    for (const test of only ? tests.filter((t) => t.name.includes(only)) : tests) {
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
