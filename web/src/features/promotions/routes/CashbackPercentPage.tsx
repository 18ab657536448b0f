import { useTranslation } from 'react-i18next';
import { openAuthModal, selectFullBalance } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon } from '../../../components/Icon';
import { MobileButton } from '../../../components/MobileButton';
import { Money } from '../../../components/Money';
import { moneyText } from '../../../components/money';
import { promotionsApi, isolate } from '../api';
import { PageHead } from '../components/PageHead';
import { percentText, zonedDateTime } from '../components/format';
import css from '../Promotions.module.css';

const NS = ['promotions', 'common'] as const;

/**
 * /promotions/cashback-percent — the weekly cashback (spec §2, §9): the tiers, the cap and the
 * payment day as the server's payer applies them (`/api/promotions/weekly-cashback`), and for a
 * signed-in player the cashback accrued so far this week (the balance reply's `weeklyCashback`).
 */
export default function CashbackPercentPage() {
  const { t, i18n } = useTranslation(NS);
  const dispatch = useAppDispatch();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const balance = useAppSelector(selectFullBalance);
  const { data: rule, isError } = promotionsApi.useWeeklyCashbackRuleQuery();
  const lang = i18n.language;
  const currency = balance?.currency ?? 'TND';
  const best = rule?.tiers.reduce((m, tier) => Math.max(m, tier.bps), 0);
  const paysAt = rule ? isolate(zonedDateTime(rule.paysAt, rule.zone, lang)) : '';

  return (
    <section className={css.page}>
      <PageHead title={t('cashbackPage.title')} fallback="/promotions" />
      <div className={`${css.promo} ${css.promoGreen}`} data-testid="cashback-banner">
        <Icon name="percent" size={36} />
        <p className={css.promoHeadline}>{best !== undefined ? t('cashbackPage.upTo', { percent: percentText(best, lang) }) : '…'}</p>
        <p>{t('cashbackPage.lead')}</p>
      </div>

      {isAuth ? (
        <div className={css.card} data-testid="cashback-week">
          <h2 className={css.subtitle}>{t('cashbackPage.thisWeek')}</h2>
          <strong className={css.bonusAmount} data-testid="weekly-accrued">
            {balance ? <Money amount={balance.weeklyCashback} currency={balance.currency} /> : '…'}
          </strong>
          {rule && <p className={css.muted}>{t('cashbackPage.paidOn', { date: paysAt })}</p>}
          <MobileButton to="/profile/cashback" color="secondary" block>
            {t('cashbackPage.toProfile')}
          </MobileButton>
        </div>
      ) : (
        <div className={css.card}>
          <p className={css.muted}>{t('cashbackPage.guest')}</p>
          <div className={css.actions}>
            <MobileButton onClick={() => dispatch(openAuthModal('registration'))}>{t('page.signUp')}</MobileButton>
            <MobileButton color="secondary" onClick={() => dispatch(openAuthModal('login'))}>
              {t('page.signIn')}
            </MobileButton>
          </div>
        </div>
      )}

      <div className={css.section}>
        <h2 className={css.subtitle}>{t('cashbackPage.tiersTitle')}</h2>
        {isError && <p className={css.empty}>{t('cashbackPage.failed')}</p>}
        {rule && (
          <>
            <table className={css.tiers} data-testid="cashback-tiers">
              <thead>
                <tr>
                  <th scope="col">{t('cashbackPage.lossFrom')}</th>
                  <th scope="col">{t('cashbackPage.rate')}</th>
                </tr>
              </thead>
              <tbody>
                {rule.tiers.map((tier) => (
                  <tr key={tier.from}>
                    <td>
                      <Money amount={tier.from} currency={currency} />
                    </td>
                    <td>
                      <bdi>{percentText(tier.bps, lang)}</bdi>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className={css.muted} data-testid="cashback-cap">
              {t('cashbackPage.cap', { amount: moneyText(rule.cap, currency, lang) })}
            </p>
          </>
        )}
      </div>

      <div className={css.section}>
        <h2 className={css.subtitle}>{t('cashbackPage.howTitle')}</h2>
        <ol className={css.steps}>
          <li>{t('cashbackPage.how1', { zone: rule?.zone ?? 'Africa/Tunis' })}</li>
          <li>{t('cashbackPage.how2')}</li>
          <li>{t('cashbackPage.how3', { zone: rule?.zone ?? 'Africa/Tunis', min: rule?.minTransfer ?? 10 })}</li>
        </ol>
      </div>
    </section>
  );
}
