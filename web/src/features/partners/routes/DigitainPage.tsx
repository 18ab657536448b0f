import { Navigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { api } from '../../../api/api';
import { BAD_RESPONSE } from '../../../api/envelope';
import { useAppSelector } from '../../../app/store';
import { partnersApi } from '../api';
import { SportFrame, type FrameState, type FrameTab } from '../components/SportFrame';
import { DIGITAIN_GUEST_TOKEN, DIGITAIN_GUEST_URL, digitainFramePath, digitainFrameSrc, frameLanguage, isSafeFrameUrl } from '../frame';

/**
 * /digsport, /digsport/:category, /digsport/:category/:id: the Digitain sportsbook in a frame.
 * Spec §4: the token is asked only when signed in (the player's id is the query's argument, so a
 * sign-in or sign-out gives another frame address and the frame reloads); a guest's frame carries
 * the placeholder token and the configured base.
 */
export default function DigitainPage() {
  const { t, i18n } = useTranslation(['partners', 'common', 'errors']);
  const { category, id } = useParams();
  const { isAuth, checked, user } = useAppSelector((s) => s.auth);
  const banned = api.useBlocklistQuery().data ?? [];
  const player = isAuth && user ? user.id : null;
  const token = partnersApi.useDigitainTokenQuery(player ?? skipToken, { refetchOnMountOrArgChange: true });

  const path = digitainFramePath(category, id);
  if (path === null) return <Navigate to="/digsport" replace />;

  const lang = frameLanguage(i18n.language);
  const tabs: FrameTab[] = [
    { to: '/digsport/live', label: t('live'), live: true, testId: 'digitain-tab-live' },
    { to: '/digsport/line', label: t('line'), testId: 'digitain-tab-line' },
    { to: '/digsport/results', label: t('results'), testId: 'digitain-tab-results' },
    { to: '/digsport/mybets', label: t('myBets'), testId: 'digitain-tab-mybets' },
  ];

  let state: FrameState;
  if (banned.includes('digitain')) state = { kind: 'unavailable' };
  else if (!isAuth && !checked) state = { kind: 'loading' }; // the auth check decides guest or player
  else if (player === null) {
    state = { kind: 'frame', src: digitainFrameSrc({ url: DIGITAIN_GUEST_URL, lang, path, token: DIGITAIN_GUEST_TOKEN }) };
  } else if (token.isError && token.error) {
    state = { kind: 'error', error: token.error, retry: () => void token.refetch() };
  } else if (token.currentData) {
    const { url, token: value } = token.currentData;
    state = isSafeFrameUrl(url)
      ? { kind: 'frame', src: digitainFrameSrc({ url, lang, path, token: value }) }
      : { kind: 'error', error: { code: BAD_RESPONSE, message: 'frame url' }, retry: () => void token.refetch() };
  } else state = { kind: 'loading' };

  return <SportFrame title={t('digitain.title')} tabs={tabs} state={state} testId="digitain-page" />;
}
