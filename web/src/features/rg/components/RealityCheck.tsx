import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { logout } from '../../../app/session';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { MobileButton } from '../../../components/MobileButton';
import { formatMoney } from '../../../components/money';
import { PopupModal } from '../../../components/PopupModal';
import { isolate, nextReminder, playedFor, rgApi } from '../api';
import css from '../Rg.module.css';

/**
 * The reality-check reminder, mounted by the app shell: while a player is signed in with an
 * interval chosen (profile → responsible gambling), a dialog every interval from the sign-in
 * shows the time signed in and the net result of play since, with "continue", "see my
 * history" and "sign out".
 */
export default function RealityCheck() {
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const { data } = rgApi.useRgSessionQuery(undefined, { skip: !isAuth });
  const [open, setOpen] = useState(false);
  const [after, setAfter] = useState(() => Date.now());
  const minutes = isAuth ? (data?.reality_check_minutes ?? 0) : 0;
  const startedAt = data?.started_at ?? '';

  useEffect(() => {
    if (open) return;
    const due = nextReminder(startedAt, minutes, after);
    if (due === null) return;
    const timer = setTimeout(() => setOpen(true), Math.max(0, due - Date.now()));
    return () => clearTimeout(timer);
  }, [startedAt, minutes, after, open]);

  if (!open || !isAuth || minutes <= 0 || !data) return null;
  return (
    <Reminder
      startedAt={startedAt}
      onClose={() => {
        setAfter(Date.now());
        setOpen(false);
      }}
    />
  );
}

function Reminder({ startedAt, onClose }: { startedAt: string; onClose: () => void }) {
  const { t, i18n } = useTranslation(['rg', 'common']);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // The net result as it is now (the query is refreshed when the dialog opens).
  const { data } = rgApi.useRgSessionQuery(undefined, { refetchOnMountOrArgChange: true });
  const { h, m } = playedFor(startedAt, Date.now());
  const time = h > 0 ? t('duration.hm', { h, m }) : t('duration.m', { m });
  return (
    <PopupModal title={t('reality.modalTitle')} onClose={onClose}>
      <div className={css.confirm} data-testid="rg-reality-check">
        <p>{t('reality.played', { time })}</p>
        {data && <p>{t('reality.net', { amount: isolate(formatMoney(data.net, data.currency, i18n.language)) })}</p>}
        <div className={css.stack}>
          <MobileButton block onClick={onClose}>
            {t('reality.continue')}
          </MobileButton>
          <MobileButton
            block
            color="secondary"
            onClick={() => {
              onClose();
              navigate('/profile/history');
            }}
          >
            {t('reality.history')}
          </MobileButton>
          <MobileButton
            block
            color="ghost"
            onClick={() => {
              onClose();
              void logout(dispatch);
            }}
          >
            {t('reality.signOut')}
          </MobileButton>
        </div>
      </div>
    </PopupModal>
  );
}
