import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openAuthModal } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon } from '../../../components/Icon';
import { MobileButton } from '../../../components/MobileButton';
import { Spinner } from '../../../components/Spinner';
import { isolate, progressPercent, promotionsApi, type CouponDraw } from '../api';
import { PageHead } from '../components/PageHead';
import { formatDay, formatDayTime } from '../components/format';
import { verifyCouponDraw } from '../coupons/couponFair';
import css from '../Promotions.module.css';

const NS = ['promotions', 'common'] as const;

/** Spec §9: one coupon per 500 spins (the signed-in player's machine says its own limit). */
export const COUPON_SPINS = 500;

/** Today's spins toward the next coupon, the machine and the player's coupons. */
function MyMachine({ winners }: { winners: Set<string> }) {
  const { t, i18n } = useTranslation(NS);
  const { data, isLoading, isError } = promotionsApi.useCouponMachineQuery(undefined, { refetchOnMountOrArgChange: true });
  if (isLoading) return <Spinner />;
  if (isError || !data) return <p className={css.empty}>{t('coupons.failed')}</p>;
  const { todayTotalBetsCount: count, todayTotalBetsLimit: limit } = data.main;
  const done = count >= limit;
  const pct = progressPercent(count, limit);
  const lang = i18n.language;
  return (
    <>
      <div className={css.card} data-testid="coupon-today">
        <h2 className={css.subtitle}>{t('coupons.today')}</h2>
        <div className={css.progress}>
          <div
            className={css.bar}
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct}
            aria-label={t('coupons.spins', { done: count, limit })}
          >
            <div className={css.barFill} style={{ inlineSize: `${pct}%` }} />
          </div>
          <div className={css.progressText}>
            <span data-testid="coupon-spins">
              <strong>{t('coupons.spins', { done: count, limit })}</strong>
            </span>
            <span data-testid="coupon-left">{done ? t('coupons.doneToday') : t('coupons.left', { n: limit - count })}</span>
          </div>
        </div>
        <dl className={css.facts}>
          <div>
            <dt>{t('coupons.machine')}</dt>
            <dd>
              <bdi className={css.mono}>{data.main.number}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t('coupons.since')}</dt>
            <dd>{formatDay(data.main.activatedDate, lang)}</dd>
          </div>
          <div>
            <dt>{t('coupons.total')}</dt>
            <dd data-testid="coupon-total">{data.total}</dd>
          </div>
        </dl>
      </div>
      <div className={css.section}>
        <h2 className={css.subtitle}>{t('coupons.mine')}</h2>
        {data.list.length === 0 ? (
          <p className={css.empty}>{t('coupons.none', { limit })}</p>
        ) : (
          <ul className={css.coupons} data-testid="coupon-list">
            {data.list.map((c) => (
              <li key={c.id} className={`${css.coupon} ${winners.has(c.number) ? css.couponWon : ''}`} data-testid="coupon">
                <strong>
                  <bdi>{c.number}</bdi>
                </strong>
                <small>{formatDayTime(c.issuedAt, lang)}</small>
                {winners.has(c.number) && <small className={css.verdictOk}>{t('coupons.won')}</small>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

/** A draw: its published hash; once drawn, the seed, the winners and the in-browser check. */
function Draw({ draw, mine }: { draw: CouponDraw; mine: Set<string> }) {
  const { t, i18n } = useTranslation(NS);
  const [state, setState] = useState<'idle' | 'busy' | 'ok' | 'bad'>('idle');
  const [load] = promotionsApi.useLazyCouponDrawQuery();
  const verify = async () => {
    setState('busy');
    try {
      // The list leaves each draw's coupons out: the draw's own page has them.
      const full = await load(draw.id, true).unwrap();
      setState((await verifyCouponDraw(full)) ? 'ok' : 'bad');
    } catch {
      setState('bad');
    }
  };
  const drawn = draw.drawnAt != null && !!draw.seed;
  return (
    <li className={css.draw} data-testid="coupon-draw">
      <div className={css.freeBetTop}>
        <strong>
          <bdi>{draw.id}</bdi>
        </strong>
        <span className={`${css.status} ${drawn ? css.status_used : css.status_queued}`}>{drawn ? t('coupons.drawn') : t('coupons.announced')}</span>
      </div>
      <p className={css.muted}>
        {drawn && draw.drawnAt != null
          ? t('coupons.drawnAt', { date: isolate(formatDayTime(draw.drawnAt, i18n.language)), n: draw.winnersCount })
          : t('coupons.announcedAt', { date: isolate(formatDayTime(draw.announcedAt, i18n.language)), n: draw.winnersCount })}
      </p>
      <dl className={css.facts}>
        <div>
          <dt>{t('coupons.seedHash')}</dt>
          <dd className={css.mono}>{draw.seedHash}</dd>
        </div>
        {drawn && (
          <div>
            <dt>{t('coupons.seed')}</dt>
            <dd className={css.mono}>{draw.seed}</dd>
          </div>
        )}
      </dl>
      {drawn && draw.winners && (
        <>
          <span className={css.muted}>{t('coupons.winners')}</span>
          {draw.winners.length === 0 ? (
            <p className={css.muted} data-testid="coupon-no-winners">
              {t('coupons.noWinners')}
            </p>
          ) : (
            <ol className={css.winners} data-testid="coupon-winners">
              {draw.winners.map((n) => (
                <li key={n} className={mine.has(n) ? css.mine : undefined}>
                  <bdi>{n}</bdi>
                </li>
              ))}
            </ol>
          )}
          <div className={css.actions}>
            <MobileButton color="secondary" onClick={() => void verify()} disabled={state === 'busy'} data-testid="coupon-verify">
              {state === 'busy' ? t('jackpots.verifying') : t('jackpots.verify')}
            </MobileButton>
          </div>
          {(state === 'ok' || state === 'bad') && (
            <p className={`${css.verdict} ${state === 'ok' ? css.verdictOk : css.verdictBad}`} role="status" data-testid="coupon-verdict">
              {state === 'ok' ? t('coupons.verified') : t('coupons.mismatch')}
            </p>
          )}
        </>
      )}
    </li>
  );
}

/**
 * The coupon machine (spec §2 promotion page, §3 `coupon-machine`, §9): today's spins toward
 * the next coupon, the player's coupons, the rules, and the draws with their published seed
 * hashes, revealed seeds and winners, each checked in the browser. Guests see the rules, the
 * draws and a sign-in call to action.
 */
export default function CouponMachinePage() {
  const { t } = useTranslation(NS);
  const dispatch = useAppDispatch();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const draws = promotionsApi.useCouponDrawsQuery();
  const mine = promotionsApi.useCouponMachineQuery(undefined, { skip: !isAuth }).data;
  const myNumbers = new Set(mine?.list.map((c) => c.number) ?? []);
  const winning = new Set((draws.data ?? []).flatMap((d) => d.winners ?? []).filter((n) => myNumbers.has(n)));
  const limit = mine?.main.todayTotalBetsLimit ?? COUPON_SPINS;

  return (
    <section className={css.page}>
      <PageHead title={t('coupons.title')} fallback="/promotions" />
      <div className={`${css.promo} ${css.promoGold}`} data-testid="coupon-banner">
        <Icon name="gift" size={36} />
        <p className={css.promoHeadline}>{t('coupons.headline', { limit })}</p>
        <p>{t('coupons.lead')}</p>
      </div>

      {isAuth ? (
        <MyMachine winners={winning} />
      ) : (
        <div className={css.card} data-testid="coupon-guest">
          <p className={css.muted}>{t('coupons.guest')}</p>
          <div className={css.actions}>
            <MobileButton onClick={() => dispatch(openAuthModal('login'))}>{t('page.signIn')}</MobileButton>
            <MobileButton color="secondary" onClick={() => dispatch(openAuthModal('registration'))}>
              {t('page.signUp')}
            </MobileButton>
          </div>
        </div>
      )}

      <div className={css.section} data-testid="coupon-rules">
        <h2 className={css.subtitle}>{t('coupons.rulesTitle')}</h2>
        <ol className={css.steps}>
          <li>{t('coupons.rule1', { limit })}</li>
          <li>{t('coupons.rule2')}</li>
          <li>{t('coupons.rule3')}</li>
          <li>{t('coupons.rule4')}</li>
        </ol>
      </div>

      <div className={css.section}>
        <h2 className={css.subtitle}>{t('coupons.drawsTitle')}</h2>
        <p className={css.muted}>{t('coupons.verifyHow')}</p>
        {draws.isError && <p className={css.empty}>{t('coupons.failed')}</p>}
        {draws.data?.length === 0 && <p className={css.empty}>{t('coupons.noDraws')}</p>}
        {!!draws.data?.length && (
          <ul className={css.list}>
            {draws.data.map((d) => (
              <Draw key={d.id} draw={d} mine={myNumbers} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
