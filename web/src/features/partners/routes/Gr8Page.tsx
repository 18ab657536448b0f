import { Navigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { api } from '../../../api/api';
import { BAD_RESPONSE } from '../../../api/envelope';
import { openAuthModal } from '../../../app/authSlice';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { Icon } from '../../../components/Icon';
import { partnersApi } from '../api';
import { SportFrame, type FrameState, type FrameTab } from '../components/SportFrame';
import css from '../components/Partners.module.css';
import { frameLanguage, gr8DeepLink, gr8FrameSrc } from '../frame';

/**
 * /betting/gr and /betting/gr/:category: the GR8 sportsbook in a frame. Spec §4 "Second-provider
 * link": signed in, the player's link is asked (`/gr8/game_link`); a guest gets a frame to look at
 * (`/gr8/frame`) and a notice to sign in to bet. The category is a deep link put after the
 * link's language segment (frame.ts), so changing tabs asks nothing again.
 */
export default function Gr8Page() {
  const { t, i18n } = useTranslation(['partners', 'common', 'errors']);
  const dispatch = useAppDispatch();
  const { category } = useParams();
  const { isAuth, checked, user } = useAppSelector((s) => s.auth);
  const banned = api.useBlocklistQuery().data ?? [];
  const lang = frameLanguage(i18n.language);
  const player = isAuth && user ? user.id : null;
  const known = isAuth || checked;
  const link = partnersApi.useGr8GameLinkQuery(player !== null ? { lang, player } : skipToken, { refetchOnMountOrArgChange: true });
  const guest = partnersApi.useGr8FrameQuery(known && player === null ? lang : skipToken);

  const deep = gr8DeepLink(category);
  if (deep === null) return <Navigate to="/betting/gr" replace />;

  const tabs: FrameTab[] = [
    { to: '/betting/gr/live', label: t('live'), live: true, testId: 'gr8-tab-live' },
    { to: '/betting/gr/uefa', label: t('uefa'), testId: 'gr8-tab-uefa' },
    { to: '/betting/gr/mybets', label: t('myBets'), testId: 'gr8-tab-mybets' },
  ];

  const q = player !== null ? link : guest;
  const raw = player !== null ? link.currentData?.game_link : guest.currentData?.frame;
  const retry = () => void q.refetch();
  let state: FrameState;
  if (banned.includes('gr8')) state = { kind: 'unavailable' };
  else if (!known) state = { kind: 'loading' };
  else if (q.isError && q.error) state = { kind: 'error', error: q.error, retry };
  else if (raw !== undefined) {
    const src = gr8FrameSrc(raw, lang, deep);
    state = src ? { kind: 'frame', src } : { kind: 'error', error: { code: BAD_RESPONSE, message: 'frame link' }, retry };
  } else state = { kind: 'loading' };

  const notice =
    known && player === null && state.kind !== 'unavailable' ? (
      <div className={css.notice} role="note" data-testid="gr8-guest-notice">
        <span className={css.noticeIcon} aria-hidden="true">
          <Icon name="lock" size={16} />
        </span>
        <p className={css.noticeText}>{t('gr8.guestNotice')}</p>
        <button type="button" className={css.noticeBtn} onClick={() => dispatch(openAuthModal('login'))} data-testid="gr8-login">
          {t('common:login')}
        </button>
      </div>
    ) : undefined;

  return <SportFrame title={t('gr8.title')} tabs={tabs} notice={notice} state={state} testId="gr8-page" />;
}
