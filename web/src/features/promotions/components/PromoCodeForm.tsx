import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../../api/types';
import { useNotify } from '../../../app/notify';
import { Field } from '../../../components/Field';
import { MobileButton } from '../../../components/MobileButton';
import { SpinnerOverlay } from '../../../components/Spinner';
import { isolate, normalizeCode, promotionsApi } from '../api';
import css from '../Promotions.module.css';

const NS = ['promotions', 'common'] as const;
const FORM = 'promocode';

/**
 * The profile's promo code entry: activates the code (a bonus opens or waits, free bets arrive
 * inactive). Success: '{label} {code} {success}' (spec §8); a refusal: its 2200–2215 message.
 */
export function PromoCodeForm({ autoFocus = false }: { autoFocus?: boolean }) {
  const { t } = useTranslation(NS);
  const notify = useNotify();
  const [code, setCode] = useState('');
  const [activate, { isLoading }] = promotionsApi.useActivatePromocodeMutation();
  const value = normalizeCode(code);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!value) return;
    const res = await activate({ code: value });
    if (res.error) {
      notify.error(res.error as ApiError, 'promocode', FORM);
      return;
    }
    setCode('');
    notify.formSuccess(FORM, 'promotions:promo.activated', { code: isolate(res.data.code) });
    if (res.data.freeBets > 0) notify.info('promotions:promo.freeBetsArrived', { count: String(res.data.freeBets) });
  };

  return (
    <form className={css.card} onSubmit={(e) => void submit(e)} noValidate data-testid="promo-form">
      {isLoading && <SpinnerOverlay />}
      <h2 className={css.subtitle}>{t('promo.title')}</h2>
      <p className={css.muted}>{t('promo.text')}</p>
      <div className={css.promoForm}>
        <Field
          label={t('promo.label')}
          name="promocode"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={code}
          onChange={setCode}
          autoFocus={autoFocus}
          dir="ltr"
        />
        <MobileButton type="submit" disabled={!value || isLoading} data-testid="promo-activate">
          {t('promo.activate')}
        </MobileButton>
      </div>
    </form>
  );
}
