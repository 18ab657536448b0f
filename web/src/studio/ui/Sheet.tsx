import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Ico } from './icons';
import css from '../studio.module.css';

/** A bottom sheet dialog (rules, history, fairness). Content mounts only while open. */
export function Sheet({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const { t } = useTranslation('studio');
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);
  if (!open) return null;
  return (
    <div className={css.sheetLayer}>
      <div className={css.sheetBackdrop} onClick={onClose} aria-hidden="true" />
      <div className={css.sheet} role="dialog" aria-modal="true" aria-labelledby={id} ref={ref} tabIndex={-1}>
        <div className={css.sheetHead}>
          <h2 id={id}>{title}</h2>
          <button type="button" className={css.sheetClose} onClick={onClose} aria-label={t('close')}>
            <Ico name="close" size={20} />
          </button>
        </div>
        <div className={css.sheetBody}>{children}</div>
      </div>
    </div>
  );
}
