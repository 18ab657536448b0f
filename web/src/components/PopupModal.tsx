import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import css from './ui.module.css';

export const POPUP_BASE_LAYER = 100;
let openCount = 0;

/** The next pop-up layer: base 100, raised by 2 on each open. */
export function nextLayer(): number {
  openCount += 1;
  return POPUP_BASE_LAYER + openCount * 2;
}
export function releaseLayer() {
  openCount = Math.max(0, openCount - 1);
}

function useLayer() {
  const [layer] = useState(nextLayer);
  useEffect(() => releaseLayer, []);
  return layer;
}

function useDialog(onClose: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const el = ref.current;
    const focusable = el?.querySelector<HTMLElement>('input, button:not([data-close]), select, textarea, a[href]');
    (focusable ?? el)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}

/** A centred pop-up dialog. */
export function PopupModal({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const layer = useLayer();
  const ref = useDialog(onClose);
  const titleId = useId();
  return createPortal(
    <div className={css.popupBackdrop} style={{ zIndex: layer }} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className={`${css.popup} ${wide ? css.popupWide : ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-layer={layer}
      >
        <ModalHead titleId={titleId} title={title} onClose={onClose} />
        <div className={css.popupBody}>{children}</div>
      </div>
    </div>,
    document.body,
  );
}

function ModalHead({ titleId, title, onClose }: { titleId: string; title: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={css.popupHead}>
      <h2 id={titleId} className={css.popupTitle}>
        {/* Titles may be catalogue text (a game's name): isolated from the page's direction. */}
        <bdi>{title}</bdi>
      </h2>
      <button type="button" data-close className={css.iconBtn} aria-label={t('close')} onClick={onClose}>
        ×
      </button>
    </div>
  );
}

/** A bottom sheet for phones, closed by pressing the backdrop. */
export function MobileModal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const layer = useLayer();
  const ref = useDialog(onClose);
  const titleId = useId();
  return createPortal(
    <div className={css.sheetLayer} style={{ zIndex: layer }}>
      <div className={css.sheetBackdrop} data-testid="modal-backdrop" onClick={onClose} />
      <div ref={ref} className={css.sheet} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <div className={css.sheetGrip} aria-hidden="true" />
        <ModalHead titleId={titleId} title={title} onClose={onClose} />
        <div className={css.popupBody}>{children}</div>
      </div>
    </div>,
    document.body,
  );
}
