import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { api } from '../../../api/api';
import { useNotify } from '../../../app/notify';
import { changePasswordProblem } from '../../../app/validation';
import { MobileButton } from '../../../components/MobileButton';
import { PasswordInput } from '../../../components/PasswordInput';
import { SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';
import { PageHead } from '../components/PageHead';
import css from '../components/Profile.module.css';

export default function ChangePasswordPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  const notify = useNotify();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [change, { isLoading }] = api.useChangePasswordMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const p = changePasswordProblem(next, repeat);
    setProblem(p);
    // Shown inline (role="alert"), and no call is made.
    if (p) return;
    const res = await change({ password: current, new_password: next });
    if (res.error) notify.error(res.error as ApiError);
    else {
      notify.success('passwordChanged');
      setCurrent('');
      setNext('');
      setRepeat('');
    }
  };

  return (
    <>
      <PageHead title={t('profile.changePassword')} />
      <form className={css.card} onSubmit={submit} noValidate>
        {isLoading && <SpinnerOverlay />}
        <PasswordInput label={t('currentPassword')} value={current} onChange={setCurrent} autoComplete="current-password" />
        <PasswordInput label={t('newPassword')} value={next} onChange={setNext} autoComplete="new-password" />
        <PasswordInput label={t('repeatPassword')} value={repeat} onChange={setRepeat} autoComplete="new-password" />
        <p className={css.hint}>{t('passwordRule')}</p>
        {problem && (
          <p className={css.error} role="alert" data-testid="password-problem">
            {t(problem)}
          </p>
        )}
        <MobileButton type="submit" block disabled={current === '' || next === '' || repeat === '' || isLoading}>
          {t('savePassword')}
        </MobileButton>
      </form>
    </>
  );
}
