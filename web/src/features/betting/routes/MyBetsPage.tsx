import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Money } from '../../../components/Money';
import { Spinner } from '../../../components/Spinner';
import { bettingApi, useNamesFollowLanguage, type Bet, type BetsStatus } from '../api';
import { formatOdds, toThousandths } from '../odds';
import css from '../Betting.module.css';

const STATUS_CLASS: Record<string, string | undefined> = { won: css.won, half_won: css.won, part_won: css.won, lost: css.lost, half_lost: css.lost };

/** /profile/bets: the player's sportsbook bets, open or settled, with their legs. */
export default function MyBetsPage() {
  const { t } = useTranslation('betting');
  const [status, setStatus] = useState<BetsStatus>('open');
  useNamesFollowLanguage();
  const { data, isLoading } = bettingApi.useMyBetsQuery(status, { refetchOnMountOrArgChange: true });
  return (
    <div className={css.page}>
      <h1 className={css.h1}>{t('bets.title')}</h1>
      <div className={css.switch} role="tablist" aria-label={t('bets.title')}>
        {(['open', 'settled'] as const).map((s) => (
          <button key={s} type="button" role="tab" aria-selected={status === s} className={css.switchItem} onClick={() => setStatus(s)}>
            {t(`bets.${s}`)}
          </button>
        ))}
      </div>
      {isLoading && <Spinner />}
      {data && data.length === 0 && <p className={css.empty}>{t('bets.none')}</p>}
      <ul className={css.bets}>
        {data?.map((b) => <BetCard key={b.id} bet={b} />)}
      </ul>
    </div>
  );
}

function BetCard({ bet }: { bet: Bet }) {
  const { t, i18n } = useTranslation('betting');
  const open = bet.status === 'open' || bet.status === 'placing';
  return (
    <li className={css.bet} data-testid="my-bet" data-kind={bet.kind}>
      <div className={css.betHead}>
        <strong>{t(`bets.kind_${bet.kind}`)}</strong>
        {bet.funding !== 'real' && (
          <span className={css.liveTag} data-testid="bet-funding">
            {t(`bets.funding_${bet.funding}`, { defaultValue: bet.funding })}
          </span>
        )}
        <span className={`${css.status} ${STATUS_CLASS[bet.status] ?? ''}`}>{t(`bets.status_${bet.status}`, { defaultValue: bet.status })}</span>
        <small className={css.muted}>
          № <bdi>{bet.id}</bdi> · <bdi>{new Date(bet.created_at).toLocaleString(`${i18n.language}-u-nu-latn`, { dateStyle: 'short', timeStyle: 'short' })}</bdi>
        </small>
      </div>
      <ul className={css.betLegs}>
        {bet.legs.map((l, i) => (
          <li key={i} className={css.betLeg}>
            <div className={css.legText}>
              <strong><bdi>{l.outcome_name}</bdi></strong>
              <span><bdi>{l.market_name}</bdi></span>
              <small>
                <bdi>{l.event_name}</bdi>
                {l.live && <span className={css.liveTag}>{t('bets.live')}</span>}
              </small>
            </div>
            <div className={css.legOdds}>
              <bdi>{formatOdds(toThousandths(l.odds))}</bdi>
              <small className={STATUS_CLASS[l.result ?? ''] ?? css.muted}>{t(`bets.result_${l.result ?? 'pending'}`, { defaultValue: l.result ?? '' })}</small>
            </div>
          </li>
        ))}
      </ul>
      <dl className={css.summary}>
        <div>
          <dt>{t('bets.stake')}</dt>
          <dd><Money amount={bet.stake} currency={bet.currency} /></dd>
        </div>
        <div>
          <dt>{t('bets.odds')}</dt>
          <dd><bdi>{formatOdds(toThousandths(bet.total_odds))}</bdi></dd>
        </div>
        <div>
          <dt>{open ? t('bets.potential') : t('bets.payout')}</dt>
          <dd data-testid="bet-payout"><Money amount={open ? bet.potential_payout : bet.payout} currency={bet.currency} /></dd>
        </div>
      </dl>
    </li>
  );
}
