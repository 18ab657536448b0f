import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import reportsEn from '../../locales/en/console-reports.json';
import { mockApi, ok } from '../../test/render';
import { makeConsoleStore } from '../api';
import { meReply, refusal, renderConsole } from '../testing';
import ReportsPage from './ReportsPage';

i18n.addResourceBundle('en', 'console-reports', reportsEn, true, true);

/** The charts' uPlot (a canvas library): what it was given. */
const plots: { data: number[][]; labels: string[] }[] = [];
vi.mock('uplot', () => ({
  default: class {
    static tzDate = (d: Date) => d;
    cursor = { idx: null };
    constructor(opts: { series: { label?: string }[] }, data: number[][]) {
      plots.push({ data, labels: opts.series.slice(1).map((s) => s.label ?? '') });
    }
    setSize() {}
    destroy() {}
  },
}));

beforeEach(() => {
  plots.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const FIELDS = ['stakes', 'wins', 'ggr', 'bonusCost', 'ngr', 'deposits', 'withdrawals'] as const;
type Minor = Record<(typeof FIELDS)[number], number> & { bets: number; activePlayers?: number };

/** Minor units as the server writes major units: exact digits, three decimals for TND. */
const major = (minor: number) => `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 1000)}.${String(Math.abs(minor) % 1000).padStart(3, '0')}`;

/** One line of the reply as the server's JSON text has it (then parsed, as the app gets it). */
const lineJson = (keys: Record<string, string | null>, f: Minor, currency = 'TND') =>
  JSON.parse(
    `{${[
      ...Object.entries(keys).map(([k, v]) => `"${k}":${v === null ? 'null' : `"${v}"`}`),
      `"currency":"${currency}"`,
      `"bets":${f.bets}`,
      ...FIELDS.map((k) => `"${k}":${major(f[k])}`),
      ...(f.activePlayers !== undefined ? [`"activePlayers":${f.activePlayers}`] : []),
    ].join(',')}}`,
  );

/** A day's figures that vary (a real month has quiet days and a big win or two). */
function dayFigures(i: number): Minor {
  if (i % 7 === 3) return { bets: 0, stakes: 0, wins: 0, ggr: 0, bonusCost: 0, ngr: 0, deposits: 0, withdrawals: 0, activePlayers: 0 };
  const stakes = 150_000 + ((i * 37_123) % 900_000);
  const wins = i === 12 ? stakes + 640_500 : Math.floor((stakes * (80 + (i % 15))) / 100);
  const bonusCost = i % 5 === 0 ? 25_000 : 0;
  return {
    bets: 40 + ((i * 13) % 90),
    stakes,
    wins,
    ggr: stakes - wins,
    bonusCost,
    ngr: stakes - wins - bonusCost,
    deposits: i % 3 === 0 ? 500_000 + i * 10_250 : 120_000,
    withdrawals: i % 4 === 0 ? 300_000 + i * 1_500 : 0,
    activePlayers: 3 + ((i * 5) % 11),
  };
}

const date = (from: string, i: number) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10);

/** `GET /api/admin/reports` by day: every day of the range, totals summed in minor units. */
function byDayReply(from: string, days: number, figures: (i: number) => Minor = dayFigures) {
  const all = Array.from({ length: days }, (_, i) => figures(i));
  const sum = Object.fromEntries([...FIELDS, 'bets'].map((k) => [k, all.reduce((s, f) => s + f[k as keyof Minor]!, 0)])) as Minor;
  return {
    reply: ok({
      from,
      to: date(from, days - 1),
      by: 'day',
      rows: all.map((f, i) => lineJson({ date: date(from, i) }, f)),
      totals: [lineJson({}, sum)],
    }),
    sum,
    all,
  };
}

const zero: Minor = { bets: 0, stakes: 0, wins: 0, ggr: 0, bonusCost: 0, ngr: 0, deposits: 0, withdrawals: 0 };

function byProviderReply(from: string, to: string) {
  const rows = [
    [{ product: 'casino', provider: 'pragmatic' }, { ...zero, bets: 812, stakes: 40_250_500, wins: 38_100_250, ggr: 2_150_250, ngr: 2_150_250 }],
    [{ product: 'casino', provider: 'studio' }, { ...zero, bets: 1_904, stakes: 12_000_000, wins: 12_480_000, ggr: -480_000, ngr: -480_000 }],
    [{ product: 'sport', provider: 'sportsbook' }, { ...zero, bets: 97, stakes: 5_500_000, wins: 3_250_000, ggr: 2_250_000, ngr: 2_250_000 }],
    [{ product: 'bonus', provider: null }, { ...zero, bonusCost: 350_000, ngr: -350_000 }],
    [{ product: 'payments', provider: 'paykassma' }, { ...zero, deposits: 25_000_000, withdrawals: 9_750_000 }],
  ] as const;
  const sum = { ...zero };
  for (const [, f] of rows) for (const k of [...FIELDS, 'bets'] as const) sum[k] += f[k];
  return ok({ from, to, by: 'provider', rows: rows.map(([k, f]) => lineJson(k, f)), totals: [lineJson({}, sum)] });
}

const SETTINGS = ok({ currencies: ['TND', 'USD', 'EUR'], lang: 'en' });

function renderReports(path: string) {
  const store = makeConsoleStore();
  const router = createMemoryRouter([{ path: '/reports', element: <ReportsPage /> }], { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { router };
}

/** The report calls made, as their query strings. */
const reportCalls = (fetchMock: { mock: { calls: unknown[][] } }) =>
  fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/admin/reports'));

describe('the reports page', () => {
  it('shows the totals, the charts by day and the rows of a month, latest day first', async () => {
    const { reply, sum, all } = byDayReply('2026-11-01', 30);
    const fetchMock = mockApi({ '/api/admin/reports': reply, '/api/site/settings': SETTINGS });
    const { router } = renderReports('/reports?from=2026-11-01&to=2026-11-30');

    await screen.findByTestId('reports-report');
    expect(reportCalls(fetchMock)).toEqual(['/api/admin/reports?from=2026-11-01&to=2026-11-30&by=day']);
    const money = (minor: number) => `${(minor < 0 ? '-' : '') + Math.floor(Math.abs(minor) / 1000).toLocaleString('en')}.${String(Math.abs(minor) % 1000).padStart(3, '0')}`;
    expect(screen.getByTestId('total-ggr-TND').textContent).toBe(`${money(sum.ggr)} TND`);
    expect(screen.getByTestId('total-ngr-TND').textContent).toBe(`${money(sum.ngr)} TND`);
    expect(screen.getByTestId('total-deposits-TND').textContent).toBe(`${money(sum.deposits)} TND`);
    expect(screen.getByTestId('total-bets-TND').textContent).toBe(sum.bets.toLocaleString('en'));
    const peak = Math.max(...all.map((f) => f.activePlayers!));
    expect(screen.getByTestId('total-active-peak-TND').textContent).toBe(String(peak));

    // 30 days: one page, the latest first; every figure of a row in its cell.
    const rows = screen.getAllByTestId('reports-row');
    expect(rows).toHaveLength(30);
    expect(rows[0]!.querySelector('td')!.textContent).toBe('Nov 30, 2026');
    const cells = within(rows[17]!).getAllByRole('cell').map((c) => c.textContent);
    const day12 = all[12]!; // Nov 13: a big win, a negative GGR.
    expect(cells).toEqual([
      'Nov 13, 2026',
      money(day12.ggr),
      money(day12.ngr),
      money(day12.stakes),
      money(day12.wins),
      money(day12.bonusCost),
      money(day12.deposits),
      money(day12.withdrawals),
      String(day12.bets),
      String(day12.activePlayers),
    ]);
    expect(screen.queryByTestId('reports-pager')).toBeNull();
    expect(screen.getByTestId('total-active-average-TND').textContent).toBe(String(Math.round((all.reduce((s, f) => s + f.activePlayers!, 0) * 100) / 30) / 100));

    // The charts: GGR and NGR, deposits and withdrawals, a point a day in date order.
    await waitFor(() => expect(plots).toHaveLength(2));
    const revenue = plots.find((p) => p.labels[0] === 'GGR')!;
    const payments = plots.find((p) => p.labels[0] === 'Deposits')!;
    expect(revenue.labels).toEqual(['GGR', 'NGR']);
    expect(revenue.data[1]).toEqual(all.map((f) => f.ggr));
    expect(revenue.data[2]).toEqual(all.map((f) => f.ngr));
    expect(payments.labels).toEqual(['Deposits', 'Withdrawals']);
    expect(payments.data[1]).toEqual(all.map((f) => f.deposits));
    expect(payments.data[2]).toEqual(all.map((f) => f.withdrawals));
    expect(revenue.data[0]![1]! - revenue.data[0]![0]!).toBe(86_400);

    // Only the days with activity: four quiet days left out, kept in the address.
    await act(async () => fireEvent.click(screen.getByTestId('reports-only-active')));
    expect(router.state.location.search).toBe('?from=2026-11-01&to=2026-11-30&active=1');
    expect(screen.getAllByTestId('reports-row')).toHaveLength(26);
    expect(screen.getByTestId('reports-count').textContent).toBe('26 rows');
  });

  it('asks for what the address says, and the controls change the address', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 28, 23, 30)); // 00:30 on Nov 29 in Tunis
    const fetchMock = mockApi({
      '/api/admin/reports': () => {
        const url = new URL(reportCalls(fetchMock).at(-1)!, 'http://x');
        const p = url.searchParams;
        return p.get('by') === 'day' ? byDayReply(p.get('from')!, 7).reply : byProviderReply(p.get('from')!, p.get('to')!);
      },
      '/api/site/settings': SETTINGS,
    });
    const { router } = renderReports('/reports?from=2026-10-01&to=2026-10-31&by=provider&currency=TND');
    await screen.findByTestId('reports-report');
    expect(reportCalls(fetchMock)).toEqual(['/api/admin/reports?from=2026-10-01&to=2026-10-31&by=provider&currency=TND']);
    expect(screen.getByTestId('tab-provider').getAttribute('aria-current')).toBe('page');
    // By provider: the largest GGR first, product and provider named, no chart.
    const first = within(screen.getAllByTestId('reports-row')[0]!).getAllByRole('cell');
    expect(first.slice(0, 3).map((c) => c.textContent)).toEqual(['Sportsbook', 'sportsbook', '2,250.000']);
    expect(screen.queryByTestId('reports-charts')).toBeNull();
    expect(screen.getByTestId('total-ggr-TND').textContent).toBe('3,920.250 TND');
    expect(screen.getByTestId('total-ngr-TND').textContent).toBe('3,570.250 TND');

    // Another grouping, a quick range (ending today in Tunis), another currency.
    await act(async () => fireEvent.click(screen.getByTestId('tab-game')));
    expect(router.state.location.search).toBe('?from=2026-10-01&to=2026-10-31&by=game&currency=TND');
    await waitFor(() => expect(reportCalls(fetchMock).at(-1)).toBe('/api/admin/reports?from=2026-10-01&to=2026-10-31&by=game&currency=TND'));
    await act(async () => fireEvent.click(screen.getByTestId('reports-range-7d')));
    expect(router.state.location.search).toBe('?from=2026-11-23&to=2026-11-29&by=game&currency=TND');
    await act(async () => fireEvent.change(screen.getByTestId('reports-currency'), { target: { value: '' } }));
    expect(router.state.location.search).toBe('?from=2026-11-23&to=2026-11-29&by=game');
    await act(async () => fireEvent.click(screen.getByTestId('tab-day')));
    await waitFor(() => expect(reportCalls(fetchMock).at(-1)).toBe('/api/admin/reports?from=2026-11-23&to=2026-11-29&by=day'));
    expect(screen.getByTestId('reports-range-7d').getAttribute('aria-current')).toBe('true');

    // Typed dates apply with "Show"; an end before the start says so and asks nothing.
    fireEvent.change(screen.getByTestId('reports-from'), { target: { value: '2026-11-10' } });
    fireEvent.change(screen.getByTestId('reports-to'), { target: { value: '2026-11-05' } });
    expect((screen.getByTestId('reports-apply') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('The end date must be on or after the start date.')).toBeTruthy();
    fireEvent.change(screen.getByTestId('reports-to'), { target: { value: '2026-11-16' } });
    await act(async () => fireEvent.click(screen.getByTestId('reports-apply')));
    expect(router.state.location.search).toBe('?from=2026-11-10&to=2026-11-16');
    await waitFor(() => expect(reportCalls(fetchMock).at(-1)).toBe('/api/admin/reports?from=2026-11-10&to=2026-11-16&by=day'));
  });

  it('shows the page default: the last 30 days ending today in Tunis', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 28, 23, 30));
    const fetchMock = mockApi({ '/api/admin/reports': byDayReply('2026-10-31', 30).reply, '/api/site/settings': SETTINGS });
    renderReports('/reports');
    await screen.findByTestId('reports-report');
    expect(reportCalls(fetchMock)).toEqual(['/api/admin/reports?from=2026-10-31&to=2026-11-29&by=day']);
    expect(screen.getByTestId('reports-range-30d').getAttribute('aria-current')).toBe('true');
  });

  it('says what a refused range (47) means', async () => {
    mockApi({
      '/api/admin/reports': { status: 47, result: null, error_message: 'to: on or after from, at most 3,660 days' },
      '/api/site/settings': SETTINGS,
    });
    renderReports('/reports?from=2010-01-01&to=2026-11-28');
    const message = await screen.findByTestId('reports-error-message');
    expect(message.textContent).toBe(reportsEn.error.invalid);
    expect(screen.getByTestId('reports-error').textContent).toContain('This report could not be made');
  });

  it('offers a retry for another refusal, and says when nothing happened', async () => {
    let calls = 0;
    mockApi({
      '/api/admin/reports': () => (++calls === 1 ? refusal(24) : byDayReply('2026-11-01', 30, () => ({ ...zero, activePlayers: 0 })).reply),
      '/api/site/settings': SETTINGS,
    });
    renderReports('/reports?from=2026-11-01&to=2026-11-30');
    const error = await screen.findByTestId('reports-error');
    expect(error.textContent).toContain('This action is not allowed for this account.');
    await act(async () => fireEvent.click(within(error).getByRole('button', { name: 'Try again' })));
    const empty = await screen.findByTestId('reports-empty');
    expect(empty.textContent).toContain('No activity in this range');
    expect(empty.textContent).toContain('between Nov 1, 2026 and Nov 30, 2026');
    expect(screen.queryByTestId('reports-rows')).toBeNull();
  });

  it('pages 31 days at a time and sorts by a column', async () => {
    const { all } = byDayReply('2026-01-01', 62);
    mockApi({ '/api/admin/reports': byDayReply('2026-01-01', 62).reply, '/api/site/settings': SETTINGS });
    const { router } = renderReports('/reports?from=2026-01-01&to=2026-03-03');
    await screen.findByTestId('reports-report');
    expect(screen.getAllByTestId('reports-row')).toHaveLength(31);
    expect(screen.getByTestId('reports-page').textContent).toBe('Page 1 of 2');
    await act(async () => fireEvent.click(screen.getByTestId('reports-next')));
    expect(router.state.location.search).toBe('?from=2026-01-01&to=2026-03-03&page=2');
    expect(screen.getAllByTestId('reports-row')).toHaveLength(31);
    expect(screen.getAllByTestId('reports-row')[30]!.querySelector('td')!.textContent).toBe('Jan 1, 2026');

    await act(async () => fireEvent.change(screen.getByTestId('reports-sort'), { target: { value: 'ggr' } }));
    expect(router.state.location.search).toBe('?from=2026-01-01&to=2026-03-03&sort=ggr&dir=desc');
    const best = Math.max(...all.map((f) => f.ggr));
    const worst = Math.min(...all.map((f) => f.ggr));
    const ggrOf = (row: HTMLElement) => within(row).getAllByRole('cell')[1]!.textContent;
    const fmt = (minor: number) => `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 1000).toLocaleString('en')}.${String(Math.abs(minor) % 1000).padStart(3, '0')}`;
    expect(ggrOf(screen.getAllByTestId('reports-row')[0]!)).toBe(fmt(best));
    await act(async () => fireEvent.click(screen.getByTestId('reports-dir')));
    expect(ggrOf(screen.getAllByTestId('reports-row')[0]!)).toBe(fmt(worst));
    expect(screen.getByTestId('reports-dir').getAttribute('data-dir')).toBe('asc');
  });

  it('exports the same report as CSV, busy while it comes, and says why when refused', async () => {
    let answer: (r: Response) => void = () => {};
    const fetchMock = mockApi({ '/api/admin/reports': byProviderReply('2026-11-01', '2026-11-28'), '/api/site/settings': SETTINGS });
    renderReports('/reports?from=2026-11-01&to=2026-11-28&by=provider');
    await screen.findByTestId('reports-report');
    const link = screen.getByTestId('reports-export') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/api/admin/reports?from=2026-11-01&to=2026-11-28&by=provider&format=csv');
    expect(link.getAttribute('download')).toBe('carthage-report-provider-2026-11-01-2026-11-28.csv');

    const created = vi.fn(() => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fetchMock.mockImplementationOnce(() => new Promise<Response>((r) => (answer = r)));
    await act(async () => fireEvent.click(link));
    expect(link.getAttribute('aria-busy')).toBe('true');
    expect(String(fetchMock.mock.calls.at(-1)![0])).toBe('/api/admin/reports?from=2026-11-01&to=2026-11-28&by=provider&format=csv');
    await act(async () => answer(new Response('product,provider,currency,bets\r\n', { headers: { 'content-type': 'text/csv; charset=utf-8' } })));
    await waitFor(() => expect(link.getAttribute('aria-busy')).toBeNull());
    expect(created).toHaveBeenCalledTimes(1);
    expect(clicked).toHaveBeenCalledTimes(1);
    expect((clicked.mock.contexts[0] as HTMLAnchorElement).download).toBe('carthage-report-provider-2026-11-01-2026-11-28.csv');

    fetchMock.mockImplementationOnce(async () => new Response(JSON.stringify(refusal(23)), { headers: { 'content-type': 'application/json' } }));
    await act(async () => fireEvent.click(link));
    expect((await screen.findByTestId('reports-export-error')).textContent).toBe('The export failed: Please sign in.');
    expect(created).toHaveBeenCalledTimes(1);
  });

  it('is the Reports section of admin and finance, closed to support', async () => {
    const fetchMock = mockApi({
      '/api/admin/me': meReply('finance'),
      '/api/admin/reports': byDayReply('2026-11-01', 30).reply,
      '/api/site/settings': SETTINGS,
      '/api/admin/payments/withdrawals': ok([]),
      '/api/admin/wallet/adjust-requests': ok([]),
    });
    const { unmount } = renderConsole('/reports?from=2026-11-01&to=2026-11-30');
    await screen.findByTestId('reports-report');
    const link = screen.getByTestId('nav-reports');
    expect(link.textContent).toBe('Reports');
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Reports');
    expect(reportCalls(fetchMock)).toEqual(['/api/admin/reports?from=2026-11-01&to=2026-11-30&by=day']);
    unmount();

    const refused = mockApi({ '/api/admin/me': meReply('support'), '/api/admin/players': ok([]) });
    renderConsole('/reports');
    await screen.findByTestId('console-forbidden');
    expect(screen.queryByTestId('nav-reports')).toBeNull();
    expect(reportCalls(refused)).toEqual([]);
  });
});
