/*
 * The reports page's two charts by day (one currency): GGR and NGR, deposits and withdrawals.
 * Each says in words what it shows (totals and the best day) for assistive technology; the
 * page's table stays the full source.
 */
import { useTranslation } from 'react-i18next';
import { displayCurrency, formatMinorMoney } from '../../components/money';
import type { DaySeries } from '../reports';
import { TimeChart, type ChartLine } from './TimeChart';
import css from './TimeChart.module.css';

export interface ReportChartsProps {
  series: DaySeries;
  currency: string;
  lang: string;
  from: string;
  to: string;
  /** The range's totals in minor units (the server's, for the summaries). */
  ggr: bigint;
  ngr: bigint;
  deposits: bigint;
  withdrawals: bigint;
  /** The day with the largest GGR (null when no day had any). */
  peak: { date: string; minor: number } | null;
}

/** The colours of the lines: design tokens of src/styles.css. */
export const LINE_COLORS = {
  ggr: '--c-gold',
  ngr: '--c-accent-2',
  deposits: '--c-success',
  withdrawals: '--c-danger',
} as const;

const dayOf = (date: string, lang: string) =>
  new Intl.DateTimeFormat(`${(lang || 'en').slice(0, 2)}-u-nu-latn`, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

export function ReportCharts({ series, currency, lang, from, to, ggr, ngr, deposits, withdrawals, peak }: ReportChartsProps) {
  const { t: tr } = useTranslation('console-reports');
  const money = (minor: bigint | number) => formatMinorMoney(minor, currency, lang);
  const line = (key: keyof typeof LINE_COLORS, dashed = false): ChartLine => ({
    key,
    label: tr(`field.${key}`),
    color: LINE_COLORS[key],
    values: series.values[key],
    dashed,
  });
  const range = { from: dayOf(from, lang), to: dayOf(to, lang), currency: displayCurrency(currency) };
  const revenue = [
    tr('charts.revenueSummary', { ...range, ggr: money(ggr), ngr: money(ngr) }),
    peak ? tr('charts.revenuePeak', { date: dayOf(peak.date, lang), amount: money(peak.minor) }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const common = { x: series.x, days: series.days, currency, lang, hint: tr('charts.hint'), unavailable: tr('charts.unavailable') };
  return (
    <div className={css.pair}>
      <TimeChart {...common} title={tr('charts.revenue')} summary={revenue} lines={[line('ggr'), line('ngr', true)]} testId="chart-revenue" />
      <TimeChart
        {...common}
        title={tr('charts.payments')}
        summary={tr('charts.paymentsSummary', { ...range, deposits: money(deposits), withdrawals: money(withdrawals) })}
        lines={[line('deposits'), line('withdrawals', true)]}
        testId="chart-payments"
      />
    </div>
  );
}
