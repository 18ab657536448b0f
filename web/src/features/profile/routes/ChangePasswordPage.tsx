import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { api } from '../../../api/api';
import { useFormErrors, type FieldRoutes } from '../../../app/fieldErrors';
import { changePasswordProblem } from '../../../app/validation';
import { MobileButton } from '../../../components/MobileButton';
import { NewPasswordPair, PasswordInput } from '../../../components/PasswordInput';
import { SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';
import { BackButton } from '../../../components/BackButton';
import { Card, PageHeader } from '../../../components/Page';

type PasswordField = 'current' | 'next' | 'repeat';
const ROUTES: FieldRoutes<PasswordField> = {
  wire: { password: 'current', new_password: 'next' },
  byCode: { 4: 'current', 231: 'next' },
};

export default function ChangePasswordPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const errors = useFormErrors<PasswordField>('changePassword', ROUTES);
  const [change, { isLoading }] = api.useChangePasswordMutation();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // Checked before any call: shown under the field at fault.
    const problem = changePasswordProblem(next, repeat);
    if (problem === 'passwordsDoNotMatch') return errors.set('repeat', { keys: ['common:passwordsDoNotMatch'] });
    if (problem === 'weakPassword') return errors.set('next', { keys: ['common:weakPassword'] });
    const res = await change({ password: current, new_password: next });
    if (res.error) errors.fail(res.error as ApiError);
    else {
      errors.succeed('passwordChanged');
      setCurrent('');
      setNext('');
      setRepeat('');
    }
  };

  // A new password also clears the repeat's mismatch.
  const edit = (field: PasswordField, set: (v: string) => void) =>
    errors.edit(field, (v: string) => {
      set(v);
      if (field === 'next') errors.clear('repeat');
    });

  return (
    <>
      <PageHeader title={t('profile.changePassword')} back={<BackButton fallback="/profile" />} />
      <Card as="form" onSubmit={submit} noValidate>
        {isLoading && <SpinnerOverlay />}
        <PasswordInput
          label={t('currentPassword')}
          value={current}
          onChange={edit('current', setCurrent)}
          autoComplete="current-password"
          name="password"
          error={errors.message('current')}
        />
        <NewPasswordPair
          labels={[t('newPassword'), t('repeatPassword')]}
          names={['new_password', 'repeat']}
          password={next}
          onPassword={edit('next', setNext)}
          repeat={repeat}
          onRepeat={edit('repeat', setRepeat)}
          passwordError={errors.message('next')}
          repeatError={errors.message('repeat')}
        />
        <MobileButton type="submit" block disabled={current === '' || next === '' || repeat === '' || isLoading}>
          {t('savePassword')}
        </MobileButton>
      </Card>
    </>
  );
}
