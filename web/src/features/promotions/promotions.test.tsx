import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import en from '../../locales/en/promotions.json';
import fr from '../../locales/fr/promotions.json';
import ar from '../../locales/ar/promotions.json';
import { progressPercent } from './api';
import WithdrawalBonusNotice from './components/WithdrawalBonusNotice';
import BonusesPage from './routes/BonusesPage';
import FreeBetsPage from './routes/FreeBetsPage';
import PromotionsPage from './routes/PromotionsPage';

beforeAll(() => {
  i18n.addResourceBundle('en', 'promotions', en);
  i18n.addResourceBundle('fr', 'promotions', fr);
  i18n.addResourceBundle('ar', 'promotions', ar);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const signedIn = {
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: { ...testBalance, balance: 120, bonusBalance: 50 } },
};
const LANGS = { en, fr, ar } as const;
type Lang = keyof typeof LANGS;
/** Text without the direction isolates and with plain spaces (French groups with a narrow no-break space). */
const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u2066-\u2069]/g, '').replace(/[\u202f\u00a0]/g, ' ');

const bonus = (over: Record<string, unknown> = {}) => ({
  id: '11',
  template: 'welcome',
  product: 'casino',
  status: 'active',
  currency: 'TND',
  amount: 50,
  required: 500,
  wagered: 125,
  remaining: 375,
  maxBet: 5,
  maxConversion: 0,
  converted: 0,
  minOdds: 0,
  grantedAt: Date.UTC(2030, 0, 1),
  expiresAt: Date.UTC(2030, 0, 31),
  closedAt: null,
  ...over,
});
const closed = bonus({ id: '9', status: 'converted', converted: 40, closedAt: Date.UTC(2029, 11, 1) });

describe('promotions helpers and texts', () => {
  it('has the same keys in English, French and Arabic', () => {
    const keys = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v !== null ? keys(v as object, `${p}${k}.`) : [`${p}${k}`]));
    expect(keys(fr).sort()).toEqual(keys(en).sort());
    expect(keys(ar).sort()).toEqual(keys(en).sort());
  });
  it('computes the wagering progress in whole percent, capped', () => {
    expect(progressPercent(125, 500)).toBe(25);
    expect(progressPercent(499.99, 500)).toBe(99);
    expect(progressPercent(800, 500)).toBe(100);
    expect(progressPercent(-1, 500)).toBe(0);
    expect(progressPercent(0, 0)).toBe(100);
  });
});

describe('the bonuses screen', () => {
  const cases: [Lang, RegExp, string][] = [
    ['en', /^Wagered 125\.000 TND of 500\.000 TND$/, '375.000 TND left to wager'],
    ['fr', /^Misé 125,000 TND sur 500,000 TND$/, 'Reste 375,000 TND à miser'],
    ['ar', /^تم رهان 125\.000 TND من 500\.000 TND$/, 'يتبقى 375.000 TND للرهان'],
  ];
  for (const [lang, wagered, left] of cases) {
    it(`shows the open bonus with its wagering bar, its terms, real and bonus money apart, closed ones below (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      mockApi({ '/api/user/bonuses': ok([bonus(), closed]) });
      renderApp(<BonusesPage />, { state: signedIn });
      const cards = await screen.findAllByTestId('bonus');
      expect(cards.map((c) => c.getAttribute('data-status'))).toEqual(['active', 'converted']);
      const bar = within(cards[0]!).getByRole('progressbar');
      expect(bar.getAttribute('aria-valuenow')).toBe('25');
      expect((bar.firstElementChild as HTMLElement).style.inlineSize).toBe('25%');
      expect(plain(bar.getAttribute('aria-label'))).toMatch(wagered);
      expect(plain(within(cards[0]!).getByTestId('wagering-left').textContent)).toBe(left);
      expect(plain(within(cards[0]!).getByTestId('bonus-max-bet').textContent)).toBe(lang === 'fr' ? '5,000 TND' : '5.000 TND');
      // Real money and bonus money side by side, never summed.
      expect(plain(screen.getByTestId('real-balance').textContent)).toBe(lang === 'fr' ? '120,000 TND' : '120.000 TND');
      expect(plain(screen.getByTestId('bonus-balance').textContent)).toBe(lang === 'fr' ? '50,000 TND' : '50.000 TND');
      // The closed bonus has no bar and no give-up.
      expect(within(cards[1]!).queryByRole('progressbar')).toBeNull();
      expect(within(cards[1]!).queryByTestId('give-up')).toBeNull();
      expect(screen.getByRole('heading', { name: LANGS[lang].bonuses.closed })).toBeTruthy();
    });
  }

  it('gives a bonus up after a confirmation saying what is lost and what is kept (en, fr, ar)', async () => {
    for (const lang of ['en', 'fr', 'ar'] as Lang[]) {
      await i18n.changeLanguage(lang);
      let list = [bonus()];
      const fetchMock = mockApi({
        '/api/user/bonuses': () => ok(list),
        'POST /api/user/bonuses/11/give-up': () => {
          list = [bonus({ status: 'given_up', closedAt: Date.UTC(2030, 0, 2) })];
          return ok(list);
        },
        '/api/user/balance': ok({ ...testBalance, balance: 120, bonusBalance: 0 }),
      });
      const { store, unmount } = renderApp(<BonusesPage />, { state: signedIn });
      fireEvent.click(await screen.findByTestId('give-up'));
      const dialog = await screen.findByRole('dialog', { name: LANGS[lang].bonuses.giveUpTitle });
      const terms = within(dialog).getAllByRole('listitem').map((li) => plain(li.textContent));
      const amount = lang === 'fr' ? '50,000 TND' : '50.000 TND';
      expect(terms).toEqual([LANGS[lang].bonuses.giveUpLose.replace('{{amount}}', amount), LANGS[lang].bonuses.giveUpKeep]);
      await act(async () => fireEvent.click(within(dialog).getByTestId('give-up-confirm')));
      await waitFor(() => expect(screen.getByTestId('bonus').getAttribute('data-status')).toBe('given_up'));
      expect(screen.getByTestId('no-bonus')).toBeTruthy();
      expect(fetchMock.mock.calls.filter(([u, init]) => String(u) === '/api/user/bonuses/11/give-up' && init?.method === 'POST')).toHaveLength(1);
      expect(store.getState().notifications.items.at(-1)).toMatchObject({ text: 'promotions:bonuses.givenUp', type: 'success' });
      unmount();
    }
  });

  it('activates a promo code: the success notice names the code, a refusal shows its own message', async () => {
    let calls = 0;
    const fetchMock = mockApi({
      '/api/user/bonuses': () => ok(calls > 0 ? [bonus()] : []),
      'POST /api/payment/promocode/activation': () => {
        calls += 1;
        return calls === 1
          ? ok({ code: 'WELCOME', kind: 'bonus', bonusId: '11', freeBets: 0 })
          : { status: 2202, result: null, error_message: 'already' };
      },
      '/api/user/balance': ok(testBalance),
    });
    const { store } = renderApp(<BonusesPage />, { state: signedIn });
    expect(await screen.findByTestId('no-bonus')).toBeTruthy();
    const input = screen.getByLabelText('Promo code', { selector: 'input' });
    fireEvent.change(input, { target: { value: ' welcome ' } });
    await act(async () => fireEvent.click(screen.getByTestId('promo-activate')));
    const body = JSON.parse(String(fetchMock.mock.calls.find(([u]) => String(u) === '/api/payment/promocode/activation')![1]!.body));
    expect(body).toEqual({ code: 'WELCOME' });
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ text: 'promotions:promo.activated', params: { code: '\u2068WELCOME\u2069' } });
    expect(i18n.t('promotions:promo.activated', { code: 'WELCOME' })).toBe('Promo code WELCOME activated');
    // The list follows the activation (tags invalidated).
    expect(await screen.findByTestId('bonus')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'WELCOME' } });
    await act(async () => fireEvent.click(screen.getByTestId('promo-activate')));
    await waitFor(() => expect(store.getState().notifications.items.at(-1)).toMatchObject({ type: 'error', text: ['errors:2202', 'errors:promocode', 'errors:default'] }));
  });
});

describe('free bets', () => {
  const bets = [
    { id: '1', amount: 10, currency: 'TND', status: 'inactive', minOdds: 2.2, expiresAt: Date.UTC(2030, 1, 1) },
    { id: '2', amount: 50, currency: 'TND', status: 'used', minOdds: 2.2, expiresAt: Date.UTC(2030, 1, 1) },
  ];
  for (const lang of ['en', 'fr', 'ar'] as Lang[]) {
    it(`lists free bets with status, value, expiry and min odds 2.20, the week's stats, and activates them (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      let list = bets;
      mockApi({
        '/api/user/free-bets': () => ok(list),
        '/api/user/actualFreeBetStats': ok({ bets_total_now: 240, possible_free_bets: 1 }),
        'POST /api/user/activate-free-bets': () => {
          list = [{ ...bets[0]!, status: 'active' }, bets[1]!];
          return ok({ activated: 1, free_bets: list });
        },
        '/api/user/balance': ok(testBalance),
      });
      const { store } = renderApp(<FreeBetsPage />, { state: signedIn });
      const items = await screen.findAllByTestId('free-bet');
      expect(items.map((i) => i.getAttribute('data-status'))).toEqual(['inactive', 'used']);
      expect(within(items[0]!).getByTestId('free-bet-status').textContent).toBe(LANGS[lang].freeBets.status.inactive);
      expect(plain(within(items[0]!).getByTestId('money').textContent)).toBe(lang === 'fr' ? '10,000 TND' : '10.000 TND');
      expect(within(items[0]!).getByText('2.20')).toBeTruthy();
      await waitFor(() => expect(plain(screen.getByTestId('free-bet-stakes').textContent)).toBe(lang === 'fr' ? '240,000 TND' : '240.000 TND'));
      expect(screen.getByTestId('free-bet-possible').textContent).toBe('1');
      await act(async () => fireEvent.click(screen.getByTestId('activate-free-bets')));
      await waitFor(() => expect(screen.getAllByTestId('free-bet')[0]!.getAttribute('data-status')).toBe('active'));
      expect(store.getState().notifications.items.at(-1)).toMatchObject({ text: 'promotions:freeBets.activated', params: { count: '1' } });
    });
  }

  it('shows the 506 message when no free bet is left to activate', async () => {
    mockApi({
      '/api/user/free-bets': ok([]),
      '/api/user/actualFreeBetStats': ok({ bets_total_now: 0, possible_free_bets: 0 }),
      'POST /api/user/activate-free-bets': { status: 506, result: null, error_message: 'empty' },
    });
    const { store } = renderApp(<FreeBetsPage />, { state: signedIn });
    expect(await screen.findByTestId('no-free-bet')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('activate-free-bets')));
    await waitFor(() => expect(store.getState().notifications.items.at(-1)).toMatchObject({ type: 'error', text: ['errors:506', 'errors:default', 'errors:default'] }));
  });
});

describe('the withdrawal page notice', () => {
  for (const lang of ['en', 'fr', 'ar'] as Lang[]) {
    it(`says what withdrawing needs with an open bonus, and goes once the bonus is given up (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      let list = [bonus()];
      mockApi({
        '/api/user/bonuses': () => ok(list),
        'POST /api/user/bonuses/11/give-up': () => {
          list = [bonus({ status: 'given_up' })];
          return ok(list);
        },
      });
      const onGivenUp = vi.fn();
      renderApp(<WithdrawalBonusNotice onGivenUp={onGivenUp} />, { state: signedIn });
      const notice = await screen.findByTestId('withdrawal-bonus');
      const amount = lang === 'fr' ? '375,000 TND' : '375.000 TND';
      expect(plain(within(notice).getByText(/375/).textContent)).toBe(LANGS[lang].withdrawal.text.replace('{{amount}}', amount));
      fireEvent.click(within(notice).getByTestId('withdrawal-give-up'));
      const dialog = await screen.findByRole('dialog');
      await act(async () => fireEvent.click(within(dialog).getByTestId('give-up-confirm')));
      await waitFor(() => expect(screen.queryByTestId('withdrawal-bonus')).toBeNull());
      expect(onGivenUp).toHaveBeenCalledTimes(1);
    });
  }

  it('shows nothing without a bonus being wagered', async () => {
    mockApi({ '/api/user/bonuses': ok([bonus({ status: 'queued' }), closed]) });
    renderApp(<WithdrawalBonusNotice />, { state: signedIn });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('withdrawal-bonus')).toBeNull();
  });
});

describe('/promotions', () => {
  for (const lang of ['en', 'fr', 'ar'] as Lang[]) {
    it(`shows the coupon machine and cashback cards and the promo code entry (${lang})`, async () => {
      await i18n.changeLanguage(lang);
      mockApi({ '/api/site/settings': ok({}) });
      renderApp(<PromotionsPage />, { state: signedIn });
      expect(screen.getByTestId('promo-coupon').getAttribute('href')).toBe('/promotions/coupon-machine');
      expect(screen.getByTestId('promo-cashback').getAttribute('href')).toBe('/promotions/cashback-percent');
      const entry = screen.getByTestId('promo-entry');
      expect(within(entry).getByRole('heading').textContent).toBe(LANGS[lang].page.promoTitle);
      expect(within(entry).getByRole('link', { name: LANGS[lang].page.promoCta }).getAttribute('href')).toBe('/profile/bonuses');
      expect(screen.getByTestId('promo-bonuses').getAttribute('href')).toBe('/profile/bonuses');
    });
  }
  it('offers sign-up with a code to a guest', () => {
    mockApi({ '/api/site/settings': ok({}) });
    const { store } = renderApp(<PromotionsPage />);
    fireEvent.click(within(screen.getByTestId('promo-entry')).getByRole('button', { name: en.page.signUpCta }));
    expect(store.getState().auth.authModal).toMatchObject({ type: 'registration', isOpen: true });
  });
});
