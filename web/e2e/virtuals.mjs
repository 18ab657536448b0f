// @ts-check
/**
 * The studio's virtual races (docs/VIRTUALS.md) as a player sees them: a new player opens
 * /virtual-games, picks horse racing, bets on the next race from the runners card, watches it run
 * and sees the bet settle (the balance follows to the millime); the revealed seed matches the hash
 * committed before betting. A guest browses the lobby and the speedway page in Arabic at 320 px.
 * The test server runs the races' timetable 10× faster (VIRTUALS_SPEED=10: a horse race every
 * 18 s, shown for 4 s); the draw and the prices are unchanged.
 */
import { createHash } from 'node:crypto';

/** @param {any} h helpers of web/scripts/e2e.mjs */
export function tests(h) {
  const { assert, assertNoPageErrors, collectErrors, shot, urlOf } = h;

  /** @param {import('playwright-core').Page} page */
  const balanceMinor = async (page) =>
    page.evaluate(async () => {
      const env = await (await fetch('/api/user/balance')).json();
      return Math.round(Number(env.result.balance) * 1000);
    });
  /** @param {import('playwright-core').Page} page */
  const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  return [
    {
      name: 'virtuals: a new player bets on the next horse race, watches it run and sees the bet settle (en)',
      /** @param {{ context: import('playwright-core').BrowserContext, signal: AbortSignal, note: (l: string) => void }} t */
      async run({ context, signal, note }) {
        const { page, errors } = await h.newPlayerPage(context, signal);
        const before = await balanceMinor(page);
        await page.goto('/virtual-games');
        const card = page.getByTestId('virtual-card-horses');
        await card.waitFor();
        const order = await page.locator('[data-testid^="virtual-card-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
        assert(order.join() === 'virtual-card-horses,virtual-card-greyhounds,virtual-card-speedway', `lobby order: ${order.join()}`);
        await shot(page, 'virtuals-lobby-en-390');
        await card.click();
        await page.getByTestId('runners-card').waitFor();

        // Bet 1 TND to win on runner 1 of a race that closes in more than 3 s (else the next one).
        let placed = false;
        for (let attempt = 0; attempt < 4 && !placed; attempt += 1) {
          const chips = page.getByTestId('race-chip');
          await chips.first().waitFor();
          const left = await chips.first().locator('small').textContent();
          const secs = Number((left ?? '0:0').split(':').pop());
          await (secs > 3 || (await chips.count()) < 2 ? chips.first() : chips.nth(1)).click();
          await page.getByTestId('price-win').first().click();
          await page.getByTestId('virtual-stake').fill('1');
          const potential = (await page.getByTestId('virtual-potential').textContent()) ?? '';
          assert(/TND/.test(potential), `no potential win shown: ${potential}`);
          await page.getByTestId('virtual-place').click();
          placed = await page.getByTestId('virtual-bet-placed').waitFor({ timeout: 5_000 }).then(() => true, () => false);
          if (!placed) note(`attempt ${attempt + 1}: ${(await page.getByTestId('virtual-slip-error').textContent().catch(() => '')) ?? ''}`);
        }
        assert(placed, 'the bet was never placed');
        await shot(page, 'virtuals-bet-placed-en-390');
        const bets = await page.evaluate(async () => (await (await fetch('/api/virtuals/bets')).json()).result);
        const bet = bets[0];
        assert(bet && bet.stake === 1000 && bet.kind === 'win', `my bet: ${JSON.stringify(bet).slice(0, 200)}`);
        assert((await balanceMinor(page)) === before - 1000, 'the stake did not leave the balance');

        // The race runs on the track, then the bet settles.
        await page.getByTestId('race-track').waitFor();
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByTestId('race-live').waitFor({ timeout: 30_000 });
        await page.waitForTimeout(1_500);
        await shot(page, 'virtuals-running-en-390');
        const row = page.locator('[data-testid="virtual-bet"][data-status="won"], [data-testid="virtual-bet"][data-status="lost"]').first();
        await row.waitFor({ timeout: 40_000 });
        const settled = (await page.evaluate(async () => (await (await fetch('/api/virtuals/bets')).json()).result)).find((/** @type {any} */ b) => b.id === bet.id);
        const price = Math.round(Number(settled.price) * 100);
        const expected = settled.status === 'won' ? Math.floor((1000 * price) / 100) : 0;
        assert(settled.win === expected, `win ${settled.win}, expected ${expected} at ${settled.price}`);
        assert((await balanceMinor(page)) === before - 1000 + expected, 'the balance does not follow the settlement');
        note(`${settled.status} at ${settled.price}: ${settled.win} millimes`);

        // The seed revealed after the race is the one committed before betting.
        const detail = await page.evaluate(async (id) => (await (await fetch(`/api/virtuals/races/${id}`)).json()).result, bet.raceId);
        const commit = createHash('sha256').update(Buffer.concat([Buffer.from(detail.race.seed, 'hex'), Buffer.from('race')])).digest('hex');
        assert(commit === detail.race.commitHash, 'the revealed seed does not match the committed hash');
        assert(typeof detail.recipe === 'string' && detail.recipe.includes(detail.race.seed), 'no verification script');
        await page.getByTestId('virtual-fairness').locator('summary').click();
        await page.getByTestId('revealed-seed').first().waitFor();
        await page.getByTestId('virtual-fairness').evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 70));
        await shot(page, 'virtuals-fairness-en-390');
        assert((await overflow(page)) <= 0, 'the race page overflows at 390 px');
        assertNoPageErrors(errors);
      },
    },
    {
      name: 'virtuals: a guest browses the studio races in Arabic at 320 px',
      /** @param {{ context: import('playwright-core').BrowserContext }} t */
      async run({ context }) {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await page.setViewportSize({ width: 320, height: 740 });
        await page.goto(urlOf('/home'));
        await page.evaluate(() => localStorage.setItem('carthage.lang', 'ar'));
        await page.goto(urlOf('/virtual-games'));
        await page.waitForFunction(() => document.documentElement.dir === 'rtl');
        await page.getByTestId('virtual-card-speedway').waitFor();
        assert((await overflow(page)) <= 0, 'the lobby overflows at 320 px');
        await shot(page, 'virtuals-lobby-ar-320');
        await page.getByTestId('virtual-card-speedway').click();
        await page.getByTestId('runners-card').waitFor();
        await page.getByTestId('price-win').first().click();
        await page.getByTestId('pick-bar').waitFor();
        assert((await overflow(page)) <= 0, 'the race page overflows at 320 px');
        await shot(page, 'virtuals-speedway-ar-320');
        // A guest is asked to sign in rather than sent a bet.
        await page.getByTestId('virtual-place').click();
        await page.getByRole('dialog').waitFor();
        assertNoPageErrors(errors);
      },
    },
  ];
}
