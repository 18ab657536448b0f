// @ts-check
/**
 * The operations history names the game of every stake and win, with its provider and round,
 * and links each studio round to its fairness record, which the player verifies in the browser
 * (English, French, Arabic). Catalogue texts (game descriptions) come in the app's language.
 */

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  return [
    {
      name: 'history: a sports stake names its bet and event, a deposit its method (English, French, Arabic at 390 and 320 px; issue 18 item 11)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors } = await h.newPlayerPage(context, signal);
        // A single on the line's first open outcome, and a card deposit paid on the sandbox page.
        const placed = await page.evaluate(async () => {
          /** @param {string} path @param {any} body @param {Record<string,string>} [headers] */
          const post = async (path, body, headers = {}) => {
            const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
            const env = await r.json();
            if (env.status !== 0) throw new Error(`${path}: ${JSON.stringify(env)}`);
            return env.result;
          };
          const line = (await (await fetch('/api/sportsbook/line')).json()).result;
          /** @type {any} */
          let pick = null;
          for (const ev of line.events) {
            if (ev.status !== 'not_started' && ev.status !== 'live') continue;
            for (const m of ev.markets) {
              const o = m.status === 'active' ? m.outcomes.find((/** @type {any} */ x) => x.active) : null;
              if (o) {
                pick = { ev, m, o };
                break;
              }
            }
            if (pick) break;
          }
          if (!pick) throw new Error('no open outcome on the line');
          const bet = await post(
            '/api/sportsbook/bets',
            { kind: 'single', stake: 2, odds_policy: 'accept_any', legs: [{ event_id: pick.ev.id, market: pick.m.key, outcome_id: pick.o.id, odds: pick.o.odds }] },
            { 'Idempotency-Key': `hist-${Date.now()}` },
          );
          const token = (await post('/api/payment/token', {})).token;
          const dep = await post('/api/payment/deposit', { amount: 15, sessionToken: token });
          await fetch(dep.invoice_url.split('?')[0], {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: 'action=card&card=4242424242424242',
          });
          for (let i = 0; i < 100; i += 1) {
            const s = (await (await fetch(`/api/payment/intent/${dep.id}`)).json()).result.status;
            if (s === 'succeeded') break;
            await new Promise((r) => setTimeout(r, 200));
          }
          return { id: String(bet.id), event: `${pick.ev.home} – ${pick.ev.away}` };
        });
        const words = {
          en: { bet: 'Bet — ', number: `Bet #${placed.id}`, deposit: 'Deposit — Card' },
          fr: { bet: 'Pari — ', number: `Pari n° ${placed.id}`, deposit: 'Dépôt — Carte' },
          ar: { bet: 'رهان — ', number: `رهان رقم ${placed.id}`, deposit: 'إيداع — بطاقة' },
        };
        for (const lang of /** @type {const} */ (['en', 'fr', 'ar'])) {
          await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
          for (const width of [390, 320]) {
            await page.setViewportSize({ width, height: 844 });
            await page.goto('/profile/history');
            const titles = page.getByTestId('operations').getByTestId('op-title');
            await titles.first().waitFor();
            const all = (await titles.allInnerTexts()).map((t) => t.replace(/[\u2068\u2069]/g, ''));
            h.assert(all.some((t) => t.startsWith(words[lang].bet) && t.includes(placed.event)), `${lang}: no row names the event ${placed.event}: ${JSON.stringify(all)}`);
            const numbers = await page.getByTestId('operations').getByTestId('op-bet').allInnerTexts();
            h.assert(numbers.includes(words[lang].number), `${lang}: no row says ${words[lang].number}: ${JSON.stringify(numbers)}`);
            h.assert(all.includes(words[lang].deposit), `${lang}: no "${words[lang].deposit}" row: ${JSON.stringify(all)}`);
            h.assert(!all.some((t) => /^(Operation|Opération|Payment service)$/.test(t)), `${lang}: an unnamed row: ${JSON.stringify(all)}`);
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            h.assert(overflow <= 0, `${lang} history at ${width}px overflows by ${overflow}px`);
            await h.shot(page, `history-named-${lang}-${width}`);
          }
        }
        await page.evaluate(() => localStorage.setItem('carthage.lang', 'en'));
        await page.setViewportSize({ width: 390, height: 844 });
        note(`bet ${placed.id} (${placed.event}) and the card deposit are named in en, fr and ar`);
        h.assertNoPageErrors(errors);
      },
    },
    {
      name: 'history: game, provider and round on each game posting; the round opens its fairness record, which verifies',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
        // One dice roll, then the seed pair is rotated so the round's server seed is revealed.
        const roundId = await page.evaluate(async () => {
          /** @param {string} path @param {any} body @param {Record<string,string>} [headers] */
          const post = async (path, body, headers = {}) => {
            const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
            const env = await r.json();
            if (env.status !== 0) throw new Error(`${path}: ${JSON.stringify(env)}`);
            return env.result;
          };
          const launch = await post('/api/casino/session', { provider: 'studio', gameId: 'dice', lang: 'en', platform: 'mobile' });
          const headers = { 'X-Game-Session': launch.sessionToken };
          const roll = await post('/api/studio/dice/roll', { amount: 1000, target: 5000, over: true }, headers);
          await post('/api/studio/seeds/rotate', {}, headers);
          return String(roll.roundId);
        });
        await page.goto('/profile/history');
        const ops = page.getByTestId('operations');
        const row = ops.getByRole('listitem').filter({ hasText: roundId }).first();
        await row.waitFor();
        const text = await row.innerText();
        h.assert(/Dice/.test(text) && /Carthage Studio/.test(text) && /Bet (stake|win)/.test(text), `history row: ${JSON.stringify(text)}`);
        await h.shot(page, 'history-games-en');
        await row.getByTestId('op-fairness').click();
        await page.waitForURL(/\/profile\/history\/round\?/);
        const record = page.getByTestId('round-record');
        await record.getByTestId('round-id').filter({ hasText: roundId }).waitFor();
        h.assert(/^[0-9a-f]{64}$/.test((await record.getByTestId('round-server-seed').innerText()).trim()), 'the revealed server seed is shown');
        await record.getByTestId('round-verify').click();
        const verdict = record.getByTestId('round-verdict');
        await verdict.waitFor();
        h.assert((await verdict.getAttribute('data-ok')) === 'true', `verification: ${await verdict.innerText()}`);
        await h.shot(page, 'round-record-en');
        note(`dice round ${roundId}: history row names the game, the record verifies`);

        // French and Arabic: the same screens, translated; the game name stays isolated.
        for (const [lang, label, fairness, verified] of /** @type {const} */ ([
          ['fr', 'Manche', 'Équité', 'Vérifié'],
          ['ar', 'الجولة', 'النزاهة', 'تم التحقق'],
        ])) {
          await page.evaluate((l) => localStorage.setItem('carthage.lang', l), lang);
          await page.goto('/profile/history');
          const r = page.getByTestId('operations').getByRole('listitem').filter({ hasText: roundId }).first();
          await r.waitFor();
          const t = await r.innerText();
          h.assert(t.includes(label) && t.includes(fairness) && t.includes('Dice'), `${lang} history row: ${JSON.stringify(t)}`);
          await h.shot(page, `history-games-${lang}`);
          await r.getByTestId('op-fairness').click();
          await page.getByTestId('round-verify').click();
          const v = page.getByTestId('round-verdict');
          await v.waitFor();
          h.assert((await v.innerText()).includes(verified), `${lang} verdict: ${await v.innerText()}`);
          await h.shot(page, `round-record-${lang}`);
        }

        // Catalogue texts follow the app's language (the lobby asks in <html lang>).
        const descriptions = await page.evaluate(async () => {
          const out = /** @type {Record<string, string>} */ ({});
          for (const lang of ['en', 'fr', 'ar']) {
            const r = await fetch('/api/casino/game_list?provider=studio', { headers: { 'Accept-Language': lang } });
            const dice = (await r.json()).result.find((/** @type {any} */ g) => g.gameId === 'dice');
            out[lang] = dice.description;
          }
          return out;
        });
        h.assert(descriptions.en.startsWith('Roll over'), `en: ${descriptions.en}`);
        h.assert(descriptions.fr.startsWith('Misez'), `fr: ${descriptions.fr}`);
        h.assert(/[\u0600-\u06FF]/.test(descriptions.ar), `ar: ${descriptions.ar}`);
        await page.evaluate(() => localStorage.setItem('carthage.lang', 'en'));
        h.assertNoPageErrors(errors);
      },
    },
  ];
}
