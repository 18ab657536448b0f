import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { setOneClick } from '../../../app/authSlice';
import { useNotify } from '../../../app/notify';
import { useAppDispatch, useAppSelector } from '../../../app/store';
import { MobileButton } from '../../../components/MobileButton';
import { PopupModal } from '../../../components/PopupModal';
import css from './Auth.module.css';

/** Shows the generated credentials of a one-click registration once, with copy buttons. */
export default function OneClickModal() {
  const { t } = useTranslation(ACCOUNT_NS);
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const creds = useAppSelector((s) => s.auth.oneClick);
  if (!creds) return null;
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notify.success('copiedSuccess');
    } catch {
      notify.errorKey('copyFailed');
    }
  };
  const close = () => dispatch(setOneClick(null));
  return (
    <PopupModal title={t('oneClickTitle')} onClose={close}>
      <p className={css.lead}>{t('oneClickInfo')}</p>
      {(
        [
          ['login', 'loginLabel', creds.email],
          ['password', 'password', creds.password],
        ] as const
      ).map(([id, key, value]) => (
        <div key={id} className={css.cred}>
          <span className={css.credLabel}>{t(key)}</span>
          <code className={css.credValue} dir="ltr" data-testid={`one-click-${id}`}>
            {value}
          </code>
          <button type="button" className={css.copy} onClick={() => void copy(value)} aria-label={t('copyField', { field: t(key) })}>
            {t('copy')}
          </button>
        </div>
      ))}
      <MobileButton block onClick={close}>
        {t('savedContinue')}
      </MobileButton>
    </PopupModal>
  );
}
