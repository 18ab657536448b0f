import { act, render, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import reportsEn from '../../locales/en/console-reports.json';
import { daySeries, type ReportLine } from '../reports';
import { ReportCharts } from './ReportCharts';
import { chartHeight, TimeChart } from './TimeChart';

i18n.addResourceBundle('en', 'console-reports', reportsEn, true, true);

/** What the fake uPlot was built with: options, data, the element it drew into. */
const made: { opts: any; data: number[][]; target: HTMLElement; setSize: ReturnType<typeof vi.fn>; destroy: ReturnType<typeof vi.fn> }[] = [];

vi.mock('uplot', () => {
  class FakeUPlot {
    static tzDate = (d: Date) => d;
    setSize = vi.fn();
    destroy = vi.fn();
    cursor = { idx: null as number | null };
    constructor(opts: any, data: number[][], target: HTMLElement) {
      made.push({ opts, data, target, setSize: this.setSize, destroy: this.destroy });
    }
  }
  return { default: FakeUPlot };
});

/** A ResizeObserver the test drives. */
let resize: ((width: number) => void) | null = null;
class FakeResizeObserver {
  constructor(private cb: ResizeObserverCallback) {
    resize = (width) => this.cb([{ contentRect: { width } } as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  observe() {}
  disconnect() {
    resize = null;
  }
}

beforeEach(() => {
  made.length = 0;
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
});
afterEach(() => vi.unstubAllGlobals());

const day = (date: string, over: Partial<ReportLine>): ReportLine => ({
  date,
  currency: 'TND',
  bets: 0,
  stakes: 0,
  wins: 0,
  ggr: 0,
  bonusCost: 0,
  ngr: 0,
  deposits: 0,
  withdrawals: 0,
  activePlayers: 0,
  ...over,
});

describe('TimeChart', () => {
  it('draws its lines with uPlot, axes in short money, follows its width, is destroyed with it', async () => {
    const x = [Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 10, 2) / 1000, Date.UTC(2026, 10, 3) / 1000];
    const { unmount } = render(
      <TimeChart
        title="GGR and NGR"
        summary="GGR 1.000 TND in total"
        unavailable="no chart"
        x={x}
        days={['2026-11-01', '2026-11-02', '2026-11-03']}
        lines={[{ key: 'ggr', label: 'GGR', color: '--c-gold', values: [1000, -500, 12_345_000] }]}
        currency="TND"
        lang="en"
        testId="chart"
      />,
    );
    await waitFor(() => expect(made).toHaveLength(1));
    const [{ opts, data, target, setSize, destroy }] = made as [(typeof made)[number]];
    expect(data).toEqual([x, [1000, -500, 12_345_000]]);
    expect(target).toBe(screen.getByTestId('chart-plot'));
    expect(opts.width).toBe(600);
    expect(opts.height).toBe(chartHeight(600));
    expect(opts.series.map((s: { label?: string }) => s.label)).toEqual([undefined, 'GGR']);
    // No style sheet in jsdom: the token's fallback colour.
    expect(opts.series[1].stroke).toBe('#f5b82e');
    expect(opts.axes[1].values(null, [0, 12_345_000, -1_500])).toEqual(['0', '12.3K', '-1.5']);
    expect(opts.axes[0].values(null, [x[0]])).toEqual(['Nov 1']);
    // The accessible name and description: the caption and the summary; the canvas is hidden.
    expect(screen.getByRole('figure', { name: 'GGR and NGR' }).getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('GGR 1.000 TND in total')).toBeTruthy();
    expect(target.getAttribute('aria-hidden')).toBe('true');

    act(() => resize!(320));
    expect(setSize).toHaveBeenCalledWith({ width: 320, height: chartHeight(320) });

    // Pointing at a day shows its exact figures.
    act(() => opts.hooks.setCursor[0]({ cursor: { idx: 2 } }));
    expect(screen.getByTestId('chart-value-ggr').textContent).toBe('12,345.000 TND');

    unmount();
    expect(destroy).toHaveBeenCalled();
  });
});

describe('ReportCharts', () => {
  it('gives the revenue chart GGR and NGR and the payments chart deposits and withdrawals, per day in order', async () => {
    const rows = [
      day('2026-11-03', { ggr: 40.25, ngr: 30.25, deposits: 0, withdrawals: 120 }),
      day('2026-11-01', { ggr: 120.5, ngr: 100.5, deposits: 500, withdrawals: 0 }),
      day('2026-11-02', { ggr: -15.75, ngr: -15.75, deposits: 250.125, withdrawals: 0 }),
    ];
    const series = daySeries(rows, 'TND');
    render(
      <ReportCharts
        series={series}
        currency="TND"
        lang="en"
        from="2026-11-01"
        to="2026-11-03"
        ggr={145_000n}
        ngr={115_000n}
        deposits={750_125n}
        withdrawals={120_000n}
        peak={{ date: '2026-11-01', minor: 120_500 }}
      />,
    );
    await waitFor(() => expect(made).toHaveLength(2));
    const byTitle = Object.fromEntries(
      made.map((m) => [m.target.closest('figure')!.querySelector('figcaption')!.textContent, m]),
    );
    const revenue = byTitle['GGR and NGR']!;
    const payments = byTitle['Deposits and withdrawals']!;
    expect(revenue.opts.series.slice(1).map((s: { label: string }) => s.label)).toEqual(['GGR', 'NGR']);
    // NGR dashed: without bonuses it runs over GGR, which shows between its dashes.
    expect(revenue.opts.series.slice(1).map((s: { dash?: number[] }) => s.dash)).toEqual([undefined, [6, 5]]);
    expect(revenue.data.slice(1)).toEqual([
      [120_500, -15_750, 40_250],
      [100_500, -15_750, 30_250],
    ]);
    expect(payments.opts.series.slice(1).map((s: { label: string }) => s.label)).toEqual(['Deposits', 'Withdrawals']);
    expect(payments.data.slice(1)).toEqual([
      [500_000, 250_125, 0],
      [0, 0, 120_000],
    ]);
    expect(revenue.data[0]).toEqual(series.x);
    expect(screen.getByText(/GGR and NGR by day from Nov 1, 2026 to Nov 3, 2026, in TND: GGR 145\.000 TND in total, NGR 115\.000 TND\. The best day was Nov 1, 2026, with a GGR of 120\.500 TND\./)).toBeTruthy();
    expect(screen.getByText(/750\.125 TND deposited, 120\.000 TND withdrawn/)).toBeTruthy();
  });
});
