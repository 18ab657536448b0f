import { useTranslation } from 'react-i18next';
import css from './ui.module.css';

export function Spinner({ size = 28 }: { size?: number }) {
  return <span className={css.spinner} style={{ inlineSize: size, blockSize: size }} aria-hidden="true" />;
}

/** Covers its positioned parent (or the screen with `fullscreen`) while something loads. */
export function SpinnerOverlay({ fullscreen = false, label }: { fullscreen?: boolean; label?: string }) {
  const { t, ready } = useTranslation('common', { useSuspense: false });
  return (
    <div className={fullscreen ? `${css.overlay} ${css.overlayFull}` : css.overlay} role="status" aria-live="polite">
      <Spinner size={40} />
      <span className={css.srOnly}>{label ?? (ready ? t('loading') : 'Loading…')}</span>
    </div>
  );
}
