import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import en from '../../locales/en/promotions.json';
import fr from '../../locales/fr/promotions.json';
import ar from '../../locales/ar/promotions.json';
import frCommon from '../../locales/fr/common.json';
import arCommon from '../../locales/ar/common.json';
import { couponWinners, verifyCouponDraw } from './coupons/couponFair';
import { fromHex } from './jackpots/fair';
import HomeJackpots, { JACKPOT_WIDGET_REFRESH_MS } from './home/HomeJackpots';
import CashbackPercentPage from './routes/CashbackPercentPage';
import CouponMachinePage from './routes/CouponMachinePage';

beforeAll(() => {
  i18n.addResourceBundle('en', 'promotions', en, true, true);
  i18n.addResourceBundle('fr', 'promotions', fr, true, true);
  i18n.addResourceBundle('ar', 'promotions', ar, true, true);
  i18n.addResourceBundle('fr', 'common', frCommon, true, true);
  i18n.addResourceBundle('ar', 'common', arCommon, true, true);
});
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

type Lang = 'en' | 'fr' | 'ar';
const LANGS = { en, fr, ar } as const;
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u2066-\u2069\u200e\u200f]/g, '').replace(/[\u202f\u00a0]/g, ' ');
const signedIn = (balance: Record<string, unknown> = {}) => ({
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { ...testBalance, ...balance } },
});
const calls = (fetch: ReturnType<typeof mockApi>, path: string) => fetch.mock.calls.filter(([u]) => String(u).split('?')[0] === path).length;

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  for (let i = 0; i < 3; i++) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
  }
}

const pool = (id: number, key: string, name: string, amount: number) => ({
  id,
  pool: key,
  name,
  image: `/img/jackpots/${key}.svg`,
  currency: 'TND',
  amount,
  startAmount: 100,
  cap: 1000,
  seedHash: '0'.repeat(64),
  cycle: 1,
  timer: 5,
  lastWinner: null,
  isOutcome: false,
});
const POOLS = [pool(1, 'mega', 'Mega', 5123.456), pool(2, 'medium', 'Medium', 1000), pool(3, 'small', 'Small', 100.5)];

describe('the jackpot widget on /home', () => {
  it('shows a guest the three pools from /api/jackpots, refreshed every 60 s, linking to /profile/jackpots', async () => {
    expect(JACKPOT_WIDGET_REFRESH_MS).toBe(60_000);
    vi.useFakeTimers();
    let amount = 100.5;
    const fetch = mockApi({ '/api/jackpots': () => ok([POOLS[0], POOLS[1], { ...POOLS[2], amount }]) });
    renderApp(<HomeJackpots />);
    for (let i = 0; i < 20 && !screen.queryByTestId('home-jackpots'); i++) await advance(10);
    const widget = screen.getByTestId('home-jackpots');
    expect(widget.getAttribute('href')).toBe('/profile/jackpots');
    expect(['mega', 'medium', 'small'].map((k) => plain(screen.getByTestId(`home-jackpot-${k}`).textContent))).toEqual([
      'Mega5,123.456 TND',
      'Medium1,000.000 TND',
      'Small100.500 TND',
    ]);
    expect(calls(fetch, '/api/jackpots')).toBe(1);
    amount = 101.25;
    await advance(JACKPOT_WIDGET_REFRESH_MS - 100);
    expect(calls(fetch, '/api/jackpots')).toBe(1);
    await advance(200);
    expect(calls(fetch, '/api/jackpots')).toBe(2);
    expect(plain(screen.getByTestId('home-jackpot-small').textContent)).toBe('Small101.250 TND');
  });

  for (const [lang, names] of [
    ['fr', ['Mega', '5 123,456 TND']],
    ['ar', ['ميغا', '5,123.456 TND']],
  ] as const) {
    it(`uses a signed-in player's balance reply, with no request of its own (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      const fetch = mockApi({ '/api/jackpots': ok(POOLS) });
      renderApp(<HomeJackpots />, { state: signedIn({ jackpots: POOLS.map(({ id, pool: p, name, image, amount, currency, timer }) => ({ id, pool: p, name, image, amount, currency, timer })) }) });
      const mega = await screen.findByTestId('home-jackpot-mega');
      expect(plain(mega.textContent)).toBe(names.join(''));
      expect(calls(fetch, '/api/jackpots')).toBe(0);
    });
  }

  it('renders nothing when no pool exists', async () => {
    mockApi({ '/api/jackpots': ok([]) });
    const { container } = renderApp(<HomeJackpots />);
    await waitFor(() => expect(container.querySelector('[aria-hidden]')).toBeNull());
    expect(screen.queryByTestId('home-jackpots')).toBeNull();
  });
});

// A draw computed by a separate port of crates/promotions/src/coupons.rs `draw` (Python hmac +
// hashlib): seed 0x01 × 32, coupons 00000001 … 00000100, 12 winners.
const SEED = '01'.repeat(32);
const SEED_HASH = '72cd6e8422c407fb6d098690f1130b7ded7ec2f7f5e1d30bd9d521f015363793';
const NUMBERS = Array.from({ length: 100 }, (_, i) => String(i + 1).padStart(8, '0'));
const WINNERS = ['00000011', '00000079', '00000007', '00000035', '00000048', '00000058', '00000063', '00000034', '00000053', '00000033', '00000004', '00000040'];
const drawn = { id: 'may-2026', seedHash: SEED_HASH, seed: SEED, winnersCount: 12, coupons: null, winners: WINNERS, announcedAt: Date.UTC(2026, 4, 1), drawnAt: Date.UTC(2026, 4, 10) };
const announced = { id: 'june-2026', seedHash: 'ab'.repeat(32), seed: null, winnersCount: 12, coupons: null, winners: null, announcedAt: Date.UTC(2026, 5, 1), drawnAt: null };

describe('the coupon draw verifier', () => {
  it('recomputes a known draw and refuses a tampered one', async () => {
    expect(await couponWinners(fromHex(SEED)!, NUMBERS, 12)).toEqual(WINNERS);
    const full = { ...drawn, coupons: NUMBERS };
    expect(await verifyCouponDraw(full)).toBe(true);
    expect(await verifyCouponDraw({ ...full, winners: [...WINNERS.slice(0, 11), '00000001'] })).toBe(false);
    expect(await verifyCouponDraw({ ...full, winners: [WINNERS[1]!, WINNERS[0]!, ...WINNERS.slice(2)] })).toBe(false);
    expect(await verifyCouponDraw({ ...full, seedHash: 'ff'.repeat(32) })).toBe(false);
    expect(await verifyCouponDraw({ ...full, coupons: NUMBERS.filter((n) => n !== '00000011') })).toBe(false);
    expect(await verifyCouponDraw({ ...announced })).toBe(false);
  });
});

const machine = (count: number, list: { id: string; number: string; mainCouponId: string; issuedAt: number }[] = []) => ({
  total: list.length,
  main: { id: '5', number: '00000042', todayTotalBetsCount: count, todayTotalBetsLimit: 500, activatedDate: Date.UTC(2026, 10, 1) },
  list,
});

describe('the coupon machine page', () => {
  it('shows a guest the rules, the draws and a sign-in call to action, and asks nothing of the player API', async () => {
    const fetch = mockApi({ '/api/promotions/coupon-draws': ok([announced]) });
    const { store } = renderApp(<CouponMachinePage />);
    expect(await screen.findByTestId('coupon-guest')).toBeTruthy();
    expect(within(screen.getByTestId('coupon-rules')).getAllByRole('listitem').map((li) => li.textContent)[0]).toBe('Every day your first 500 spins in the casino earn one coupon.');
    fireEvent.click(screen.getByRole('button', { name: en.page.signIn }));
    expect(store.getState().auth.authModal).toEqual({ type: 'login', isOpen: true });
    await screen.findByTestId('coupon-draw');
    expect(screen.queryByTestId('coupon-verify')).toBeNull();
    expect(calls(fetch, '/api/user/coupon-machine')).toBe(0);
  });

  const cases: [Lang, string, string][] = [
    ['en', '499 / 500 spins today', 'Spins to your next coupon: 1'],
    ['fr', '499 / 500 tours aujourd’hui', 'Tours avant votre prochain coupon : 1'],
    ['ar', '499 / 500 دورة اليوم', 'الدورات المتبقية لقسيمتك التالية: 1'],
  ];
  for (const [lang, spins, left] of cases) {
    it(`shows today's spins toward 500, the coupons, a winning coupon, and verifies a draw (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      const fetch = mockApi({
        '/api/user/coupon-machine': ok(machine(499, [{ id: '9', number: '00000011', mainCouponId: '5', issuedAt: Date.UTC(2026, 4, 2) }])),
        '/api/promotions/coupon-draws/may-2026': ok({ ...drawn, coupons: NUMBERS }),
        '/api/promotions/coupon-draws': ok([drawn, announced]),
      });
      renderApp(<CouponMachinePage />, { state: signedIn() });
      const today = await screen.findByTestId('coupon-today');
      expect(within(today).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('99');
      expect(plain(screen.getByTestId('coupon-spins').textContent)).toBe(spins);
      expect(plain(screen.getByTestId('coupon-left').textContent)).toBe(left);
      expect(screen.getAllByTestId('coupon')).toHaveLength(1);
      // The player's coupon 00000011 is the draw's first winner.
      await waitFor(() => expect(screen.getByTestId('coupon').textContent).toContain(LANGS[lang].coupons.won));
      const [first] = screen.getAllByTestId('coupon-draw');
      fireEvent.click(within(first!).getByTestId('coupon-verify'));
      expect((await within(first!).findByTestId('coupon-verdict')).textContent).toBe(LANGS[lang].coupons.verified);
      expect(calls(fetch, '/api/promotions/coupon-draws/may-2026')).toBe(1);
    });
  }

  it('says the day is done at 500 and shows a failed verification as such', async () => {
    mockApi({
      '/api/user/coupon-machine': ok(machine(512)),
      '/api/promotions/coupon-draws/may-2026': ok({ ...drawn, coupons: NUMBERS, winners: [...WINNERS].reverse() }),
      '/api/promotions/coupon-draws': ok([{ ...drawn, winners: [...WINNERS].reverse() }]),
    });
    renderApp(<CouponMachinePage />, { state: signedIn() });
    expect((await screen.findByTestId('coupon-left')).textContent).toBe(en.coupons.doneToday);
    expect(screen.getByTestId('coupon-today').querySelector('[role=progressbar]')?.getAttribute('aria-valuenow')).toBe('100');
    fireEvent.click(await screen.findByTestId('coupon-verify'));
    expect((await screen.findByTestId('coupon-verdict')).textContent).toBe(en.coupons.mismatch);
  });
});

// Not the spec's figures: the page must show what the server says, not a copy.
const RULE = {
  tiers: [
    { from: 20, bps: 450 },
    { from: 1000, bps: 925 },
  ],
  cap: 7500,
  zone: 'Africa/Tunis',
  week: '2026-W48',
  paysAt: Date.UTC(2026, 10, 29, 23, 0),
  minTransfer: 10,
};

describe('the cashback percent page', () => {
  const cases: [Lang, string[], string, string][] = [
    ['en', ['20.000 TND', '4.5%', '1,000.000 TND', '9.25%'], 'Up to 9.25% back', 'At most 7,500.000 TND a week.'],
    ['fr', ['20,000 TND', '4,5 %', '1 000,000 TND', '9,25 %'], 'Jusqu’à 9,25 % remboursés', 'Au plus 7 500,000 TND par semaine.'],
    ['ar', ['20.000 TND', '4.5%', '1,000.000 TND', '9.25%'], 'استرداد حتى 9.25%', 'بحد أقصى 7,500.000 TND في الأسبوع.'],
  ];
  for (const [lang, cells, upTo, cap] of cases) {
    it(`shows the server's tiers and cap, and this week's accrued cashback to a player (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      mockApi({ '/api/promotions/weekly-cashback': ok(RULE) });
      renderApp(<CashbackPercentPage />, { state: signedIn({ weeklyCashback: 37.5 }) });
      const table = await screen.findByTestId('cashback-tiers');
      expect(within(table).getAllByRole('cell').map((c) => plain(c.textContent))).toEqual(cells);
      expect(plain(screen.getByTestId('cashback-banner').textContent)).toContain(upTo);
      expect(plain(screen.getByTestId('cashback-cap').textContent)).toBe(cap);
      expect(plain(screen.getByTestId('weekly-accrued').textContent)).toBe(lang === 'fr' ? '37,500 TND' : '37.500 TND');
      // Paid Monday 00:00 in the operator's zone (23:00 UTC the Sunday before).
      expect(plain(screen.getByTestId('cashback-week').textContent)).toMatch(/00:00/);
    });
  }

  it('offers a guest sign-up and sign-in instead of an amount', async () => {
    mockApi({ '/api/promotions/weekly-cashback': ok(RULE) });
    const { store } = renderApp(<CashbackPercentPage />);
    await screen.findByTestId('cashback-tiers');
    expect(screen.queryByTestId('weekly-accrued')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: en.page.signUp }));
    expect(store.getState().auth.authModal).toEqual({ type: 'registration', isOpen: true });
  });
});
