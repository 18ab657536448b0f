import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyExponent } from '../../../components/money';
import { toMinor, verifyDrop, type Verdict } from './fair';
import css from './Jackpots.module.css';

export type Revealed = {
  serverSeed: string;
  seedHash: string;
  pool: string;
  cycle: number;
  currency: string;
  /** Major units, as the API sends them. */
  seedAmount: number;
  cap: number;
  dropPoint: number;
};

/** "Verify": recomputes a revealed drop in the browser (fair.ts) and shows ✓ or ✗. */
export function VerifyDrop({ drop }: { drop: Revealed }) {
  const { t } = useTranslation('promotions');
  const [state, setState] = useState<'idle' | 'busy' | Verdict>('idle');
  const onVerify = async () => {
    setState('busy');
    const exp = currencyExponent(drop.currency);
    try {
      setState(
        await verifyDrop({
          serverSeed: drop.serverSeed,
          seedHash: drop.seedHash,
          pool: drop.pool,
          cycle: drop.cycle,
          seedAmount: toMinor(drop.seedAmount, exp),
          cap: toMinor(drop.cap, exp),
          dropPoint: toMinor(drop.dropPoint, exp),
        }),
      );
    } catch {
      setState({ ok: false, hashOk: false, dropOk: false, computed: null });
    }
  };
  return (
    <div className={css.verify}>
      <button type="button" className={css.verifyButton} onClick={() => void onVerify()} disabled={state === 'busy'} data-testid="jackpot-verify">
        {state === 'busy' ? t('jackpots.verifying') : t('jackpots.verify')}
      </button>
      {typeof state === 'object' && (
        <span className={state.ok ? css.ok : css.bad} role="status" data-testid="jackpot-verdict" data-ok={String(state.ok)}>
          {state.ok ? t('jackpots.verified') : t('jackpots.mismatch')}
        </span>
      )}
    </div>
  );
}
