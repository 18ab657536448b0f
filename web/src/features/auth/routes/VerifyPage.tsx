import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { api } from '../../../api/api';
import { useNotify } from '../../../app/notify';
import { SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';

/** The value after the first '=' of the query string (`/verify?code=abc` → `abc`). */
export function verificationCode(search: string): string {
  const i = search.indexOf('=');
  return i < 0 ? '' : decodeURIComponent(search.slice(i + 1).split('&')[0] ?? '');
}

/** /verify — confirms the e-mail address, then goes to /. */
export default function VerifyPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  const navigate = useNavigate();
  const notify = useNotify();
  const [verify] = api.useVerifyEmailMutation();
  const done = useRef(false);

  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const code = verificationCode(window.location.search);
    void (async () => {
      const res = code ? await verify(code) : { error: { code: 6, message: '' } as ApiError };
      if ('error' in res && res.error) notify.error(res.error as ApiError);
      else notify.success('emailVerified');
      void navigate('/', { replace: true });
    })();
  }, [navigate, notify, verify]);

  return <SpinnerOverlay label={t('verifying')} />;
}
