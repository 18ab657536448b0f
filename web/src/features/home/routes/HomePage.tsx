import { Suspense, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { addNotification } from '../../../app/notificationsSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon, type IconName } from '../../../components/Icon';
import { Slider } from '../components/Slider';
import css from '../components/Home.module.css';

const STRIPS: { id: string; to: string; icon: IconName; tone: string }[] = [
  { id: 'topGames', to: '/slots/lobby', icon: 'star', tone: 'gold' },
  { id: 'casino', to: '/slots/main', icon: 'slots', tone: 'violet' },
  { id: 'liveCasino', to: '/casinolive/main', icon: 'live', tone: 'red' },
  { id: 'crashGames', to: '/slots/crash-games', icon: 'crash', tone: 'green' },
];

function SportBlock({ banned }: { banned: string[] }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const digitain = !banned.includes('digitain');
  const open = (to: string) => {
    if (!isAuth) dispatch(addNotification({ text: 'pleaseAuthoriseToBet', type: 'error' }));
    else void navigate(to);
  };
  return (
    <section className={css.sport} aria-labelledby="sport-title">
      <div className={css.sectionHead}>
        <h2 id="sport-title">{t('home.sport')}</h2>
      </div>
      <div className={css.sportGrid}>
        {/* Our sportsbook: open to guests. */}
        <button type="button" className={`${css.sportCard} ${css.sportLive}`} data-testid="home-sportsbook" onClick={() => void navigate('/betting')}>
          <span className={css.liveDot} aria-hidden="true" /> {t('nav.sportsbook')}
          <small>{t('home.sportsbookText')}</small>
        </button>
        {digitain && (<>
        <button type="button" className={`${css.sportCard} ${css.sportLive}`} onClick={() => open('/digsport/live')}>
          <span className={css.liveDot} aria-hidden="true" /> {t('home.live')}
          <small>{t('home.liveText')}</small>
        </button>
        <button type="button" className={css.sportCard} onClick={() => open('/digsport/line')}>
          <Icon name="sport" /> {t('home.line')}
          <small>{t('home.lineText')}</small>
        </button>
        </>)}
      </div>
    </section>
  );
}

function useAfterFirstPaint() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setTimeout(() => setReady(true), 0));
    return () => cancelAnimationFrame(frame);
  }, []);
  return ready;
}

/**
 * `casinoSection`: the casino strips and provider list, given by the app's router (features
 * do not import each other); mounted after the first paint. `paymentsSection`: the top-up block
 * and the withdraw banner (features/payments), also given by the router. `jackpotsSection`: the
 * jackpot widget (features/promotions), mounted after the first paint too.
 */
export default function HomePage({
  casinoSection: CasinoSection,
  paymentsSection: PaymentsSection,
  jackpotsSection: JackpotsSection,
}: {
  casinoSection?: React.ComponentType;
  paymentsSection?: React.ComponentType;
  jackpotsSection?: React.ComponentType;
}) {
  const { t } = useTranslation();
  const banned = api.useBlocklistQuery().data ?? [];
  const casino = useAfterFirstPaint();
  return (
    <div className={css.home}>
      <h1 className={css.srOnly}>{t('home.title')}</h1>
      <Slider />
      <nav className={css.quick} aria-label={t('promotions')}>
        <Link to="/promotions/cashback-percent" className={css.quickCard}>
          <span className={`${css.quickIcon} ${css.toneGreen}`}>
            <Icon name="percent" />
          </span>
          <span>
            <strong>{t('home.cashback')}</strong>
            <small>{t('home.cashbackText')}</small>
          </span>
        </Link>
        <Link to="/promotions" className={css.quickCard}>
          <span className={`${css.quickIcon} ${css.toneViolet}`}>
            <Icon name="gift" />
          </span>
          <span>
            <strong>{t('promotions')}</strong>
            <small>{t('home.promotionsText')}</small>
          </span>
        </Link>
      </nav>
      {/* The widget's place is kept from the first paint: nothing below it moves when it comes. */}
      {JackpotsSection &&
        (casino ? (
          <Suspense fallback={<div className={css.jackpotsFallback} />}>
            <JackpotsSection />
          </Suspense>
        ) : (
          <div className={css.jackpotsFallback} />
        ))}
      {PaymentsSection && (
        <Suspense fallback={<div className={css.topUpFallback} />}>
          <PaymentsSection />
        </Suspense>
      )}
      <SportBlock banned={banned} />
      <section aria-labelledby="games-title">
        <div className={css.sectionHead}>
          <h2 id="games-title">{t('home.games')}</h2>
        </div>
        <div className={css.strips}>
          {STRIPS.map((s) => (
            <Link key={s.id} to={s.to} state={{ prevPath: '/slots/lobby' }} className={`${css.strip} ${css[`tone_${s.tone}`]}`}>
              <Icon name={s.icon} size={28} />
              <strong>{t(`home.${s.id}`)}</strong>
              <small>{t('viewAll')}</small>
            </Link>
          ))}
        </div>
      </section>
      {casino && CasinoSection && (
        <Suspense fallback={<div className={css.casinoFallback} />}>
          <CasinoSection />
        </Suspense>
      )}
    </div>
  );
}
