import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Card, Page, PageHeader } from '../../components/Page';
import { AuditDetails } from '../AuditDetails';
import { consoleApi, type AuditRow } from '../api';
import { formatTime, newerPage, olderPage, parseTrail, subjectUserId } from '../logic';
import { Badge, Button, DataTable, Empty, Facts, Ltr, Notice, QueryState, TextRow, useErrorText, type Column } from '../ui';
import css from './pages.module.css';

const PAGE_SIZE = 50;
const FILTERS = ['actor', 'action', 'subject'] as const;
type Filter = (typeof FILTERS)[number];

/**
 * The staff audit trail, newest first, 50 rows a page (`before`: the chain's place, with the
 * pages seen before in `trail`), filtered by actor, action (or a prefix ending in `.`) and
 * subject — all in the URL. "Verify the chain" recomputes every row's hash on the server.
 */
export default function AuditPage() {
  const { t, i18n } = useTranslation('console');
  const message = useErrorText();
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f)?.trim() ?? ''])) as Record<Filter, string>;
  const beforeText = params.get('before');
  const before = beforeText && /^\d+$/.test(beforeText) ? Number(beforeText) : null;
  const trail = parseTrail(params.get('trail'));
  const page = consoleApi.useAuditQuery({
    ...Object.fromEntries(FILTERS.filter((f) => filters[f]).map((f) => [f, filters[f]])),
    ...(before !== null ? { before } : {}),
    limit: PAGE_SIZE,
  });
  const [draft, setDraft] = useState(filters);
  // The form follows the address (back and forward, a link from elsewhere).
  const key = FILTERS.map((f) => filters[f]).join('\u0000');
  useEffect(() => setDraft(filters), [key]); // eslint-disable-line react-hooks/exhaustive-deps
  const [verify, check] = consoleApi.useLazyVerifyAuditQuery();

  const go = (next: { before: number | null; trail: number[] }, f: Record<Filter, string> = filters) => {
    const out = new URLSearchParams();
    for (const name of FILTERS) if (f[name]) out.set(name, f[name]);
    if (next.before !== null) out.set('before', String(next.before));
    if (next.trail.length) out.set('trail', next.trail.join(','));
    setParams(out);
  };
  const apply = (e: FormEvent) => {
    e.preventDefault();
    go({ before: null, trail: [] }, Object.fromEntries(FILTERS.map((f) => [f, draft[f].trim()])) as Record<Filter, string>);
  };
  const activeFilters = FILTERS.filter((f) => filters[f]).length;
  const filtered = activeFilters > 0;
  // Folded on a phone (the rows first), open on a wider screen or when a filter is set.
  const [filtersOpen, setFiltersOpen] = useState(
    () => filtered || (typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 761px)').matches),
  );
  const newer = newerPage(trail);
  const rows = page.currentData?.rows;
  const nextBefore = page.currentData?.nextBefore ?? null;

  const columns: Column<AuditRow>[] = [
    {
      key: 'seq',
      label: t('audit.col.seq'),
      render: (r) => (
        <span className={css.stack}>
          <strong>
            <Ltr>#{r.seq}</Ltr>
          </strong>
          <small className={css.muted}>{formatTime(r.createdAt, i18n.language)}</small>
        </span>
      ),
    },
    { key: 'actor', label: t('audit.col.actor'), render: (r) => <Ltr className={css.mono}>{r.actor}</Ltr> },
    { key: 'action', label: t('audit.col.action'), render: (r) => <Ltr className={css.mono}>{r.action}</Ltr> },
    {
      key: 'subject',
      label: t('audit.col.subject'),
      render: (r) => {
        const user = subjectUserId(r.subject);
        return user ? (
          <Link to={`/players/${user}`} state={{ from: `/audit?${params.toString()}` }}>
            <Ltr className={css.mono}>{r.subject}</Ltr>
          </Link>
        ) : (
          <Ltr className={css.mono}>{r.subject}</Ltr>
        );
      },
    },
    { key: 'details', label: t('audit.col.details'), render: (r) => <AuditDetails details={r.details} /> },
  ];

  return (
    <Page>
      <PageHeader title={t('audit.title')} lead={t('audit.lead')} />
      <div className={css.toolbar}>
        <Button tone="secondary" busy={check.isFetching} onClick={() => void verify(undefined, false)} data-testid="audit-verify">
          {t('audit.verify')}
        </Button>
      </div>
      {check.error ? <Notice tone="error">{message(check.error)}</Notice> : null}
      {check.data && !check.isFetching ? (
        <Card title={check.data.intact ? t('audit.intact') : t('audit.broken')} data-testid="audit-check" data-intact={check.data.intact}>
          <Notice tone={check.data.intact ? 'ok' : 'error'}>
            {check.data.intact ? t('audit.intactLead', { rows: check.data.rows }) : t('audit.brokenLead', { seq: check.data.breakSeq ?? '?' })}
          </Notice>
          <Facts
            items={[
              { label: t('audit.rows'), value: String(check.data.rows), testId: 'audit-check-rows' },
              { label: t('audit.headSeq'), value: <Ltr>#{check.data.headSeq}</Ltr> },
              { label: t('audit.headHash'), value: <Ltr className={`${css.mono} ${css.hash}`}>{check.data.headHash}</Ltr> },
              { label: t('audit.unchained'), value: String(check.data.unchained) },
              ...(check.data.intact ? [] : [{ label: t('audit.breakReason'), value: check.data.breakReason ?? '—' }]),
            ]}
          />
        </Card>
      ) : null}
      <details
        className={css.filterBox}
        open={filtersOpen}
        onToggle={(e) => setFiltersOpen((e.currentTarget as HTMLDetailsElement).open)}
        data-testid="audit-filters"
      >
        <summary className={css.filterSummary}>
          {t('audit.filters')}
          {activeFilters > 0 ? <Badge tone="accent">{t('audit.activeFilters', { n: activeFilters })}</Badge> : null}
        </summary>
        <form onSubmit={apply} className={css.formGrid}>
          <div className={css.filterGrid}>
            {FILTERS.map((f) => (
              <TextRow
                key={f}
                label={t(`audit.filter.${f}`)}
                hint={t(`audit.filterHint.${f}`)}
                value={draft[f]}
                onChange={(e) => setDraft((d) => ({ ...d, [f]: e.target.value }))}
                dir="ltr"
                autoCapitalize="none"
                spellCheck={false}
                data-testid={`audit-filter-${f}`}
              />
            ))}
          </div>
          <div className={css.formActions}>
            {filtered ? (
              <Button tone="ghost" onClick={() => go({ before: null, trail: [] }, { actor: '', action: '', subject: '' })}>
                {t('audit.clear')}
              </Button>
            ) : null}
            <Button tone="primary" type="submit" data-testid="audit-apply">
              {t('audit.apply')}
            </Button>
          </div>
        </form>
      </details>
      <QueryState isLoading={page.isFetching && !page.currentData} error={page.error} onRetry={() => void page.refetch()}>
        {rows && rows.length > 0 ? (
          <Card>
            <div className={css.pager}>
              <span id="audit-page-pos">
                <Badge>{before === null ? t('audit.newest') : t('audit.pageBefore', { seq: before })}</Badge>
              </span>
              {page.isFetching ? <small className={css.muted}>{t('state.loading')}</small> : null}
            </div>
            <DataTable columns={columns} rows={rows} rowKey={(r) => r.seq} caption={t('audit.title')} rowTestId={(r) => `audit-row-${r.seq}`} />
            <nav className={css.pager} aria-label={t('audit.pages')}>
              <Button
                small
                tone="ghost"
                disabled={before === null}
                title={before === null ? t('audit.atNewest') : undefined}
                aria-describedby="audit-page-pos"
                onClick={() => go({ before: null, trail: [] })}
              >
                {t('audit.first')}
              </Button>
              <Button
                small
                tone="secondary"
                disabled={!newer}
                title={newer ? undefined : t('audit.atNewest')}
                aria-describedby="audit-page-pos"
                onClick={() => newer && go(newer)}
                data-testid="audit-newer"
              >
                {t('audit.newer')}
              </Button>
              <Button
                small
                tone="secondary"
                disabled={nextBefore === null}
                title={nextBefore === null ? t('audit.atOldest') : undefined}
                aria-describedby="audit-end"
                onClick={() => nextBefore !== null && go(olderPage(before, trail, nextBefore))}
                data-testid="audit-older"
              >
                {t('audit.older')}
              </Button>
              {nextBefore === null ? (
                <small id="audit-end" className={css.muted}>
                  {t('audit.atOldest')}
                </small>
              ) : null}
            </nav>
          </Card>
        ) : (
          <Empty title={filtered ? t('audit.noneFiltered') : t('audit.none')} testId="audit-empty" />
        )}
      </QueryState>
    </Page>
  );
}
