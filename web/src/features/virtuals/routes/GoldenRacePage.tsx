import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { openAuthModal } from '../../../app/authSlice';
import { errorText, isApiError } from '../../../app/errors';
import { languageOf } from '../../../app/i18n';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { MobileButton } from '../../../components/MobileButton';
import { Spinner } from '../../../components/Spinner';
import { virtualsApi } from '../api';
import css from '../Virtuals.module.css';

type State = { kind: 'loading' } | { kind: 'ready'; url: string } | { kind: 'error'; text: string };

/** /virtual-games/goldenrace/:gameId — a Golden Race game: a session from
 * POST /api/golden_race/create_session, its `url` framed. Guests are asked to log in. */
export default function GoldenRacePage() {
  const { gameId = '' } = useParams();
  const { t, i18n } = useTranslation(['virtuals', 'errors']);
  const dispatch = useAppDispatch();
  const { isAuth, checked } = useAppSelector((s) => s.auth);
  const games = virtualsApi.useGoldenRaceGamesQuery();
  const name = games.data?.gamesList.find((g) => g.gameId === gameId)?.name ?? gameId;
  const [createSession] = virtualsApi.useGoldenRaceSessionMutation();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const lang = languageOf(i18n.language)?.code ?? 'en';

  useEffect(() => {
    if (!isAuth) return;
    let live = true;
    setState({ kind: 'loading' });
    createSession({ game_id: gameId, platform: 'mobile', lang }).then((res) => {
      if (!live) return;
      if ('data' in res && res.data) setState({ kind: 'ready', url: res.data.url });
      else if (isApiError(res.error)) {
        const { key, params } = errorText(res.error);
        setState({ kind: 'error', text: t(key, params) });
      } else setState({ kind: 'error', text: t('virtuals:providerUnavailable') });
    });
    return () => {
      live = false;
    };
  }, [isAuth, gameId, lang, attempt, createSession, t]);

  return (
    <section className={css.page} data-testid="goldenrace-page">
      <div className={css.head}>
        <BackButton fallback="/virtual-games" />
        <div>
          <h1>{name}</h1>
          <p className={css.sub}>{t('goldenRace')}</p>
        </div>
      </div>
      {!isAuth ? (
        <div className={css.notice} data-testid="goldenrace-guest">
          <h2>{t('loginToPlay')}</h2>
          {checked && <MobileButton onClick={() => dispatch(openAuthModal('login'))}>{t('logIn')}</MobileButton>}
        </div>
      ) : state.kind === 'loading' ? (
        <Spinner />
      ) : state.kind === 'error' ? (
        <div className={css.notice} role="alert" data-testid="goldenrace-error">
          <h2>{t('gameNotOpened')}</h2>
          <p className={css.sub}>{state.text}</p>
          <MobileButton onClick={() => setAttempt((a) => a + 1)}>{t('retry')}</MobileButton>
        </div>
      ) : (
        <div className={css.frameWrap}>
          <iframe className={css.frame} src={state.url} title={name} data-testid="goldenrace-frame" allow="autoplay; fullscreen" />
        </div>
      )}
    </section>
  );
}
