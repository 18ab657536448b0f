import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { api } from '../../../api/api';
import { useNotify } from '../../../app/notify';
import { Field, SelectField } from '../../../components/Field';
import { MobileButton } from '../../../components/MobileButton';
import { SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';
import { PageHead } from '../components/PageHead';
import css from '../components/Profile.module.css';

export default function PersonalDataPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  const notify = useNotify();
  const { data: profile, isLoading } = api.useProfileQuery();
  const [update, { isLoading: saving }] = api.useUpdateProfileMutation();
  const [form, setForm] = useState({ firstName: '', lastName: '', middleName: '', birthDate: '', numberDocument: '', gender: '' });

  useEffect(() => {
    if (!profile) return;
    setForm({
      firstName: profile.firstName,
      lastName: profile.lastName,
      middleName: profile.middleName,
      birthDate: profile.birthDate ?? '',
      numberDocument: profile.numberDocument ?? '',
      gender: profile.gender ?? '',
    });
  }, [profile]);

  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const res = await update({
      first_name: form.firstName,
      last_name: form.lastName,
      middle_name: form.middleName,
      birth_date: form.birthDate || null,
      number_document: form.numberDocument || null,
      gander: form.gender || null,
    });
    if (res.error) notify.error(res.error as ApiError);
    else notify.success('profileUpdated');
  };

  return (
    <>
      <PageHead title={t('profile.personal')} />
      <form className={css.card} onSubmit={submit} noValidate>
        {(isLoading || saving) && <SpinnerOverlay />}
        <dl className={css.list}>
          <div className={css.listRow}>
            <dt>{t('idLabel')}</dt>
            <dd>{profile?.id}</dd>
          </div>
          {profile?.email && (
            <div className={css.listRow}>
              <dt>{t('email')}</dt>
              <dd>
                <bdi>{profile.email}</bdi>
              </dd>
            </div>
          )}
          {profile?.phone && (
            <div className={css.listRow}>
              <dt>{t('phone')}</dt>
              <dd>
                <bdi dir="ltr">+{profile.phone}</bdi>
              </dd>
            </div>
          )}
          <div className={css.listRow}>
            <dt>{t('currency')}</dt>
            <dd>{profile?.currency}</dd>
          </div>
        </dl>
        <Field label={t('firstName')} value={form.firstName} onChange={set('firstName')} autoComplete="given-name" />
        <Field label={t('lastName')} value={form.lastName} onChange={set('lastName')} autoComplete="family-name" />
        <Field label={t('middleName')} value={form.middleName} onChange={set('middleName')} autoComplete="additional-name" />
        <Field label={t('birthDate')} type="date" value={form.birthDate} onChange={set('birthDate')} autoComplete="bday" />
        <Field label={t('passport')} value={form.numberDocument} onChange={set('numberDocument')} />
        <SelectField
          label={t('gender')}
          value={form.gender}
          onChange={set('gender')}
          options={[
            { value: '', label: '—' },
            { value: 'male', label: t('male') },
            { value: 'female', label: t('female') },
          ]}
        />
        <MobileButton type="submit" block disabled={saving}>
          {t('save')}
        </MobileButton>
      </form>
    </>
  );
}
