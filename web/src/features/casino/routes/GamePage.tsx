import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import type { ApiError } from '../../../api/types';
import { openAuthModal } from '../../../app/authSlice';
import { errorText, isApiError } from '../../../app/errors';
import { languageOf } from '../../../app/i18n';
import { useNotify } from '../../../app/notify';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { BackButton } from '../../../components/BackButton';
import { MobileButton } from '../../../components/MobileButton';
import { Spinner } from '../../../components/Spinner';
import { casinoApi } from '../api';
import { EmptyState } from '../components/EmptyState';
import { LoaderMount } from '../components/LoaderMount';
import { LOADERS } from '../loader';
import { TV_PROVIDER } from '../tv';
import css from '../components/Casino.module.css';

export const BALANCE_MESSAGE = 'carthage:balance';
/** The game's session expired and the player asked to reopen it: the page starts a new one. */
export const REOPEN_MESSAGE = 'carthage:reopen';

type FrameEvent = Pick<MessageEvent, 'origin' | 'data' | 'source'>;

/** Whether a `message` event comes from the game frame (its origin, its window) with this type. */
export function isFrameMessage(e: FrameEvent, type: string, frameOrigin: string, frameWindow: MessageEventSource | null | undefined): boolean {
  if (e.origin !== frameOrigin) return false;
  if (frameWindow && e.source && e.source !== frameWindow) return false;
  const data = e.data as { type?: unknown } | null;
  return typeof data === 'object' && data !== null && data.type === type;
}

/** Whether a `message` event is the game frame's balance notice. */
export function isBalanceMessage(e: FrameEvent, frameOrigin: string, frameWindow: MessageEventSource | null | undefined): boolean {
  return isFrameMessage(e, BALANCE_MESSAGE, frameOrigin, frameWindow);
}

/** Refusals a retry cannot change: unknown provider or game, not a player, banned provider. */
const PERMANENT = new Set([60, 61, 62, 66, 71]);

const prettify = (gameId: string) => gameId.replace(/[-_]+/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

type State =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'ready'; url: string }
  | { kind: 'error'; error: ApiError }
  /** The provider's loader script or game could not be loaded. */
  | { kind: 'unavailable' };


/**
 * /slots/:provider/:gameId (and /casinolive/:provider/:gameId): the provider's client in a
 * full-screen frame; /slots/inbet/:gameId mounts it with the provider's loader script.
 */
export default function GamePage() {
  const { provider = '', gameId = '' } = useParams();
  const { t, i18n } = useTranslation(['casino', 'errors']);
  const location = useLocation();
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const { isAuth, checked } = useAppSelector((s) => s.auth);
  const casinoType = location.pathname.startsWith('/casinolive') ? 'casinolive' : 'slots';
  const lang = languageOf(i18n.language)?.code ?? 'en';
  const [startSession] = casinoApi.useStartSessionMutation();
  const [tvToken] = casinoApi.useTvTokenMutation();
  const loader = LOADERS[provider.toLowerCase()];
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [frameLoaded, setFrameLoaded] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const frame = useRef<HTMLIFrameElement>(null);
  const list = casinoApi.useGameListQuery(provider, { skip: !isAuth });
  const game = list.data?.find((g) => g.gameId === gameId);
  const name = game?.name ?? prettify(gameId);

  // Guests are blocked (spec §4, §6): told to sign in once the auth check has answered.
  const told = useRef(false);
  useEffect(() => {
    if (checked && !isAuth && !told.current) {
      told.current = true;
      notify.errorKey('pleaseAuth');
    }
  }, [checked, isAuth, notify]);

  useEffect(() => {
    if (!isAuth) return;
    let live = true;
    setState({ kind: 'loading' });
    setFrameLoaded(false);
    // TV games open with a TV betting token (spec §7), the others with a casino session.
    const request = provider.toLowerCase() === TV_PROVIDER ? tvToken({ gameId, lang }) : startSession({ provider, gameId, lang, platform: 'mobile' });
    request.then(
      (res) => {
        if (!live) return;
        if ('data' in res && res.data) setState({ kind: 'ready', url: res.data.url });
        else setState({ kind: 'error', error: isApiError(res.error) ? res.error : { code: -1, message: 'error' } });
      },
      () => live && setState({ kind: 'error', error: { code: -1, message: 'error' } }),
    );
    return () => {
      live = false;
    };
  }, [isAuth, provider, gameId, lang, attempt, startSession, tvToken]);

  const url = state.kind === 'ready' ? state.url : null;
  const frameOrigin = useMemo(() => (url ? new URL(url, window.location.href).origin : null), [url]);

  // The frame reports a settled round: refresh the player's balance (the polled query).
  // It asks to be reopened after its session expired: start a new session.
  useEffect(() => {
    if (!frameOrigin) return;
    const onMessage = (e: MessageEvent) => {
      const source = frame.current?.contentWindow;
      if (isBalanceMessage(e, frameOrigin, source)) dispatch(api.util.invalidateTags(['Balance']));
      else if (isFrameMessage(e, REOPEN_MESSAGE, frameOrigin, source)) setAttempt((a) => a + 1);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [frameOrigin, dispatch]);

  // The page is the game: no page scrolling behind it.
  useEffect(() => {
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = previous;
    };
  }, []);

  const lobby = `/${casinoType}/lobby`;
  let body: React.ReactNode;
  if (!isAuth) {
    body = checked ? (
      <EmptyState icon="lock" title={t('pleaseAuthTitle')} text={t('common:pleaseAuth')} testId="game-guest">
        <MobileButton onClick={() => dispatch(openAuthModal('login'))}>{t('logIn')}</MobileButton>
      </EmptyState>
    ) : (
      <div className={css.gameLoading}>
        <Spinner size={40} />
      </div>
    );
  } else if (state.kind === 'error') {
    void i18n.loadNamespaces('errors');
    const { key, params } = errorText(state.error);
    body = (
      <EmptyState icon="slots" title={t('gameErrorTitle')} text={t(key, params ?? {})} testId="game-error">
        <div className={css.emptyActions}>
          {!PERMANENT.has(state.error.code) && <MobileButton onClick={() => setAttempt((n) => n + 1)}>{t('retry')}</MobileButton>}
          <MobileButton color={PERMANENT.has(state.error.code) ? 'primary' : 'secondary'} to={lobby}>
            {t('toLobby')}
          </MobileButton>
        </div>
      </EmptyState>
    );
  } else if (state.kind === 'unavailable') {
    body = (
      <EmptyState icon="slots" title={t('gameErrorTitle')} text={t('providerUnavailable')} testId="game-unavailable">
        <div className={css.emptyActions}>
          <MobileButton onClick={() => setAttempt((n) => n + 1)}>{t('retry')}</MobileButton>
          <MobileButton color="secondary" to={lobby}>
            {t('toLobby')}
          </MobileButton>
        </div>
      </EmptyState>
    );
  } else if (url) {
    body = (
      <>
        {loader ? (
          <LoaderMount
            src={loader.src}
            global={loader.global}
            url={url}
            title={t('gameFrameTitle', { name })}
            onReady={() => setFrameLoaded(true)}
            onError={() => setState({ kind: 'unavailable' })}
          />
        ) : (
          <iframe
            ref={frame}
            src={url}
            title={t('gameFrameTitle', { name })}
            className={css.gameFrame}
            allow="autoplay; fullscreen"
            allowFullScreen
            onLoad={() => setFrameLoaded(true)}
            data-testid="game-frame"
          />
        )}
        {!frameLoaded && (
          <div className={css.gameLoading} role="status">
            <Spinner size={40} />
            <span>{t('loadingGame', { name })}</span>
          </div>
        )}
      </>
    );
  } else {
    body = (
      <div className={css.gameLoading} role="status">
        <Spinner size={40} />
        <span>{t('loadingGame', { name })}</span>
      </div>
    );
  }

  return (
    <div className={css.gameLayer} data-testid="game-page">
      <div className={css.gameBar}>
        <BackButton fallback={lobby} />
        <h1 className={css.gameTitle}>{name}</h1>
      </div>
      <div className={css.gameBody}>{body}</div>
    </div>
  );
}
