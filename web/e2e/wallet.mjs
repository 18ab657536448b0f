// @ts-check
/**
 * Money as a new player sees it: the demo credit on sign-up, studio rounds played through
 * the game client API, then the header balance and the operations history agree with the
 * rounds (every stake and win is a ledger posting).
 */

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  return [
    {
      name: 'wallet: demo credit, studio rounds, then balance and operations history agree',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors, phone, password } = await h.newPlayerPage(context, signal);
        // Five dice rolls and two slot spins through the studio client API, as the game frame does.
        const played = await page.evaluate(async () => {
          /** @param {string} path @param {any} body @param {Record<string,string>} [headers] */
          const post = async (path, body, headers = {}) => {
            const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
            const env = await r.json();
            if (env.status !== 0) throw new Error(`${path}: ${JSON.stringify(env)}`);
            return env.result;
          };
          const rounds = [];
          for (const [gameId, calls] of /** @type {const} */ ([['dice', 5], ['neon-fruits', 2]])) {
            const launch = await post('/api/casino/session', { provider: 'studio', gameId, lang: 'en', platform: 'mobile' });
            const headers = { 'X-Game-Session': launch.sessionToken };
            for (let i = 0; i < calls; i += 1) {
              const r = gameId === 'dice'
                ? await post('/api/studio/dice/roll', { amount: 1000, target: 5000, over: i % 2 === 0 }, headers)
                : await post('/api/studio/slots/spin', { bet: 1000 }, headers);
              rounds.push({ bet: r.bet, win: r.win, balance: r.balance });
            }
          }
          return rounds;
        });
        const stakes = played.reduce((s, r) => s + r.bet, 0);
        const wins = played.reduce((s, r) => s + r.win, 0);
        const expected = 500_000 - stakes + wins; // minor units: 500 TND demo credit
        h.assert(played[played.length - 1].balance === expected, `last round balance ${played[played.length - 1].balance}, expected ${expected}`);
        const major = `${Math.floor(expected / 1000)}.${String(expected % 1000).padStart(3, '0')}`;
        note(`7 rounds: stakes ${stakes}, wins ${wins} (minor units); balance ${major} TND`);
        // The header follows (balance poll or a fresh load).
        await page.reload();
        await page.getByTestId('header-balance').filter({ hasText: major }).first().waitFor({ timeout: 20_000 });
        // The operations history holds the credit, every stake and every win, summing to the balance.
        const history = await page.evaluate(async () => {
          const r = await fetch('/api/user/transactions?limit=500');
          return (await r.json()).result;
        });
        const real = history.filter((e) => e.purse === 'real');
        const of = (mode) => real.filter((e) => e.payment_mode === mode);
        const toMinor = (v) => Math.round(Number(v) * 1000);
        const winning = played.filter((r) => r.win > 0).length;
        h.assert(of(202).length === 1 && toMinor(of(202)[0].value) === 500_000, `demo credit: ${JSON.stringify(of(202))}`);
        h.assert(of(203).length === 7, `stakes in history: ${of(203).length}`);
        h.assert(of(6).length === winning, `wins in history: ${of(6).length}, winning rounds ${winning}`);
        const sum = real.reduce((s, e) => s + toMinor(e.value), 0);
        h.assert(sum === expected, `history sums to ${sum}, balance ${expected}`);
        // And the screen shows them.
        await page.goto('/profile/history');
        const ops = page.getByTestId('operations');
        await ops.getByText('Bet stake').first().waitFor();
        note(`history: 1 credit, ${of(203).length} stakes, ${of(6).length} wins; sum ${sum} = balance`);
        h.assertNoPageErrors(errors);
      },
    },
  ];
}
