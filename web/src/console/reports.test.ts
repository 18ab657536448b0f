import { describe, expect, it } from 'vitest';
import {
  activeStats,
  chartCurrency,
  compactMoney,
  currentQuickRange,
  daySeries,
  isEmptyReport,
  operatorToday,
  pageOf,
  parseFilters,
  peakDay,
  quickRange,
  reportPath,
  sortRows,
  type ReportLine,
} from './reports';

const line = (over: Partial<ReportLine>): ReportLine => ({
  currency: 'TND',
  bets: 0,
  stakes: 0,
  wins: 0,
  ggr: 0,
  bonusCost: 0,
  ngr: 0,
  deposits: 0,
  withdrawals: 0,
  ...over,
});

describe('the operator day and the ranges', () => {
  it('is Tunis time: 23:30 UTC is already the next day', () => {
    expect(operatorToday(Date.UTC(2026, 10, 28, 22, 59))).toBe('2026-11-28');
    expect(operatorToday(Date.UTC(2026, 10, 28, 23, 0))).toBe('2026-11-29');
  });

  it('quick ranges end today', () => {
    expect(quickRange('7d', '2026-03-02')).toEqual({ from: '2026-02-24', to: '2026-03-02' });
    expect(quickRange('30d', '2026-11-28')).toEqual({ from: '2026-10-30', to: '2026-11-28' });
    expect(quickRange('month', '2026-11-28')).toEqual({ from: '2026-11-01', to: '2026-11-28' });
    expect(quickRange('year', '2026-11-28')).toEqual({ from: '2026-01-01', to: '2026-11-28' });
    expect(currentQuickRange({ from: '2026-11-01', to: '2026-11-28' }, '2026-11-28')).toBe('month');
    expect(currentQuickRange({ from: '2026-11-02', to: '2026-11-28' }, '2026-11-28')).toBeNull();
  });

  it('reads the filters from the address, defaults for what is not a real date or grouping', () => {
    const today = '2026-11-28';
    expect(parseFilters(new URLSearchParams(''), today)).toEqual({ from: '2026-10-30', to: '2026-11-28', by: 'day', currency: '' });
    expect(parseFilters(new URLSearchParams('from=2026-02-30&to=2026-11-01&by=week&currency=tnd'), today)).toEqual({
      from: '2026-10-30',
      to: '2026-11-01',
      by: 'day',
      currency: 'TND',
    });
    // The range is the server's to judge (47).
    expect(parseFilters(new URLSearchParams('from=2010-01-01&to=2026-01-01&by=game'), today)).toMatchObject({ from: '2010-01-01', by: 'game' });
    expect(reportPath({ from: '2026-11-01', to: '2026-11-28', by: 'provider', currency: 'TND' }, 'csv')).toBe(
      '/api/admin/reports?from=2026-11-01&to=2026-11-28&by=provider&currency=TND&format=csv',
    );
    expect(reportPath({ from: '2026-11-01', to: '2026-11-28', by: 'day', currency: '' })).toBe('/api/admin/reports?from=2026-11-01&to=2026-11-28&by=day');
  });
});

describe('the rows', () => {
  const rows = [
    line({ provider: 'pragmatic', ggr: 10.5 }),
    line({ provider: 'evolution', ggr: 1200.001 }),
    line({ provider: 'studio', ggr: -3.25 }),
    line({ provider: 'gr8', ggr: 10.5 }),
  ];

  it('sort amounts exactly (minor units), ties in the server order', () => {
    expect(sortRows(rows, 'ggr', 'desc').map((r) => r.provider)).toEqual(['evolution', 'pragmatic', 'gr8', 'studio']);
    expect(sortRows(rows, 'ggr', 'asc').map((r) => r.provider)).toEqual(['studio', 'pragmatic', 'gr8', 'evolution']);
    expect(sortRows(rows, 'provider', 'asc').map((r) => r.provider)).toEqual(['evolution', 'gr8', 'pragmatic', 'studio']);
    // 0.1 + 0.2 style amounts compare as integers.
    const close = [line({ provider: 'a', stakes: 0.3 }), line({ provider: 'b', stakes: 0.30000000000000004 })];
    expect(sortRows(close, 'stakes', 'desc').map((r) => r.provider)).toEqual(['a', 'b']);
  });

  it('page 31 rows at a time, a page out of range is the last', () => {
    const many = Array.from({ length: 70 }, (_, i) => i);
    expect(pageOf(many, 1)).toMatchObject({ page: 1, pages: 3 });
    expect(pageOf(many, 3).rows).toEqual([62, 63, 64, 65, 66, 67, 68, 69]);
    expect(pageOf(many, 9).page).toBe(3);
    expect(pageOf([], 1)).toEqual({ rows: [], page: 1, pages: 1 });
  });

  it('active players count a day once across currencies; peak and average', () => {
    const days = [
      line({ date: '2026-11-01', activePlayers: 2 }),
      line({ date: '2026-11-01', currency: 'USD', activePlayers: 2 }),
      line({ date: '2026-11-02', activePlayers: 5 }),
      line({ date: '2026-11-03', activePlayers: 0 }),
    ];
    expect(activeStats(days)).toEqual({ peak: 5, peakDate: '2026-11-02', average: 2.33, days: 3 });
    expect(activeStats([line({ date: '2026-11-01', activePlayers: 1 }), ...Array.from({ length: 29 }, (_, i) => line({ date: `2026-11-${String(i + 2).padStart(2, '0')}`, activePlayers: 0 }))]).average).toBe(0.03);
  });

  it('a report of zero rows by day is empty; one stake is not', () => {
    const zeros = [line({ date: '2026-11-01', activePlayers: 0 }), line({ date: '2026-11-02', activePlayers: 0 })];
    expect(isEmptyReport({ rows: zeros, totals: [line({})] })).toBe(true);
    expect(isEmptyReport({ rows: [], totals: [line({})] })).toBe(true);
    expect(isEmptyReport({ rows: [...zeros, line({ date: '2026-11-03', stakes: 0.001 })], totals: [line({ stakes: 0.001 })] })).toBe(false);
  });
});

describe('the charts series', () => {
  it('are one currency in date order, in minor units', () => {
    const rows = [
      line({ date: '2026-11-02', ggr: 12.345, ngr: 10, deposits: 100, withdrawals: 0 }),
      line({ date: '2026-11-01', ggr: -1.5, ngr: -2, deposits: 0, withdrawals: 50.5 }),
      line({ date: '2026-11-01', currency: 'USD', ggr: 99 }),
    ];
    const s = daySeries(rows, 'TND');
    expect(s.days).toEqual(['2026-11-01', '2026-11-02']);
    expect(s.x).toEqual([Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 10, 2) / 1000]);
    expect(s.values.ggr).toEqual([-1500, 12345]);
    expect(s.values.withdrawals).toEqual([50500, 0]);
    expect(peakDay(s, 'ggr')).toEqual({ date: '2026-11-02', minor: 12345 });
    expect(chartCurrency('', [line({ currency: 'USD' }), line({ currency: 'TND' })])).toBe('TND');
    expect(chartCurrency('USD', [])).toBe('USD');
  });

  it('write axis figures short in the reader language', () => {
    expect(compactMoney(12_345_000, 'TND', 'en')).toBe('12.3K');
    expect(compactMoney(-1_500, 'TND', 'en')).toBe('-1.5');
    expect(compactMoney(2_500_000_000, 'TND', 'fr')).toMatch(/^2,5\sM$/);
  });
});
