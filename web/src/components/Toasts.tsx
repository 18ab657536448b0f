import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import css from './ui.module.css';

export interface ToastItem {
  id: string;
  text: string | string[];
  params?: Record<string, string>;
  type: 'default' | 'success' | 'error';
  needClose: boolean;
  timeToCloseMs: number;
}

export const TOAST_SWIPE_PX = 120;
/** A pointer that moved less than this between down and up is a tap: it closes the notice. */
export const TOAST_TAP_PX = 10;
export const TOAST_FADE_MS = 100;

function Toast({ item, onDelete }: { item: ToastItem; onDelete: (id: string) => void }) {
  // Not suspending: the `errors` namespace may still be loading; the text updates when it arrives.
  const { t } = useTranslation(['common', 'errors'], { useSuspense: false });
  const [hiding, setHiding] = useState(false);
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);

  // Hide (fade), then remove about 0.1 s later.
  useEffect(() => {
    if (!hiding) return;
    const timer = setTimeout(() => onDelete(item.id), TOAST_FADE_MS);
    return () => clearTimeout(timer);
  }, [hiding, item.id, onDelete]);

  useEffect(() => {
    if (!item.needClose) return;
    const timer = setTimeout(() => setHiding(true), item.timeToCloseMs);
    return () => clearTimeout(timer);
  }, [item.needClose, item.timeToCloseMs]);

  const moved = useRef(0);
  const onPointerDown = (e: PointerEvent) => {
    start.current = e.clientX;
    moved.current = 0;
  };
  const onPointerMove = (e: PointerEvent) => {
    if (start.current === null) return;
    const d = e.clientX - start.current;
    moved.current = Math.max(moved.current, Math.abs(d));
    setDx(d);
  };
  const onPointerUp = () => {
    // A swipe past TOAST_SWIPE_PX, or a tap (no real move): the notice has been seen.
    if (start.current !== null && (Math.abs(dx) > TOAST_SWIPE_PX || moved.current < TOAST_TAP_PX)) setHiding(true);
    else setDx(0);
    start.current = null;
  };
  const onPointerCancel = () => {
    setDx(0);
    start.current = null;
  };

  const keys = Array.isArray(item.text) ? item.text : [item.text];
  const text = t(keys, { ...item.params, defaultValue: keys[keys.length - 1] });
  return (
    <div
      className={`${css.toast} ${css[`toast_${item.type}`] ?? ''} ${hiding ? css.toastHiding : ''}`}
      role={item.type === 'error' ? 'alert' : 'status'}
      data-testid="toast"
      data-type={item.type}
      style={{ transform: dx ? `translateX(${dx}px)` : undefined, opacity: dx ? Math.max(0.2, 1 - Math.abs(dx) / 240) : undefined }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
    >
      <span className={css.toastIcon} aria-hidden="true">
        {item.type === 'error' ? '!' : item.type === 'success' ? '✓' : 'i'}
      </span>
      <span className={css.toastText}>{text}</span>
      <button type="button" className={css.toastClose} aria-label={t('close')} onClick={() => setHiding(true)}>
        ×
      </button>
    </div>
  );
}

/**
 * The notices, over the header (issue 18): the page's title, just below the header, stays
 * readable. One shows at a time, the newest (the answer to what the player just did); older ones
 * wait their turn and show after it, each for its own time.
 */
export function Toasts({ items, onDelete }: { items: ToastItem[]; onDelete: (id: string) => void }) {
  const newest = items[items.length - 1];
  return (
    <div className={css.toasts} aria-live="polite" data-waiting={items.length - 1}>
      {newest && <Toast key={newest.id} item={newest} onDelete={onDelete} />}
    </div>
  );
}
