import { useEffect, useId, useMemo, useState, type FormEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { isApiError } from '../../app/errors';
import { Card, EmptyState, Page, PageHeader } from '../../components/Page';
import { formatMinor, formatMinorMoney, currencyExponent, displayCurrency } from '../../components/money';
import { latn } from '../logic';
import {
  activeStats,
  chartCurrency,
  currentQuickRange,
  daySeries,
  daysIn,
  defaultSort,
  groupColumns,
  GROUPINGS,
  hasActivity,
  isEmptyReport,
  minorOf,
  MONEY_FIELDS,
  operatorToday,
  pageOf,
  parseFilters,
  peakDay,
  QUICK_RANGES,
  quickRange,
  reportPath,
  sortKeys,
  sortRows,
  type Grouping,
  type MoneyField,
  type ReportFilters,
  type ReportLine,
  type SortDir,
  type SortKey,
} from '../reports';
import { ReportCharts } from '../charts/ReportCharts';
import { useReportCurrenciesQuery, useReportQuery, type ReportReply } from '../reportsApi';
import { Button, DataTable, Empty, Ltr, Notice, SelectRow, Spinner, TextRow, useErrorText, type Column } from '../ui';
import css from './reports.module.css';

/** The filters as the address holds them (only what differs from the defaults, but the dates). */
function paramsOf(f: ReportFilters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ from: f.from, to: f.to });
  if (f.by !== 'day') q.set('by', f.by);
  if (f.currency) q.set('currency', f.currency);
  for (const [k, v] of Object.entries(extra)) if (v) q.set(k, v);
  return `?${q.toString()}`;
}

/** The CSV's file name, as the server names it (Content-Disposition). */
const csvName = (f: ReportFilters) => `carthage-report-${f.by}-${f.from}-${f.to}.csv`;

/**
 * Reports (`reports.read`: admin, finance): GGR, NGR, bonus cost and payments over a range of
 * the operator's days, grouped by day, product, provider or game, for one currency or all.
 * The filters, the table's order and page live in the URL; totals as cards; by day two charts
 * (uPlot); the rows in a table (cards on a phone), 31 a page; the same report as a CSV file.
 */
export default function ReportsPage() {
  const { t: tr, i18n, ready } = useTranslation('console-reports');
  const { t } = useTranslation('console');
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const today = operatorToday();
  const filters = parseFilters(params, today);
  const { from, to, by, currency } = filters;
  const inverted = daysIn(from, to) === 0;
  const report = useReportQuery(filters, { skip: inverted });
  const currencies = useReportCurrenciesQuery();

  // The dates are typed, then shown (a half-typed year must not ask the server for it).
  const [draft, setDraft] = useState({ from, to });
  useEffect(() => setDraft({ from, to }), [from, to]);
  const draftInverted = daysIn(draft.from, draft.to) === 0 && draft.from !== '' && draft.to !== '';
  const applyDates = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.from || !draft.to || draftInverted) return;
    setParams(paramsOf({ ...filters, ...draft }));
  };

  const quick = currentQuickRange(filters, today);
  const data = report.currentData;
  const byLabel = useId();
  // The typed dates: folded on a phone (the quick ranges first), open on a wider screen.
  const [datesOpen, setDatesOpen] = useState(
    () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 761px)').matches,
  );

  if (!ready) return <Spinner label={t('state.loading')} />;
  return (
    <Page>
      <PageHeader title={tr('title')} lead={tr('lead')} />
      <div className={css.toolbar}>
        <ExportLink filters={filters} disabled={inverted} />
      </div>

      <Card as="div" className={css.filters} data-testid="reports-filters">
        <nav className={css.quick} aria-label={tr('filters.quick')}>
          {QUICK_RANGES.map((k) => (
            <Link
              key={k}
              to={paramsOf({ ...filters, ...quickRange(k, today) })}
              className={`${css.chip} ${quick === k ? css.chipOn : ''}`}
              aria-current={quick === k ? 'true' : undefined}
              data-testid={`reports-range-${k}`}
            >
              {tr(`filters.range.${k}`)}
            </Link>
          ))}
        </nav>
        <details
          className={css.custom}
          open={datesOpen}
          onToggle={(e) => setDatesOpen((e.currentTarget as HTMLDetailsElement).open)}
          data-testid="reports-dates"
        >
          <summary className={css.customSummary}>
            <span className={css.label}>{tr('filters.dates')}</span>
            <span className={css.rangeText} data-testid="reports-range-text">
              {tr('range', { from: dayText(from, lang), to: dayText(to, lang) })}
            </span>
          </summary>
          <form className={css.dates} onSubmit={applyDates} noValidate>
            <TextRow
              type="date"
              label={tr('filters.from')}
              value={draft.from}
              max={today}
              onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
              rowClassName={css.date}
              data-testid="reports-from"
            />
            <TextRow
              type="date"
              label={tr('filters.to')}
              value={draft.to}
              onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
              error={draftInverted ? tr('filters.toBeforeFrom') : null}
              rowClassName={css.date}
              data-testid="reports-to"
            />
            <div className={css.applyBox}>
              <Button tone="primary" type="submit" disabled={!draft.from || !draft.to || draftInverted} data-testid="reports-apply">
                {tr('filters.apply')}
              </Button>
            </div>
          </form>
        </details>
        <div className={css.groupRow}>
          <div className={css.byBox}>
            <span className={css.label} id={byLabel}>
              {tr('filters.by')}
            </span>
            <nav className={css.segments} aria-labelledby={byLabel}>
              {GROUPINGS.map((g) => (
                <Link
                  key={g}
                  to={paramsOf({ ...filters, by: g })}
                  className={`${css.segment} ${g === by ? css.segmentOn : ''}`}
                  aria-current={g === by ? 'page' : undefined}
                  data-testid={`tab-${g}`}
                >
                  {tr(`by.${g}`)}
                </Link>
              ))}
            </nav>
          </div>
          <SelectRow
            label={tr('filters.currency')}
            value={currency}
            onChange={(e) => setParams(paramsOf({ ...filters, currency: e.target.value }))}
            options={[
              { value: '', label: tr('filters.allCurrencies') },
              ...[...new Set([...(currencies.data ?? []), ...(currency ? [currency] : [])])].map((c) => ({ value: c, label: displayCurrency(c) })),
            ]}
            rowClassName={css.currency}
            data-testid="reports-currency"
          />
        </div>
      </Card>

      {inverted ? (
        <Notice tone="warn" testId="reports-inverted">
          {tr('filters.toBeforeFrom')}
        </Notice>
      ) : report.error ? (
        <ReportError error={report.error} onRetry={() => void report.refetch()} />
      ) : !data ? (
        <Spinner label={t('state.loading')} />
      ) : isEmptyReport(data) ? (
        <EmptyState icon="∅" title={tr('empty.title')} headingLevel={2} data-testid="reports-empty">
          <p>{tr('empty.lead', { from: dayText(data.from, lang), to: dayText(data.to, lang) })}</p>
        </EmptyState>
      ) : (
        <Report data={data} filters={filters} fetching={report.isFetching} />
      )}
    </Page>
  );
}

/** A day of the report in the reader's language ("Nov 28, 2026"). */
export const dayText = (date: string, lang: string) =>
  new Intl.DateTimeFormat(latn(lang), { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

/** The report's refusal: 47 (a bad range, grouping or currency) in the page's words, else by code. */
function ReportError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t: tr } = useTranslation('console-reports');
  const { t } = useTranslation('console');
  const message = useErrorText();
  const invalid = isApiError(error) && error.code === 47;
  return (
    <EmptyState icon="!" tone="danger" title={tr('error.title')} headingLevel={2} live data-testid="reports-error">
      <p data-testid="reports-error-message">{invalid ? tr('error.invalid') : message(error)}</p>
      {invalid ? null : (
        <Button tone="secondary" onClick={onRetry}>
          {t('state.retry')}
        </Button>
      )}
    </EmptyState>
  );
}

/**
 * "Export CSV": a link to the report's file (same filters, the staff cookie goes along) with a
 * `download` name — what a middle click or "save link as" gets. A plain click fetches it here,
 * so the button can say it is busy and a refusal (an envelope, not a file) shows its message
 * instead of being saved as the CSV.
 */
function ExportLink({ filters, disabled }: { filters: ReportFilters; disabled: boolean }) {
  const { t: tr } = useTranslation('console-reports');
  const message = useErrorText();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const href = reportPath(filters, 'csv');
  const onClick = async (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (busy || disabled) return;
    setBusy(true);
    setFailed(null);
    try {
      const res = await fetch(href, { credentials: 'same-origin' });
      const type = res.headers.get('content-type') ?? '';
      if (!res.ok || !type.includes('text/csv')) {
        const env = (await res.json().catch(() => null)) as { status?: number; error_message?: string | null } | null;
        throw { code: typeof env?.status === 'number' ? env.status : -1, message: env?.error_message ?? '' };
      }
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = csvName(filters);
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setFailed(tr('export.failed', { message: message(err) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={css.export}>
      <a
        href={disabled ? undefined : href}
        download={csvName(filters)}
        className={css.exportLink}
        aria-disabled={disabled || busy || undefined}
        aria-busy={busy || undefined}
        onClick={(e) => void onClick(e)}
        data-testid="reports-export"
      >
        {busy ? <span className={css.spinner} aria-hidden="true" /> : <span aria-hidden="true">⤓</span>}
        <span>{tr('export.csv')}</span>
      </a>
      {busy ? (
        <span className={css.srOnly} role="status">
          {tr('export.busy')}
        </span>
      ) : null}
      {failed ? (
        <Notice tone="error" testId="reports-export-error" className={css.exportError}>
          {failed}
        </Notice>
      ) : null}
    </div>
  );
}

/** The report: totals, the charts by day, the rows. */
function Report({ data, filters, fetching }: { data: ReportReply; filters: ReportFilters; fetching: boolean }) {
  const { t: tr, i18n } = useTranslation('console-reports');
  const lang = i18n.language;
  const byDay = data.by === 'day';
  const chartIn = chartCurrency(filters.currency, data.totals);
  const series = useMemo(() => (byDay && chartIn ? daySeries(data.rows, chartIn) : null), [byDay, chartIn, data.rows]);
  const active = byDay ? activeStats(data.rows) : null;
  const total = data.totals.find((l) => l.currency === chartIn);
  return (
    <div className={css.report} aria-busy={fetching || undefined} data-testid="reports-report" data-by={data.by}>
      {data.totals.map((line) => (
        <Totals key={line.currency} line={line} titled={data.totals.length > 1} active={active} />
      ))}
      {series && series.days.length > 1 && chartIn ? (
        <Card
          title={tr('charts.title')}
          lead={tr('charts.lead', { currency: displayCurrency(chartIn) })}
          data-testid="reports-charts"
        >
          <ReportCharts
            series={series}
            currency={chartIn}
            lang={lang}
            from={data.from}
            to={data.to}
            ggr={total ? minorOf(total, 'ggr') : 0n}
            ngr={total ? minorOf(total, 'ngr') : 0n}
            deposits={total ? minorOf(total, 'deposits') : 0n}
            withdrawals={total ? minorOf(total, 'withdrawals') : 0n}
            peak={peakDay(series, 'ggr')}
          />
        </Card>
      ) : null}
      <Rows data={data} filters={filters} />
    </div>
  );
}

const TOTAL_FIELDS: { field: MoneyField; hint?: string; tone?: boolean }[] = [
  { field: 'ggr', hint: 'totals.ggrHint', tone: true },
  { field: 'ngr', hint: 'totals.ngrHint', tone: true },
  { field: 'stakes' },
  { field: 'wins' },
  { field: 'bonusCost', hint: 'totals.bonusCostHint' },
  { field: 'deposits' },
  { field: 'withdrawals', hint: 'totals.withdrawalsHint' },
];

/** One currency's totals as tiles; by day the active players' peak and daily average. */
function Totals({ line, titled, active }: { line: ReportLine; titled: boolean; active: ReturnType<typeof activeStats> | null }) {
  const { t: tr, i18n } = useTranslation('console-reports');
  const lang = i18n.language;
  const c = line.currency;
  const numberFmt = new Intl.NumberFormat(latn(lang));
  return (
    <Card
      title={titled ? tr('totals.titleIn', { currency: displayCurrency(c) }) : tr('totals.title')}
      data-testid={`reports-totals-${c}`}
    >
      <dl className={css.tiles}>
        {TOTAL_FIELDS.map(({ field, hint, tone }) => {
          const minor = minorOf(line, field);
          return (
            <div key={field} className={`${css.tile} ${field === 'ggr' || field === 'ngr' ? css.tileMain : ''}`}>
              <dt>{tr(`field.${field}`)}</dt>
              <dd className={`${css.tileValue} ${tone && minor < 0n ? css.negative : ''}`} data-testid={`total-${field}-${c}`}>
                <Ltr>{formatMinorMoney(minor, c, lang)}</Ltr>
              </dd>
              {hint ? <dd className={css.tileHint}>{tr(hint)}</dd> : null}
            </div>
          );
        })}
        <div className={css.tile}>
          <dt>{tr('field.bets')}</dt>
          <dd className={css.tileValue} data-testid={`total-bets-${c}`}>
            {numberFmt.format(line.bets)}
          </dd>
        </div>
        {active ? (
          <>
            <div className={css.tile}>
              <dt>{tr('totals.activePeak')}</dt>
              <dd className={css.tileValue} data-testid={`total-active-peak-${c}`}>
                {numberFmt.format(active.peak)}
              </dd>
              {active.peakDate ? <dd className={css.tileHint}>{tr('totals.activePeakOn', { date: dayText(active.peakDate, lang) })}</dd> : null}
            </div>
            <div className={css.tile}>
              <dt>{tr('totals.activeAverage')}</dt>
              <dd className={css.tileValue} data-testid={`total-active-average-${c}`}>
                {new Intl.NumberFormat(latn(lang), { maximumFractionDigits: 2 }).format(active.average)}
              </dd>
              <dd className={css.tileHint}>{tr('totals.activeAverageHint', { days: active.days })}</dd>
            </div>
          </>
        ) : null}
      </dl>
    </Card>
  );
}

/** The rows: sorted by a column (in the URL), 31 a page, a table or cards on a phone. */
function Rows({ data, filters }: { data: ReportReply; filters: ReportFilters }) {
  const { t: tr, i18n } = useTranslation('console-reports');
  const lang = i18n.language;
  const [params, setParams] = useSearchParams();
  const by = data.by as Grouping;
  const keys = sortKeys(by);
  const fallback = defaultSort(by);
  const sortParam = params.get('sort') as SortKey | null;
  const sort: SortKey = sortParam && keys.includes(sortParam) ? sortParam : fallback.key;
  const dirParam = params.get('dir');
  const dir: SortDir = dirParam === 'asc' || dirParam === 'desc' ? dirParam : sort === fallback.key ? fallback.dir : 'desc';
  // By day: the days with no activity may be left out (a long range has many).
  const onlyActive = by === 'day' && params.get('active') === '1';
  const sorted = useMemo(() => sortRows(onlyActive ? data.rows.filter(hasActivity) : data.rows, sort, dir), [data.rows, sort, dir, onlyActive]);
  const shown = pageOf(sorted, Number(params.get('page') ?? '1'));
  const oneCurrency = data.totals.length === 1 ? data.totals[0]!.currency : null;
  const numberFmt = new Intl.NumberFormat(latn(lang));

  const go = (next: { sort?: SortKey; dir?: SortDir; page?: number; active?: boolean }) => {
    const s = next.sort ?? sort;
    const d = next.dir ?? dir;
    const isDefault = s === fallback.key && d === fallback.dir;
    setParams(
      paramsOf(filters, {
        sort: isDefault ? '' : s,
        dir: isDefault ? '' : d,
        active: (next.active ?? onlyActive) ? '1' : '',
        page: next.page && next.page > 1 ? String(next.page) : '',
      }),
      { preventScrollReset: true },
    );
  };

  const money = (field: MoneyField): Column<ReportLine> => ({
    key: field,
    label: tr(`field.${field}`),
    align: 'end',
    render: (r) => {
      const minor = minorOf(r, field);
      return (
        <Ltr className={`${css.num} ${(field === 'ggr' || field === 'ngr') && minor < 0n ? css.negative : ''}`}>
          {formatMinor(minor, currencyExponent(r.currency), lang)}
        </Ltr>
      );
    },
  });
  const none = tr('none');
  const group: Column<ReportLine>[] = groupColumns(by).map((g) => ({
    key: g,
    label: tr(`field.${g}`),
    className: g === 'date' ? css.nowrap : undefined,
    render: (r) => {
      if (g === 'date') return r.date ? dayText(r.date, lang) : none;
      if (g === 'product') return r.product ? tr(`product.${r.product}`, { defaultValue: r.product }) : none;
      const id = r[g];
      return id ? <Ltr className={css.mono}>{id}</Ltr> : none;
    },
  }));
  const columns: Column<ReportLine>[] = [
    ...group,
    ...(oneCurrency ? [] : [{ key: 'currency', label: tr('field.currency'), render: (r: ReportLine) => displayCurrency(r.currency) }]),
    ...MONEY_FIELDS.map(money),
    { key: 'bets', label: tr('field.bets'), align: 'end', render: (r) => <span className={css.num}>{numberFmt.format(r.bets)}</span> },
    ...(by === 'day'
      ? [{ key: 'activePlayers', label: tr('field.activePlayers'), align: 'end' as const, render: (r: ReportLine) => <span className={css.num}>{numberFmt.format(r.activePlayers ?? 0)}</span> }]
      : []),
  ];
  const rowKey = (r: ReportLine) => [r.date, r.currency, r.product, r.provider, r.game].join('|');

  return (
    <Card
      title={tr('table.title')}
      lead={oneCurrency ? tr('table.amountsIn', { currency: displayCurrency(oneCurrency) }) : tr('table.amountsEach')}
      data-testid="reports-rows"
    >
      <div className={css.tableBar}>
        <SelectRow
          label={tr('table.sortBy')}
          value={sort}
          onChange={(e) => go({ sort: e.target.value as SortKey, dir: e.target.value === fallback.key ? fallback.dir : 'desc' })}
          options={keys.map((k) => ({ value: k, label: tr(`field.${k}`) }))}
          rowClassName={css.sortSelect}
          data-testid="reports-sort"
        />
        <Button
          small
          tone="ghost"
          className={css.dirButton}
          onClick={() => go({ dir: dir === 'asc' ? 'desc' : 'asc' })}
          aria-label={dir === 'asc' ? tr('table.orderAsc') : tr('table.orderDesc')}
          data-testid="reports-dir"
          data-dir={dir}
        >
          <span aria-hidden="true">{dir === 'asc' ? '↑' : '↓'}</span>
          {dir === 'asc' ? tr('table.ascending') : tr('table.descending')}
        </Button>
        {by === 'day' ? (
          <label className={css.check}>
            <input type="checkbox" checked={onlyActive} onChange={(e) => go({ active: e.target.checked })} data-testid="reports-only-active" />
            {tr('table.onlyActive')}
          </label>
        ) : null}
        <span className={css.count} data-testid="reports-count">
          {tr('table.rows', { count: sorted.length })}
        </span>
      </div>
      {by === 'game' && data.rows.length >= 500 ? <Notice tone="info">{tr('table.gameCapped')}</Notice> : null}
      {sorted.length === 0 ? (
        <Empty title={tr('empty.title')} />
      ) : (
        <div className={css.tableBox}>
          <DataTable
            columns={columns}
            rows={shown.rows}
            rowKey={rowKey}
            caption={tr('table.caption', { by: tr(`by.${by}`) })}
            rowTestId={() => 'reports-row'}
          />
        </div>
      )}
      {shown.pages > 1 ? (
        <nav className={css.pager} aria-label={tr('table.pages')} data-testid="reports-pager">
          <Button small tone="secondary" disabled={shown.page <= 1} onClick={() => go({ page: shown.page - 1 })} data-testid="reports-prev">
            <span className={css.flip} aria-hidden="true">
              ‹
            </span>
            {tr('table.previous')}
          </Button>
          <span className={css.pagePos} aria-live="polite" data-testid="reports-page">
            {tr('table.page', { page: shown.page, pages: shown.pages })}
          </span>
          <Button small tone="secondary" disabled={shown.page >= shown.pages} onClick={() => go({ page: shown.page + 1 })} data-testid="reports-next">
            {tr('table.next')}
            <span className={css.flip} aria-hidden="true">
              ›
            </span>
          </Button>
        </nav>
      ) : null}
    </Card>
  );
}
