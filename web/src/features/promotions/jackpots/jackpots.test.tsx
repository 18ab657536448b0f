import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../../test/render';
import en from '../../../locales/en/promotions.json';
import fr from '../../../locales/fr/promotions.json';
import ar from '../../../locales/ar/promotions.json';
import frCommon from '../../../locales/fr/common.json';
import arCommon from '../../../locales/ar/common.json';
import { dropPoint, fromHex, sha256Hex, toMinor, verifyDrop } from './fair';
import JackpotHistoryPage from './JackpotHistoryPage';
import JackpotsPage from './JackpotsPage';
import JackpotWatcher, { JACKPOT_REFRESH_MS } from './JackpotWatcher';
import { countUp, JACKPOT_ANIMATION_DELAY_MS, JACKPOT_COUNT_MS } from './JackpotWinModal';
import { listArgs } from './range';

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
  sessionStorage.clear();
  await i18n.changeLanguage('en');
});

const signedIn = { auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: testBalance } };
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u2066-\u2069]/g, '').replace(/[\u202f\u00a0]/g, ' ');

// A drop computed by a separate port of crates/promotions/src/fair.rs (Python, hmac + hashlib);
// the browser test (e2e/jackpots.mjs) checks the same code against the real server's drops.
const SEED = '07'.repeat(32);
const SEED_HASH = '4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0';

describe('the drop-point verifier', () => {
  it('hashes the seed bytes and recomputes known drop points', async () => {
    const seed = fromHex(SEED)!;
    expect(await sha256Hex(seed)).toBe(SEED_HASH);
    expect(await dropPoint(seed, 'mega', 1, 1_000_000n, 2_000_000n)).toBe(1_402_257n);
    expect(await dropPoint(seed, 'small', 3, 100_000n, 1_000_000n)).toBe(677_179n);
    // A range of one is the cap (crates/promotions/src/fair.rs's own test).
    expect(await dropPoint(seed, 'x', 1, 5n, 6n)).toBe(6n);
  });
  it('recomputes a drop the real server made (e2e/jackpots.mjs, demo pool small, cycle 1)', async () => {
    const seed = fromHex('0b2a07a2b4d61bf13b7e96d56a1abe3bcb0345942cd279d00b983c4b5bdee0f2')!;
    expect(await sha256Hex(seed)).toBe('abf4f4cb26c84c667e423bd8b9f7958bc8e18804ea7c3b8b8eca64093a3cb757');
    expect(await dropPoint(seed, 'small', 1, 100_000n, 1_000_000n)).toBe(492_501n);
  });
  it('rejects the biased tail and reads the next two words', async () => {
    // Range 2^63 + 1: the first x is rejected for this seed, the second accepted.
    expect(await dropPoint(fromHex(SEED)!, 'small', 1, 0n, (1n << 63n) + 1n)).toBe(6_759_668_725_208_097_385n);
  });
  it('says ✓ only when both the hash and the drop point match', async () => {
    const base = { serverSeed: SEED, seedHash: SEED_HASH, pool: 'small', cycle: 3, seedAmount: 100_000n, cap: 1_000_000n, dropPoint: 677_179n };
    expect((await verifyDrop(base)).ok).toBe(true);
    expect(await verifyDrop({ ...base, dropPoint: 677_180n })).toMatchObject({ ok: false, hashOk: true, dropOk: false });
    expect(await verifyDrop({ ...base, seedHash: 'ab'.repeat(32) })).toMatchObject({ ok: false, hashOk: false, dropOk: true });
    expect(await verifyDrop({ ...base, cycle: 4 })).toMatchObject({ ok: false, dropOk: false });
    expect((await verifyDrop({ ...base, serverSeed: 'zz' })).ok).toBe(false);
  });
  it('turns major units into exact minor units', () => {
    expect(toMinor(677.179, 3)).toBe(677_179n);
    expect(toMinor(0.1 + 0.2, 3)).toBe(300n);
    expect(toMinor(1000, 3)).toBe(1_000_000n);
  });
});

const pool = (over: Record<string, unknown> = {}) => ({
  id: 3,
  pool: 'small',
  name: 'Small',
  image: '',
  currency: 'TND',
  amount: 512.25,
  startAmount: 100,
  cap: 1000,
  seedHash: 'c0ffee'.padEnd(64, '0'),
  cycle: 4,
  timer: 60,
  lastWinner: '12***7',
  isOutcome: false,
  ...over,
});
const item = (over: Record<string, unknown> = {}) => ({
  id: '21',
  name: 'small',
  amount: 677.179,
  currency: 'TND',
  updatedAt: '14:05 20.11.2026',
  userId: '12***7',
  cycle: 3,
  serverSeed: SEED,
  seedHash: SEED_HASH,
  dropPoint: 677.179,
  ...over,
});
const win = (over: Record<string, unknown> = {}) => ({
  id: '21',
  pool: 'small',
  name: 'Small',
  image: '',
  currency: 'TND',
  amount: 677.179,
  userId: 7,
  cycle: 3,
  createdAt: Date.UTC(2026, 10, 20),
  serverSeed: SEED,
  seedHash: SEED_HASH,
  seedAmount: 100,
  capAmount: 1000,
  dropPoint: 677.179,
  ...over,
});

describe('the jackpots screen', () => {
  const cases = [
    ['en', 'Small', /^Drops at the latest at 1,000\.000 TND$/, '✓ Verified'],
    ['fr', 'Petit', /^Tombe au plus tard à 1 000,000 TND$/, '✓ Vérifié'],
    ['ar', 'صغير', /^يسقط على الأكثر عند 1,000\.000 TND$/, '✓ تم التحقق'],
  ] as const;
  for (const [lang, name, cap, verified] of cases) {
    it(`shows each pool with its cap, cycle and seed hash, and verifies the latest drops (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      mockApi({ '/api/jackpots': ok([pool({ pool: 'mega', name: 'Mega', id: 1 }), pool()]), '/api/user/jackpot_list': ok({ total: 1, items: [item()] }) });
      renderApp(<JackpotsPage />, { state: signedIn });
      expect(await screen.findByRole('heading', { name })).toBeTruthy();
      const caps = await screen.findAllByTestId('jackpot-cap');
      expect(plain(caps[1]!.textContent)).toMatch(cap);
      expect(screen.getAllByTestId('jackpot-seed-hash')[1]!.textContent).toBe(pool().seedHash);
      fireEvent.click(await screen.findByTestId('jackpot-verify'));
      const verdict = await screen.findByTestId('jackpot-verdict');
      expect(verdict.dataset.ok).toBe('true');
      expect(verdict.textContent).toContain(verified);
    });
  }
  it('shows ✗ when the announced drop point is not what the seed gives', async () => {
    mockApi({ '/api/jackpots': ok([pool()]), '/api/user/jackpot_list': ok({ total: 1, items: [item({ dropPoint: 677.18 })] }) });
    renderApp(<JackpotsPage />, { state: signedIn });
    fireEvent.click(await screen.findByTestId('jackpot-verify'));
    const verdict = await screen.findByTestId('jackpot-verdict');
    expect(verdict.dataset.ok).toBe('false');
    expect(verdict.textContent).toMatch(/^✗/);
  });
});

describe('the jackpot history', () => {
  it('asks a month ago → today plus one day, pages of 8 from 1', () => {
    expect(listArgs(new Date(2026, 9, 27), new Date(2026, 10, 27), 1)).toEqual({ date_from: '27-10-2026', date_to: '28-11-2026', limit: 8, offset: 0 });
    expect(listArgs(new Date(2026, 9, 27), new Date(2026, 11, 31), 3)).toEqual({ date_from: '27-10-2026', date_to: '01-01-2027', limit: 8, offset: 16 });
  });
  for (const lang of ['en', 'fr', 'ar'] as const) {
    it(`lists name, amount, time and masked winner, and pages through (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date(2026, 10, 27, 12));
      const fetch = mockApi({ '/api/jackpots': ok([pool()]), '/api/user/jackpot_list': ok({ total: 17, items: [item(), item({ id: '20', name: 'mega', amount: 20000.5 })] }) });
      renderApp(<JackpotHistoryPage />, { state: signedIn });
      const drops = await screen.findAllByTestId('jackpot-drop');
      expect(drops).toHaveLength(2);
      const first = plain(drops[0]!.textContent);
      expect(first).toContain(LANG_NAMES[lang]);
      expect(first).toContain(lang === 'fr' ? '677,179 TND' : '677.179 TND');
      expect(first).toContain('14:05 20.11.2026');
      expect(plain(screen.getAllByTestId('jackpot-drop-winner')[0]!.textContent)).toBe(lang === 'ar' ? 'المعرف 12***7' : 'ID 12***7');
      const url = () => String(fetch.mock.calls.filter(([u]) => String(u).includes('jackpot_list')).at(-1)?.[0]);
      expect(url()).toContain('date_from=27-10-2026');
      expect(url()).toContain('date_to=28-11-2026');
      expect(url()).toContain('limit=8');
      expect(url()).toContain('offset=0');
      expect(screen.getByText(/1\D+3/)).toBeTruthy();
      fireEvent.click(screen.getAllByRole('button').at(-1)!);
      await waitFor(() => expect(url()).toContain('offset=8'));
    });
  }
});
/** Fake time forward, then one more turn for the replies' promises and React's renders. */
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
const LANG_NAMES = { en: 'Small', fr: 'Petit', ar: 'صغير' } as const;

describe('the win modal', () => {
  it('uses the spec’s timings (§4, §9): 60 000 ms refresh, 2 000 ms before the count-up', () => {
    expect(JACKPOT_REFRESH_MS).toBe(60_000);
    expect(JACKPOT_ANIMATION_DELAY_MS).toBe(2_000);
  });
  it('counts from zero to the exact amount', () => {
    expect(countUp(677_179n, 0)).toBe(0n);
    expect(countUp(677_179n, JACKPOT_COUNT_MS / 2)).toBeGreaterThan(0n);
    expect(countUp(677_179n, JACKPOT_COUNT_MS)).toBe(677_179n);
  });
  const texts = { en: ['You won the Small jackpot', '677.179 TND', '0.000 TND'], fr: ['Vous avez gagné le jackpot Petit', '677,179 TND', '0,000 TND'], ar: ['ربحت جاكبوت صغير', '677.179 TND', '0.000 TND'] } as const;
  for (const lang of ['en', 'fr', 'ar'] as const) {
    it(`polls every 60 s, shows an unshown drop counting up after 2 s, closes it with jackpot_is_shown (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      vi.useFakeTimers();
      let wins = [] as unknown[];
      let dataCalls = 0;
      const fetch = mockApi({
        '/api/user/jackpot_data': () => {
          dataCalls += 1;
          return ok({ jackpots: [pool()], wonJackpots: wins });
        },
        'POST /api/user/jackpot_is_shown': () => {
          wins = [];
          return ok({ jackpots: [pool()], wonJackpots: [] });
        },
      });
      renderApp(<JackpotWatcher />, { state: signedIn });
      await advance(10);
      expect(dataCalls).toBe(1);
      expect(screen.queryByTestId('jackpot-win')).toBeNull();
      wins = [win()];
      await advance(JACKPOT_REFRESH_MS);
      expect(dataCalls).toBe(2);
      const modal = screen.getByTestId('jackpot-win');
      expect(plain(modal.textContent)).toContain(texts[lang][0]);
      const amount = () => plain(screen.getByTestId('jackpot-win-amount').textContent);
      expect(amount()).toBe(texts[lang][2]);
      await advance(JACKPOT_ANIMATION_DELAY_MS - 100);
      expect(amount()).toBe(texts[lang][2]);
      await advance(600);
      expect(amount()).not.toBe(texts[lang][2]);
      expect(amount()).not.toBe(texts[lang][1]);
      await advance(JACKPOT_COUNT_MS);
      expect(amount()).toBe(texts[lang][1]);
      fireEvent.click(screen.getByTestId('jackpot-win-close'));
      await advance(10);
      expect(screen.queryByTestId('jackpot-win')).toBeNull();
      const post = fetch.mock.calls.find(([u, init]) => String(u).includes('jackpot_is_shown') && init?.method === 'POST');
      expect(JSON.parse(String(post?.[1]?.body))).toEqual({ JackpotId: '21' });
    });
  }
  it('keeps a drop whose close failed hidden (manual delete) and closes it again on the next refresh', async () => {
    vi.useFakeTimers();
    let shown = 0;
    mockApi({
      '/api/user/jackpot_data': ok({ jackpots: [pool()], wonJackpots: [win()] }),
      'POST /api/user/jackpot_is_shown': () => {
        shown += 1;
        return { status: 40, result: null, error_message: 'Unavailable' };
      },
    });
    const { store } = renderApp(<JackpotWatcher />, { state: signedIn });
    await advance(10);
    await advance(10);
    fireEvent.click(screen.getByTestId('jackpot-win-close'));
    await advance(10);
    expect(screen.queryByTestId('jackpot-win')).toBeNull();
    expect(shown).toBe(1);
    expect(store.getState().notifications.items.at(-1)?.text).toBe('promotions:jackpots.closeFailed');
    expect(JSON.parse(sessionStorage.getItem('carthage.jackpots.dismissed') ?? '[]')).toEqual(['21']);
    await advance(JACKPOT_REFRESH_MS);
    expect(shown).toBe(2);
    expect(screen.queryByTestId('jackpot-win')).toBeNull();
  });
});
