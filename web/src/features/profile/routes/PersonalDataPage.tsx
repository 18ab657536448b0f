import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCOUNT_NS } from '../../../app/i18n';
import { api } from '../../../api/api';
import { useFormErrors, type FieldRoutes } from '../../../app/fieldErrors';
import { Field, SelectField } from '../../../components/Field';
import { MobileButton } from '../../../components/MobileButton';
import { SpinnerOverlay } from '../../../components/Spinner';
import type { ApiError } from '../../../api/types';
import { BackButton } from '../../../components/BackButton';
import { Card, List, PageHeader, ValueRow } from '../../../components/Page';

type ProfileField = 'firstName' | 'lastName' | 'middleName' | 'birthDate' | 'numberDocument' | 'gender';
/** The update's wire names (docs/API.md): refusals name them. */
const ROUTES: FieldRoutes<ProfileField> = {
  wire: {
    first_name: 'firstName',
    last_name: 'lastName',
    middle_name: 'middleName',
    birth_date: 'birthDate',
    number_document: 'numberDocument',
    gander: 'gender',
    gender: 'gender',
  },
};

export default function PersonalDataPage() {
  const { t } = useTranslation(ACCOUNT_NS);
  const errors = useFormErrors<ProfileField>('profile', ROUTES);
  const { data: profile, isLoading } = api.useProfileQuery();
  const [update, { isLoading: saving }] = api.useUpdateProfileMutation();
  const [form, setForm] = useState({ firstName: '', lastName: '', middleName: '', birthDate: '', numberDocument: '', gender: '' });

  // Fields the player has typed in: the server's profile (arriving late, or refetched) never
  // overwrites them under the player's fingers.
  const edited = useRef(new Set<string>());
  useEffect(() => {
    if (!profile) return;
    const server = {
      firstName: profile.firstName,
      lastName: profile.lastName,
      middleName: profile.middleName,
      birthDate: profile.birthDate ?? '',
      numberDocument: profile.numberDocument ?? '',
      gender: profile.gender ?? '',
    };
    setForm((f) => {
      const next = { ...server };
      for (const k of Object.keys(next) as (keyof typeof next)[]) if (edited.current.has(k)) next[k] = f[k];
      return next;
    });
  }, [profile]);

  const set = (k: ProfileField) => (v: string) => {
    edited.current.add(k);
    setForm((f) => ({ ...f, [k]: v }));
    errors.clear(k);
  };

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
    if (res.error) errors.fail(res.error as ApiError);
    else errors.succeed('profileUpdated');
  };

  return (
    <>
      <PageHeader title={t('profile.personal')} back={<BackButton fallback="/profile" />} />
      <Card as="form" onSubmit={submit} noValidate>
        {(isLoading || saving) && <SpinnerOverlay />}
        <List as="dl">
          <ValueRow label={t('idLabel')}>{profile?.id}</ValueRow>
          {profile?.email && (
            <ValueRow label={t('email')}>
              <bdi>{profile.email}</bdi>
            </ValueRow>
          )}
          {profile?.phone && (
            <ValueRow label={t('phone')}>
              <bdi dir="ltr">+{profile.phone}</bdi>
            </ValueRow>
          )}
          <ValueRow label={t('currency')}>{profile?.currency}</ValueRow>
        </List>
        <Field
          label={t('firstName')}
          name="first_name"
          value={form.firstName}
          onChange={set('firstName')}
          autoComplete="given-name"
          maxLength={64}
          error={errors.message('firstName')}
        />
        <Field
          label={t('lastName')}
          name="last_name"
          value={form.lastName}
          onChange={set('lastName')}
          autoComplete="family-name"
          maxLength={64}
          error={errors.message('lastName')}
        />
        <Field
          label={t('middleName')}
          name="middle_name"
          value={form.middleName}
          onChange={set('middleName')}
          autoComplete="additional-name"
          maxLength={64}
          error={errors.message('middleName')}
        />
        <Field
          label={t('birthDate')}
          name="birth_date"
          type="date"
          value={form.birthDate}
          onChange={set('birthDate')}
          autoComplete="bday"
          error={errors.message('birthDate')}
        />
        <Field
          label={t('passport')}
          name="number_document"
          value={form.numberDocument}
          onChange={set('numberDocument')}
          error={errors.message('numberDocument')}
        />
        <SelectField
          label={t('gender')}
          name="gender"
          error={errors.message('gender')}
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
      </Card>
    </>
  );
}
