import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import { isApiError } from '../../app/errors';
import { Money } from '../../components/Money';
import { Card, Muted, Page, PageHeader } from '../../components/Page';
import { useMe } from '../App';
import { AuditDetails } from '../AuditDetails';
import { consoleApi, type PlayerCard } from '../api';
import { can, formatTime, PERM, playerName, statusTone } from '../logic';
import { Badge, DataTable, Facts, Ltr, QueryState, type Column } from '../ui';
import { AdjustForm } from './player/AdjustForm';
import { BanAction } from './player/BanAction';
import { Notes } from './player/Notes';
import { ProviderBlocks } from './player/ProviderBlocks';
import css from './pages.module.css';

type Payment = PlayerCard['payments'][number];
type Entry = PlayerCard['transactions'][number];
type Bonus = PlayerCard['bonuses'][number];
type Device = PlayerCard['devices'][number];
type Round = PlayerCard['rounds'][number];
type Bet = PlayerCard['sportBets'][number];

/** The player's card (`/console/players/:id`): everything `GET /api/admin/players/{id}` returns, and what staff may do. */
export default function PlayerCardPage() {
  const { t } = useTranslation('console');
  const { id: raw } = useParams();
  const id = Number(raw);
  const valid = Number.isSafeInteger(id) && id > 0;
  const card = consoleApi.usePlayerQuery(id, { skip: !valid });
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/players';
  const back = (
    <Link to={from} className={css.back} data-testid="card-back">
      <span className={css.flip} aria-hidden="true">
        ←
      </span>{' '}
      {t('card.back')}
    </Link>
  );
  // Not a player's id (a staff member's, from the audit trail; a mistyped address).
  if (!valid || (isApiError(card.error) && card.error.code === 3)) {
    return (
      <Page>
        <PageHeader title={t('card.notFound')} back={back} />
        <Muted data-testid="card-not-found">{t('card.notFoundLead')}</Muted>
      </Page>
    );
  }
  return (
    <Page>
      <QueryState isLoading={card.isFetching && !card.currentData} error={card.error} onRetry={() => void card.refetch()}>
        {card.currentData ? <CardBody card={card.currentData} back={back} /> : null}
      </QueryState>
    </Page>
  );
}

/** Balances in the order staff read them: real money first. */
const KIND_ORDER = ['real', 'bonus', 'free_bet', 'cashback', 'weekly_cashback', 'points'];
const kindRank = (kind: string) => {
  const i = KIND_ORDER.indexOf(kind);
  return i === -1 ? KIND_ORDER.length : i;
};

const SECTIONS = ['overview', 'actions', 'notes', 'payments', 'ledger', 'rounds', 'bets', 'bonuses', 'devices', 'history'] as const;

function CardBody({ card, back }: { card: PlayerCard; back: React.ReactNode }) {
  const { t, i18n } = useTranslation('console');
  const me = useMe();
  const p = card.player;
  const lang = i18n.language;
  const now = Date.now();
  const rgUntil = card.selfExcludedUntil ?? null;
  const coolOff = card.coolOffUntil ?? null;
  const mayAct = can(me.permissions, PERM.playersBan) || can(me.permissions, PERM.moneyAdjust);

  return (
    <>
      <PageHeader
        back={back}
        title={
          <span data-testid="card-name">
            {playerName(p)} <Ltr className={css.idTag}>#{p.id}</Ltr>
          </span>
        }
        lead={
          <span className={css.badges}>
            {p.isBanned ? (
              <Badge tone="danger" testId="card-status">
                {t('player.banned')}
              </Badge>
            ) : (
              <Badge tone="ok" testId="card-status">
                {t('player.active')}
              </Badge>
            )}
            {p.isPartner ? <Badge tone="accent">{t('player.partner')}</Badge> : null}
            {rgUntil && rgUntil > now ? <Badge tone="warn">{t('card.selfExcluded')}</Badge> : null}
            {coolOff && coolOff > now ? <Badge tone="warn">{t('card.coolOff')}</Badge> : null}
            {card.liveSessions > 0 ? <Badge tone="accent">{t('card.online', { count: card.liveSessions })}</Badge> : null}
          </span>
        }
      />

      <nav className={css.jump} aria-label={t('card.jump')}>
        {SECTIONS.filter((s) => s !== 'actions' || mayAct).map((s) => (
          <a key={s} href={`#card-${s}`} className={css.jumpLink}>
            {t(`card.section.${s}`)}
          </a>
        ))}
      </nav>

      <Card title={t('card.section.overview')} id="card-overview">
        <Facts
          items={[
            { label: t('card.email'), value: p.email ? <Ltr>{p.email}</Ltr> : '—' },
            { label: t('card.emailVerified'), value: card.emailVerified ? t('card.yes') : t('card.no') },
            { label: t('card.phone'), value: p.phone ? <Ltr>+{p.phone.replace(/^\+/, '')}</Ltr> : '—' },
            { label: t('card.currency'), value: p.currency },
            { label: t('card.language'), value: card.lang || '—' },
            { label: t('card.registeredVia'), value: card.registeredVia || '—' },
            { label: t('card.created'), value: formatTime(p.createdAt, lang) },
            { label: t('card.liveSessions'), value: String(card.liveSessions), testId: 'card-sessions' },
            { label: t('card.selfExcludedUntil'), value: formatTime(rgUntil, lang) },
            { label: t('card.coolOffUntil'), value: formatTime(coolOff, lang) },
          ]}
        />
        <h3 className={css.subTitle}>{t('card.balances')}</h3>
        {card.balances.length === 0 ? (
          <Muted>{t('card.noBalances')}</Muted>
        ) : (
          <Facts
            items={[...card.balances].sort((a, b) => kindRank(a.kind) - kindRank(b.kind)).map((b) => ({
              label: t(`kind.${b.kind}`, { defaultValue: b.kind }),
              value: <Money amount={b.amount} currency={b.currency} className={css.amount} />,
              testId: `balance-${b.kind}`,
            }))}
          />
        )}
      </Card>

      {mayAct ? (
        <section className={css.actionsGrid} id="card-actions" aria-label={t('card.section.actions')}>
          {can(me.permissions, PERM.playersBan) ? <BanAction player={p} /> : null}
          {can(me.permissions, PERM.moneyAdjust) ? <AdjustForm player={p} /> : null}
          {can(me.permissions, PERM.playersBan) ? <ProviderBlocks playerId={p.id} blocks={card.providerBlocks} /> : null}
        </section>
      ) : null}

      <Notes playerId={p.id} notes={card.notes} canAdd={can(me.permissions, PERM.playersNote)} />

      <Card title={t('card.section.payments')} id="card-payments">
        {card.payments.length === 0 ? <Muted>{t('card.noPayments')}</Muted> : <Payments rows={card.payments} />}
      </Card>

      <Card title={t('card.section.ledger')} id="card-ledger" lead={t('card.ledgerLead')}>
        {card.transactions.length === 0 ? <Muted>{t('card.noLedger')}</Muted> : <Ledger rows={card.transactions} />}
      </Card>

      <Card title={t('card.section.rounds')} id="card-rounds" lead={t('card.roundsLead')}>
        {/* Older servers send no rounds or bets: an empty list then. */}
        {(card.rounds ?? []).length === 0 ? <Muted>{t('card.noRounds')}</Muted> : <Rounds rows={card.rounds} />}
      </Card>

      <Card title={t('card.section.bets')} id="card-bets" lead={t('card.betsLead')}>
        {(card.sportBets ?? []).length === 0 ? <Muted>{t('card.noBets')}</Muted> : <Bets rows={card.sportBets} />}
      </Card>

      <Card title={t('card.section.bonuses')} id="card-bonuses">
        {card.bonuses.length === 0 ? <Muted>{t('card.noBonuses')}</Muted> : <Bonuses rows={card.bonuses} />}
      </Card>

      <Card title={t('card.section.devices')} id="card-devices" lead={t('card.devicesLead')}>
        {card.devices.length === 0 ? <Muted>{t('card.noDevices')}</Muted> : <Devices rows={card.devices} />}
      </Card>

      <Card title={t('card.section.history')} id="card-history" lead={t('card.historyLead')}>
        {card.audit.length === 0 ? (
          <Muted>{t('card.noHistory')}</Muted>
        ) : (
          <ol className={css.timeline} data-testid="card-audit">
            {card.audit.map((row) => (
              <li key={row.seq} className={css.timelineItem}>
                <div className={css.timelineHead}>
                  <strong>
                    <Ltr>{row.action}</Ltr>
                  </strong>
                  <Muted as="span">
                    <Ltr>{row.actor}</Ltr> · {formatTime(row.createdAt, lang)}
                  </Muted>
                </div>
                <AuditDetails details={row.details} />
              </li>
            ))}
          </ol>
        )}
      </Card>
    </>
  );
}

function Payments({ rows }: { rows: Payment[] }) {
  const { t, i18n } = useTranslation('console');
  const columns: Column<Payment>[] = [
    { key: 'id', label: t('card.col.id'), render: (r) => <Ltr className={css.id}>#{r.id}</Ltr> },
    { key: 'when', label: t('card.col.when'), render: (r) => formatTime(r.created_at, i18n.language) },
    { key: 'type', label: t('card.col.type'), render: (r) => (r.type === 'payment' ? t('card.deposit') : t('card.withdrawal')) },
    { key: 'method', label: t('card.col.method'), render: (r) => r.purse },
    { key: 'status', label: t('card.col.status'), render: (r) => <Badge tone={statusTone(r.status)}>{t(`paymentStatus.${r.status.toLowerCase()}`, { defaultValue: r.status })}</Badge> },
    { key: 'amount', label: t('card.col.amount'), align: 'end', render: (r) => <Money amount={r.value} currency={r.currency} className={css.amount} /> },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(r) => `${r.payment_mode}-${r.id}`} caption={t('card.section.payments')} />;
}

function Ledger({ rows }: { rows: Entry[] }) {
  const { t, i18n } = useTranslation('console');
  const columns: Column<Entry>[] = [
    { key: 'tx', label: t('card.col.tx'), render: (r) => <Ltr className={css.id}>#{r.transaction_id}</Ltr> },
    { key: 'when', label: t('card.col.when'), render: (r) => formatTime(r.created_at, i18n.language) },
    {
      key: 'what',
      label: t('card.col.what'),
      render: (r) => (
        <span className={css.stack}>
          <span>{r.comment || `#${r.payment_mode}`}</span>
          {r.game ? <small className={css.muted}>{`${r.game.provider_name} · ${r.game.game_name}`}</small> : null}
          {r.bet ? <small className={css.muted}>{r.bet.events.join(', ')}</small> : null}
        </span>
      ),
    },
    { key: 'purse', label: t('card.col.balance'), render: (r) => t(`kind.${r.purse}`, { defaultValue: r.purse }) },
    { key: 'value', label: t('card.col.amount'), align: 'end', render: (r) => <Money amount={r.value} currency={r.currency} className={r.value < 0 ? css.debit : css.credit} /> },
    {
      key: 'after',
      label: t('card.col.after'),
      align: 'end',
      render: (r) => (r.balance_after === null || r.balance_after === undefined ? '—' : <Money amount={r.balance_after} currency={r.currency} />),
    },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} caption={t('card.section.ledger')} />;
}

function Rounds({ rows }: { rows: Round[] }) {
  const { t, i18n } = useTranslation('console');
  const columns: Column<Round>[] = [
    { key: 'when', label: t('card.col.when'), render: (r) => formatTime(r.createdAt, i18n.language) },
    {
      key: 'game',
      label: t('card.col.game'),
      render: (r) => (
        <span className={css.stack}>
          <strong>{r.gameName}</strong>
          <small className={css.muted}>{r.providerName}</small>
        </span>
      ),
    },
    { key: 'stake', label: t('card.col.stake'), align: 'end', render: (r) => <Money amount={r.stake} currency={r.currency} /> },
    { key: 'win', label: t('card.col.win'), align: 'end', render: (r) => <Money amount={r.win} currency={r.currency} /> },
    { key: 'net', label: t('card.col.net'), align: 'end', render: (r) => <Money amount={r.net} currency={r.currency} className={r.net < 0 ? css.debit : css.credit} /> },
    { key: 'status', label: t('card.col.status'), render: (r) => <Badge tone={betTone(r.status)}>{t(`roundStatus.${r.status}`, { defaultValue: r.status })}</Badge> },
    { key: 'round', label: t('card.col.round'), render: (r) => <Ltr className={`${css.mono} ${css.roundId}`}>{r.roundId}</Ltr> },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(r) => `${r.provider}|${r.roundId}`} caption={t('card.section.rounds')} />;
}

/** The colour of a round's or a bet's status. */
function betTone(status: string): 'ok' | 'danger' | 'warn' | 'neutral' {
  if (status === 'won' || status === 'half_won' || status === 'part_won') return 'ok';
  if (status === 'lost' || status === 'half_lost') return 'danger';
  if (status === 'open' || status === 'placing') return 'warn';
  return 'neutral';
}

function Bets({ rows }: { rows: Bet[] }) {
  const { t, i18n } = useTranslation('console');
  const columns: Column<Bet>[] = [
    {
      key: 'id',
      label: t('card.col.bet'),
      render: (b) => (
        <span className={css.stack}>
          <strong className={css.id}>
            <Ltr>#{b.id}</Ltr>
          </strong>
          <small className={css.muted}>{formatTime(b.created_at, i18n.language)}</small>
        </span>
      ),
    },
    {
      key: 'legs',
      label: t('card.col.selections'),
      render: (b) => (
        <span className={css.stack}>
          <small className={css.muted}>{t(`betKind.${b.kind}`, { defaultValue: b.kind })}</small>
          {b.legs.map((leg) => (
            <span key={`${leg.event_id}|${leg.outcome_id}`}>
              {leg.event_name}: <strong>{leg.outcome_name}</strong> <Ltr>@ {leg.odds.toFixed(2)}</Ltr>
            </span>
          ))}
        </span>
      ),
    },
    {
      key: 'stake',
      label: t('card.col.stake'),
      align: 'end',
      render: (b) => (
        <span className={css.stack}>
          <Money amount={b.stake} currency={b.currency} />
          <small className={css.muted}>{t(`kind.${b.funding}`, { defaultValue: b.funding })}</small>
        </span>
      ),
    },
    { key: 'odds', label: t('card.col.odds'), align: 'end', render: (b) => <Ltr>{b.total_odds.toFixed(2)}</Ltr> },
    {
      key: 'payout',
      label: t('card.col.payout'),
      align: 'end',
      render: (b) => (b.status === 'open' ? <span className={css.muted}><Money amount={b.potential_payout} currency={b.currency} /></span> : <Money amount={b.payout} currency={b.currency} />),
    },
    { key: 'status', label: t('card.col.status'), render: (b) => <Badge tone={betTone(b.status)}>{t(`betStatus.${b.status}`, { defaultValue: b.status })}</Badge> },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(b) => b.id} caption={t('card.section.bets')} />;
}

function Bonuses({ rows }: { rows: Bonus[] }) {
  const { t, i18n } = useTranslation('console');
  const columns: Column<Bonus>[] = [
    { key: 'template', label: t('card.col.bonus'), render: (r) => <span className={css.stack}><strong>{r.template}</strong><small className={css.muted}>{t(`product.${r.product}`, { defaultValue: r.product })}</small></span> },
    { key: 'status', label: t('card.col.status'), render: (r) => <Badge tone={r.status === 'active' || r.status === 'queued' ? 'warn' : r.status === 'converted' || r.status === 'met' ? 'ok' : 'neutral'}>{t(`bonusStatus.${r.status}`, { defaultValue: r.status })}</Badge> },
    { key: 'amount', label: t('card.col.amount'), align: 'end', render: (r) => <Money amount={r.amount} currency={r.currency} /> },
    {
      key: 'wagering',
      label: t('card.col.wagering'),
      align: 'end',
      render: (r) => (
        <span className={css.nowrap}>
          <Money amount={r.wagered} currency={r.currency} /> / <Money amount={r.required} currency={r.currency} />
        </span>
      ),
    },
    { key: 'granted', label: t('card.col.granted'), render: (r) => formatTime(r.grantedAt, i18n.language) },
    { key: 'expires', label: t('card.col.expires'), render: (r) => formatTime(r.closedAt ?? r.expiresAt ?? null, i18n.language) },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} caption={t('card.section.bonuses')} />;
}

function Devices({ rows }: { rows: Device[] }) {
  const { t, i18n } = useTranslation('console');
  const columns: Column<Device>[] = [
    { key: 'ip', label: t('card.col.ip'), render: (r) => <Ltr className={css.mono}>{r.ip}</Ltr> },
    { key: 'ua', label: t('card.col.browser'), render: (r) => <span className={css.ua} title={r.userAgent}>{r.userAgent || '—'}</span> },
    { key: 'sessions', label: t('card.col.sessions'), align: 'end', render: (r) => r.sessions },
    { key: 'seen', label: t('card.col.seen'), render: (r) => `${formatTime(r.firstSeen, i18n.language)} – ${formatTime(r.lastSeen, i18n.language)}` },
    {
      key: 'others',
      label: t('card.col.others'),
      align: 'end',
      render: (r) => (r.otherAccounts > 0 ? <Badge tone="warn">{t('card.otherAccounts', { count: r.otherAccounts })}</Badge> : '0'),
    },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(r) => `${r.ip}|${r.userAgent}`} caption={t('card.section.devices')} />;
}
