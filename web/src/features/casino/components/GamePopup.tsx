import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../../app/notify';
import { useAppSelector } from '../../../app/store';
import { LazyImage } from '../../../components/LazyImage';
import { MobileButton } from '../../../components/MobileButton';
import { PopupModal } from '../../../components/PopupModal';
import { casinoApi } from '../api';
import { formatRtp, gameKey, gameHref, gameRtp, isVirtualGame, providerDisplayName, similarGames, FAVORITE } from '../logic';
import type { Game } from '../types';
import { isNewGame } from './GameTile';
import css from './Casino.module.css';

function FavoriteToggle({ game }: { game: Game }) {
  const { t } = useTranslation('casino');
  const notify = useNotify();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const favorites = casinoApi.useFavoritesQuery(undefined, { skip: !isAuth });
  const [add, adding] = casinoApi.useAddFavoriteMutation();
  const [remove, removing] = casinoApi.useRemoveFavoriteMutation();
  const isFavorite = (favorites.data ?? []).some((f) => gameKey(f) === gameKey(game) || (game.id > 0 && f.id === game.id)) || game.tab.includes(FAVORITE);
  const busy = adding.isLoading || removing.isLoading || favorites.isFetching;

  const toggle = async () => {
    if (!isAuth) {
      notify.errorKey('pleaseAuth');
      return;
    }
    const res = isFavorite ? await remove(game.id) : await add(game.id);
    if ('error' in res && res.error) notify.error(res.error as Parameters<typeof notify.error>[0]);
    else notify.success(isFavorite ? 'slotSuccessfullyRemoved' : 'slotSuccessfullyAdded');
  };

  return (
    <button
      type="button"
      className={`${css.favBtn} ${isFavorite ? css.favOn : ''}`}
      aria-pressed={isFavorite}
      disabled={busy}
      onClick={() => void toggle()}
      data-testid="favorite-toggle"
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8.2 3.6 5 6.9 5c2 0 3.5 1.1 4.1 2.4h2C13.6 6.1 15.1 5 17.1 5c3.3 0 5.4 3.2 4.2 6.3-1.8 4.6-9.3 9.2-9.3 9.2z"
          fill={isFavorite ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
      {isFavorite ? t('removeFavorite') : t('addFavorite')}
    </button>
  );
}

/** Spec §2 game pop-up: artwork, name, provider, RTP, volatility, favourite toggle, play, 5 similar games. */
export function GamePopup({ game, pool, onClose, onOpen }: { game: Game; pool: readonly Game[]; onClose: () => void; onOpen: (g: Game) => void }) {
  const { t } = useTranslation('casino');
  const navigate = useNavigate();
  const location = useLocation();
  const notify = useNotify();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const providerGames = casinoApi.useGameListQuery(game.provider, { skip: game.provider === FAVORITE });
  // A provider whose catalogue refresh failed is "temporarily unavailable": said here, and
  // the play button says why it does nothing rather than opening a broken game.
  const providers = casinoApi.useCasinoProvidersQuery(game.casinoType || 'slots');
  const unavailable = providers.data?.find((p) => p.name === game.provider)?.unavailable === true;
  const { i18n } = useTranslation();
  const rtp = useMemo(() => formatRtp(gameRtp(game, new Date()), i18n.language), [game, i18n.language]);
  const [seed] = useState(() => Math.random());
  const similar = useMemo(() => {
    const all = [...pool, ...(providerGames.data ?? [])];
    // A fixed seed per opening: the pick does not reshuffle while the list loads.
    let s = Math.floor(seed * 2 ** 31) || 1;
    const random = () => {
      s = (s * 48271) % 2147483647;
      return s / 2147483647;
    };
    return similarGames(game, all, undefined, random);
  }, [game, pool, providerGames.data, seed]);

  const play = () => {
    if (unavailable) {
      notify.errorKey('casino:providerUnavailable', 'game-popup');
      return;
    }
    if (!isAuth) {
      // Spec §4: guests are blocked, told to sign in, and the pop-up closes.
      notify.errorKey('pleaseAuth');
      onClose();
      return;
    }
    onClose();
    void navigate(gameHref(game, true), { state: { prevPath: `${location.pathname}${location.search}` } });
  };

  const volatility = game.volatility ?? 'high';
  return (
    <PopupModal title={game.name} onClose={onClose}>
      <div className={css.popup} data-testid="game-popup">
        <div className={css.popupArt}>
          <LazyImage src={game.imageUrl} alt={game.name} className={css.popupImg} eager width={480} height={480} />
          {isNewGame(game) && <span className={css.newBadge}>{t('newBadge')}</span>}
        </div>
        <p className={css.popupProvider}>{providerDisplayName(game.provider)}</p>
        <dl className={css.facts}>
          <div>
            <dt>{t('rtp')}</dt>
            <dd data-testid="game-rtp">
              <bdi dir="ltr">{rtp}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t('volatility')}</dt>
            <dd>
              <span className={css.volatility} data-level={volatility}>
                <span aria-hidden="true" className={css.bars}>
                  <i />
                  <i />
                  <i />
                </span>
                {t(`volatilityLevel.${volatility}`)}
              </span>
            </dd>
          </div>
        </dl>
        {/* Catalogue text from the server: its own direction, whatever the page's (dir="auto"). */}
        {game.description && (
          <p className={css.popupText} dir="auto" data-testid="game-description">
            {game.description}
          </p>
        )}
        {unavailable && (
          <p className={css.popupUnavailable} role="alert" data-testid="provider-unavailable">
            {t('providerUnavailable')}
          </p>
        )}
        <div className={css.popupActions}>
          <MobileButton block onClick={play} data-testid="play" aria-disabled={unavailable || undefined}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path d="M8 5.5v13l10.5-6.5z" fill="currentColor" />
            </svg>
            {t('play')}
          </MobileButton>
          {!isVirtualGame(game) && <FavoriteToggle game={game} />}
        </div>
        {similar.length > 0 && (
          <section className={css.similar} aria-label={t('similarGames')}>
            <h3>{t('similarGames')}</h3>
            <div className={css.similarTrack}>
              {similar.map((g) => (
                <button key={gameKey(g)} type="button" className={css.similarTile} onClick={() => onOpen(g)} aria-label={g.name}>
                  <LazyImage src={g.imageUrl} alt="" className={css.similarImg} width={120} height={120} />
                  <span dir="auto">{g.name}</span>
                </button>
              ))}
            </div>
          </section>
        )}
      </div>
    </PopupModal>
  );
}

export default GamePopup;
