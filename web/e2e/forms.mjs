// @ts-check
/**
 * Forms (issue 10 points 2 and 5): server field refusals shown under the field in the
 * player's language, the live password-strength rule, one toast per cause (a form's success
 * removes its error toast), the explanation a non-player account gets when it signs in to
 * the player app, and phone recovery that survives a wrong code with the attempts left.
 * Screenshots of the changed screens in en/fr/ar at 390 and 320 px.
 */
import { readFileSync } from 'node:fs';

/** @param {string} lang @param {string} ns */
const load = (lang, ns) => JSON.parse(readFileSync(new URL(`../src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
const LANGS = /** @type {const} */ (['en', 'fr', 'ar']);
/** @type {Record<string, { common: any, account: any, errors: any }>} */
const T = Object.fromEntries(LANGS.map((l) => [l, { common: load(l, 'common'), account: load(l, 'account'), errors: load(l, 'errors') }]));

/**
 * A page in `lang` (stored before the app starts).
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} lang
 */
async function pageIn(context, lang) {
  const page = await context.newPage();
  await page.addInitScript((l) => localStorage.setItem('carthage.lang', l), lang);
  return page;
}

/**
 * Opens /home in the page's language (the shared `openHome` waits for English labels).
 * @param {import('playwright-core').Page} page
 */
async function openHomeIn(page) {
  const response = await page.goto('/home', { waitUntil: 'domcontentloaded' });
  if (response?.status() !== 200) throw new Error(`GET /home answered HTTP ${response?.status()}`);
  await page.getByRole('banner').waitFor();
  await page.locator('nav').first().waitFor();
}

/**
 * Signs a phone account in from the page (the session cookie is the browser's).
 * @param {import('playwright-core').Page} page
 * @param {string} phone
 * @param {string} password
 */
async function signInByApi(page, phone, password) {
  const status = await page.evaluate(async ([p, pw]) => {
    const r = await fetch('/api/user/login/phone', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ phone: p, password: pw }) });
    return (await r.json()).status;
  }, [phone, password]);
  if (status !== 0) throw new Error(`sign-in answered ${status}`);
}

/**
 * The text under the field whose wire name is `name` (null when there is none).
 * @param {import('playwright-core').Locator | import('playwright-core').Page} scope
 * @param {string} name
 */
const fieldError = (scope, name) => scope.locator(`[data-field="${name}"] [data-testid="field-error"]`);

/**
 * Screenshots at 390 and 320 px wide.
 * @param {any} h
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
async function shots(h, page, name) {
  await h.shot(page, `${name}-390`);
  await page.setViewportSize({ width: 320, height: 720 });
  await h.shot(page, `${name}-320`);
  const wide = await page.evaluate(() => {
    const over = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && el.getBoundingClientRect().width > 0)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)}:${Math.round(el.getBoundingClientRect().right)}`);
    return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, over: over.slice(0, 6) };
  });
  await page.setViewportSize({ width: 390, height: 844 });
  return wide;
}

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  return [
    {
      name: 'forms: an under-18 birth date shows the translated reason under the birth-date field (en, fr, ar)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const password = 'Player42';
        const phone = await h.phoneAccount(signal, password);
        for (const lang of LANGS) {
          const page = await pageIn(context, lang);
          const errors = h.collectErrors(page);
          await openHomeIn(page);
          await signInByApi(page, phone, password);
          await page.goto('/profile/personal', { waitUntil: 'domcontentloaded' });
          const birth = page.locator('input[name="birth_date"]');
          await birth.waitFor();
          await birth.fill('2015-06-01');
          await page.locator('form button[type="submit"]').click();
          const expected = T[lang].errors.field.underage;
          const under = fieldError(page, 'birth_date');
          await under.filter({ hasText: expected }).waitFor({ timeout: 10_000 });
          h.assert((await birth.getAttribute('aria-invalid')) === 'true', 'the birth date is not marked invalid');
          const describedBy = (await birth.getAttribute('aria-describedby')) ?? '';
          h.assert(describedBy.includes((await under.getAttribute('id')) ?? '-'), 'the message does not describe the input');
          h.assert((await page.getByTestId('toast').count()) === 0, 'a field refusal also raised a toast');
          note(`${lang}: under the birth date: ${expected}`);
          await shots(h, page, `forms-profile-underage-${lang}`);
          // Editing the field clears its message; a valid date saves.
          await birth.fill('1990-05-17');
          h.assert((await under.count()) === 0, 'the message stayed after editing');
          await page.locator('form button[type="submit"]').click();
          await h.expectToast(page, T[lang].account.profileUpdated ?? T[lang].common.profileUpdated);
          h.assertNoPageErrors(errors);
          await page.close();
        }
      },
    },
    {
      name: 'forms: two identical failures leave one toast, and the form’s success removes it',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const password = 'Player42';
        const phone = await h.phoneAccount(signal, password);
        const page = await pageIn(context, 'en');
        await openHomeIn(page);
        await signInByApi(page, phone, password);
        await page.goto('/profile/personal', { waitUntil: 'domcontentloaded' });
        const first = page.locator('input[name="first_name"]');
        await first.waitFor();
        await first.fill('Ali');
        // The network drops the save twice: a failure that names no field, so a toast.
        await page.route('**/api/user/profile/additional/update', (route) => route.abort('internetdisconnected'));
        const save = page.locator('form button[type="submit"]');
        await save.click();
        await h.expectToast(page, T.en.errors.network);
        await save.click();
        await page.waitForTimeout(500);
        const errorToasts = page.locator('[data-testid="toast"][data-type="error"]');
        const count = await errorToasts.count();
        h.assert(count === 1, `${count} error toasts after two identical failures, expected 1`);
        note('two identical failures: 1 error toast');
        // The network is back: the save succeeds and the stale error toast goes.
        await page.unroute('**/api/user/profile/additional/update');
        await save.click();
        await h.expectToast(page, T.en.common.profileUpdated ?? T.en.account.profileUpdated);
        h.assert((await errorToasts.count()) === 0, 'the error toast stayed after the form succeeded');
        note('after the success: 0 error toasts, 1 success toast');
      },
    },
    {
      name: 'forms: password strength updates while typing, and a weak password cannot be sent (en, fr, ar)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, note }) {
        for (const lang of LANGS) {
          const page = await pageIn(context, lang);
          const errors = h.collectErrors(page);
          await openHomeIn(page);
          await page.getByRole('banner').getByRole('button', { name: T[lang].common.register }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByTestId('auth-registration').waitFor();
          const input = dialog.locator('input[name="password"]');
          const meter = dialog.getByTestId('password-strength');
          const status = dialog.getByTestId('password-strength-status');
          h.assert((await input.getAttribute('aria-describedby'))?.includes((await meter.getAttribute('id')) ?? '-'), 'the rule does not describe the input');
          h.assert((await status.getAttribute('aria-live')) === 'polite', 'the strength status is not a live region');
          /** @type {[string, string][]} */
          const steps = [['a', 'weak'], ['b1', 'weak'], ['2', 'fair'], ['cd', 'strong']];
          const seen = [];
          for (const [typed, level] of steps) {
            await input.pressSequentially(typed);
            await page.waitForFunction(
              ([l]) => document.querySelector('[data-testid="password-strength"]')?.getAttribute('data-level') === l,
              [level],
              { timeout: 5000 },
            );
            const text = (await status.textContent()) ?? '';
            h.assert(text === T[lang].common.passwordStrength[level], `${lang} ${level}: status ${JSON.stringify(text)}`);
            seen.push(`${await input.inputValue()}→${level}`);
          }
          note(`${lang}: ${seen.join(', ')}`);
          // A weak password with everything else filled in: the form cannot be sent.
          await input.fill('abc12');
          await dialog.locator('input[name="repeat"]').fill('abc13');
          await dialog.locator('input[name="repeat"]').blur();
          await fieldError(dialog, 'repeat').filter({ hasText: T[lang].common.repeatPasswordMismatch }).waitFor();
          await shots(h, page, `forms-password-strength-${lang}`);
          h.assertNoPageErrors(errors);
          await page.close();
        }
      },
    },
    {
      name: 'forms: a wrong SMS code at sign-up shows under the code field with the attempts left (en, ar)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        for (const lang of /** @type {const} */ (['en', 'ar'])) {
          const page = await pageIn(context, lang);
          const errors = h.collectErrors(page);
          await openHomeIn(page);
          await page.getByRole('banner').getByRole('button', { name: T[lang].common.register }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByTestId('auth-registration').waitFor();
          const phone = h.freshPhone();
          await dialog.locator('input[name="phone"]').fill(phone.slice(3));
          const sent = Date.now();
          await dialog.getByRole('button', { name: T[lang].account.sendCode }).click();
          const code = await h.outbox(phone, signal, 'code', sent);
          await dialog.locator('input[name="code"]').fill(code === '000000' ? '111111' : '000000');
          await dialog.locator('input[name="password"]').fill('Secret12');
          await dialog.locator('input[name="repeat"]').fill('Secret12');
          await dialog.getByRole('checkbox').check();
          await dialog.locator('form button[type="submit"]').click();
          const under = fieldError(dialog, 'code');
          await under.filter({ hasText: T[lang].errors.field.code_mismatch }).waitFor({ timeout: 10_000 });
          const text = (await under.textContent()) ?? '';
          const left = lang === 'en' ? '4 attempts left.' : T.ar.account.forms.attemptsLeft_few.replace('{{count}}', '4');
          h.assert(text.includes(left), `${lang}: ${JSON.stringify(text)} lacks ${JSON.stringify(left)}`);
          note(`${lang}: ${text}`);
          await dialog.locator('input[name="code"]').scrollIntoViewIfNeeded();
          await shots(h, page, `forms-signup-wrong-code-${lang}`);
          // The right code signs the new player in.
          await dialog.locator('input[name="code"]').fill(code);
          await dialog.locator('form button[type="submit"]').click();
          await page.getByTestId('header-id').waitFor();
          await page.evaluate(() => fetch('/api/user/logout'));
          h.assertNoPageErrors(errors);
          await page.close();
        }
      },
    },
    {
      name: 'forms: a cashier (and an admin) signing in sees where their tools are and ends signed out (en, fr, ar)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, note }) {
        // The demo accounts of `carthage seed` (demo mode).
        const accounts = [
          ['en', 'cashier@carthage.local', 'Cashier123', 2],
          ['fr', 'cashier@carthage.local', 'Cashier123', 2],
          ['ar', 'cashier@carthage.local', 'Cashier123', 2],
          ['en', 'admin@carthage.local', 'Admin1234', 4],
        ];
        for (const [lang, login, password, role] of /** @type {[string, string, string, number][]} */ (accounts)) {
          const page = await pageIn(context, lang);
          const errors = h.collectErrors(page);
          await openHomeIn(page);
          await page.getByRole('banner').getByRole('button', { name: T[lang].common.login }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByTestId('auth-login').waitFor();
          await dialog.getByRole('tab', { name: T[lang].account.byLogin }).click();
          await dialog.locator('input[name="login"]').fill(login);
          await dialog.locator('input[name="password"]').fill(password);
          await dialog.locator('form button[type="submit"]').click();
          const notice = dialog.getByTestId('staff-notice');
          await notice.waitFor({ timeout: 10_000 });
          const text = (await notice.textContent()) ?? '';
          h.assert(text.includes(T[lang].account.forms[`staff${role}`]), `${lang}: the notice lacks the role text: ${text}`);
          h.assert(text.includes(T[lang].account.forms.staffSignedOut), `${lang}: the notice does not say they were signed out`);
          // Signed out: the server has no session for this browser and the header offers to log in.
          const check = await page.evaluate(async () => (await (await fetch('/api/user/check')).json()).status);
          h.assert(check === 23, `the check answered ${check} after a staff sign-in, expected 23 (no session)`);
          h.assert((await page.getByTestId('header-id').count()) === 0, 'the header shows a signed-in account');
          note(`${lang} role ${role}: ${T[lang].account.forms[`staff${role}`]}`);
          if (role === 2) note(JSON.stringify(await shots(h, page, `forms-staff-cashier-${lang}`)));
          // Back to the sign-in form.
          await notice.getByRole('button').click();
          await dialog.locator('input[name="login"]').waitFor();
          h.assertNoPageErrors(errors);
          await page.close();
        }
        // The automatic sign-in link (`log`/`pas` as character codes, spec §7) of a staff
        // account: the same notice, in the login modal the app opens for it.
        const codes = (/** @type {string} */ text) => [...text].map((c) => c.charCodeAt(0)).join(',');
        const page = await pageIn(context, 'fr');
        const errors = h.collectErrors(page);
        await page.goto(`/home?log=${codes('cashier@carthage.local')}&pas=${codes('Cashier123')}`);
        const notice = page.getByRole('dialog').getByTestId('staff-notice');
        await notice.waitFor({ timeout: 10_000 });
        h.assert(((await notice.textContent()) ?? '').includes(T.fr.account.forms.staff2), 'log/pas: the cashier notice is missing');
        const check = await page.evaluate(async () => (await (await fetch('/api/user/check')).json()).status);
        h.assert(check === 23, `log/pas: the check answered ${check} after a staff sign-in, expected 23`);
        note('fr log/pas link of a cashier: the notice shows in the login modal, signed out');
        h.assertNoPageErrors(errors);
        await page.close();
      },
    },
    {
      name: 'forms: a wrong recovery code keeps the modal open with the attempts left, then the right code works',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        for (const lang of LANGS) {
          const password = 'Player42';
          const phone = await h.phoneAccount(signal, password);
          const page = await pageIn(context, lang);
          const errors = h.collectErrors(page);
          await openHomeIn(page);
          await page.getByRole('banner').getByRole('button', { name: T[lang].common.login }).click();
          const dialog = page.getByRole('dialog');
          await dialog.getByRole('button', { name: T[lang].account.forgotPassword }).click();
          await dialog.getByTestId('auth-restore1').waitFor();
          const sent = Date.now();
          await dialog.locator('input[name="phone"]').fill(phone.replace(/^216/, ''));
          await dialog.locator('form button[type="submit"]').click();
          await dialog.getByTestId('auth-restore2').waitFor();
          const code = await h.outbox(phone, signal, 'code', sent);
          const wrong = code === '000000' ? '111111' : '000000';
          await dialog.locator('input[name="code"]').fill(wrong);
          await dialog.locator('input[name="new_password"]').fill('Newpass77');
          await dialog.locator('input[name="confirm"]').fill('Newpass77');
          await dialog.locator('form button[type="submit"]').click();
          const expected = `${T[lang].errors.field.code_mismatch} ${lang === 'en' ? '4 attempts left.' : T[lang].account.forms[lang === 'ar' ? 'attemptsLeft_few' : 'attemptsLeft_other'].replace('{{count}}', '4')}`;
          const under = fieldError(dialog, 'code');
          await under.filter({ hasText: expected }).waitFor({ timeout: 10_000 });
          h.assert(await dialog.isVisible(), 'the modal closed after a wrong code');
          h.assert((await dialog.getByTestId('auth-restore2').count()) === 1, 'the modal left the code step');
          note(`${lang}: ${expected}`);
          await shots(h, page, `forms-restore-wrong-code-${lang}`);
          // The right code: the password changes and the modal closes.
          await dialog.locator('input[name="code"]').fill(code);
          await dialog.locator('form button[type="submit"]').click();
          await h.expectToast(page, T[lang].common.recoverySuccess ?? T[lang].account.recoverySuccess);
          await dialog.waitFor({ state: 'hidden' });
          await signInByApi(page, phone, 'Newpass77');
          // The next language starts signed out (the context shares the cookie).
          await page.evaluate(() => fetch('/api/user/logout'));
          h.assertNoPageErrors(errors);
          await page.close();
        }
      },
    },
  ];
}
