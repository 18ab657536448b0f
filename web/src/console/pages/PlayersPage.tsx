import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Card, Page, PageHeader } from '../../components/Page';
import { consoleApi, type PlayerRow } from '../api';
import { formatTime } from '../logic';
import { Badge, Button, DataTable, Empty, Ltr, QueryState, TextRow, type Column } from '../ui';
import css from './pages.module.css';

const MIN_QUERY = 2;

/** Players: a search (kept in the URL, `?q=`) and its results; each opens the player's card. */
export default function PlayersPage() {
  const { t, i18n } = useTranslation('console');
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const [text, setText] = useState(q);
  // Back and forward through searches: the box follows the address.
  useEffect(() => setText(q), [q]);
  const searching = q.length >= MIN_QUERY;
  const result = consoleApi.usePlayersQuery(q, { skip: !searching });
  // The answer to this search only (never the last search's while this one loads).
  const found = result.currentData;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = text.trim();
    if (next.length < MIN_QUERY) return;
    setParams(next ? { q: next } : {});
  };
  const why = text.trim().length < MIN_QUERY ? t('players.tooShort', { min: MIN_QUERY }) : null;

  const columns: Column<PlayerRow>[] = [
    {
      key: 'id',
      label: t('players.col.id'),
      render: (p) => (
        <Link to={`/players/${p.id}`} state={{ from: `/players?q=${encodeURIComponent(q)}` }} data-testid="player-link">
          <Ltr>#{p.id}</Ltr>
        </Link>
      ),
    },
    {
      key: 'name',
      label: t('players.col.name'),
      render: (p) => (
        <Link to={`/players/${p.id}`} state={{ from: `/players?q=${encodeURIComponent(q)}` }} className={css.nameLink} tabIndex={-1}>
          {[p.firstName, p.lastName].filter(Boolean).join(' ') || '—'}
        </Link>
      ),
    },
    {
      key: 'contact',
      label: t('players.col.contact'),
      render: (p) => (
        <span className={css.stack}>
          {p.email ? <Ltr>{p.email}</Ltr> : null}
          {p.phone ? <Ltr>+{p.phone.replace(/^\+/, '')}</Ltr> : null}
          {!p.email && !p.phone ? '—' : null}
        </span>
      ),
    },
    { key: 'currency', label: t('players.col.currency'), render: (p) => p.currency },
    {
      key: 'status',
      label: t('players.col.status'),
      render: (p) => (
        <span className={css.badges}>
          {p.isBanned ? <Badge tone="danger">{t('player.banned')}</Badge> : <Badge tone="ok">{t('player.active')}</Badge>}
          {p.isPartner ? <Badge tone="accent">{t('player.partner')}</Badge> : null}
        </span>
      ),
    },
    { key: 'created', label: t('players.col.created'), render: (p) => formatTime(p.createdAt, i18n.language) },
  ];

  return (
    <Page>
      <PageHeader title={t('players.title')} lead={t('players.lead')} />
      <Card as="form" role="search" onSubmit={submit} aria-label={t('players.searchLabel')}>
        <div className={css.searchRow}>
          <TextRow
            label={t('players.searchLabel')}
            hint={t('players.searchHint')}
            rowClassName={css.grow}
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={100}
            enterKeyHint="search"
            data-testid="players-search"
          />
          <Button tone="primary" type="submit" disabledReason={why} className={css.searchButton} data-testid="players-search-submit">
            {t('players.search')}
          </Button>
        </div>
      </Card>
      {searching ? (
        <QueryState isLoading={result.isFetching && !result.currentData} error={result.error} onRetry={() => void result.refetch()}>
          {found && found.length > 0 ? (
            <Card title={t('players.results', { count: found.length })}>
              {found.length >= 50 ? <p className={css.muted}>{t('players.capped')}</p> : null}
              <DataTable columns={columns} rows={found} rowKey={(p) => p.id} caption={t('players.title')} rowTestId={(p) => `player-row-${p.id}`} />
            </Card>
          ) : found ? (
            <Empty title={t('players.none', { q })} testId="players-none">
              <p>{t('players.noneLead')}</p>
            </Empty>
          ) : null}
        </QueryState>
      ) : (
        <Empty title={t('players.start')}>
          <p>{t('players.startLead')}</p>
        </Empty>
      )}
    </Page>
  );
}
