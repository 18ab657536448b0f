import { useEffect, useRef } from 'react';

export const EDGE_PX = 28;
export const OPEN_SWIPE_PX = 50;
export const CLOSE_SWIPE_PX = 100;

/**
 * Opens the side menu by a swipe from the left edge (right edge in right-to-left) and
 * closes it by a swipe of over 100 px the other way.
 */
export function useEdgeSwipe({
  rtl,
  open,
  onOpen,
  onClose,
}: {
  rtl: boolean;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
}) {
  const latest = useRef({ rtl, open, onOpen, onClose });
  latest.current = { rtl, open, onOpen, onClose };

  useEffect(() => {
    let start: { x: number; y: number; fromEdge: boolean } | null = null;
    const onStart = (e: TouchEvent) => {
      const t = e.touches[0];
      if (!t) return;
      const { rtl: r } = latest.current;
      const fromEdge = r ? t.clientX >= window.innerWidth - EDGE_PX : t.clientX <= EDGE_PX;
      start = { x: t.clientX, y: t.clientY, fromEdge };
    };
    const onEnd = (e: TouchEvent) => {
      const t = e.changedTouches[0];
      if (!start || !t) return;
      const { rtl: r, open: o, onOpen: openIt, onClose: closeIt } = latest.current;
      const dx = (t.clientX - start.x) * (r ? -1 : 1); // positive = towards the content side
      const dy = Math.abs(t.clientY - start.y);
      if (!o && start.fromEdge && dx > OPEN_SWIPE_PX && dx > dy) openIt();
      else if (o && -dx > CLOSE_SWIPE_PX && -dx > dy) closeIt();
      start = null;
    };
    document.addEventListener('touchstart', onStart, { passive: true });
    document.addEventListener('touchend', onEnd, { passive: true });
    document.addEventListener('touchcancel', () => (start = null), { passive: true });
    return () => {
      document.removeEventListener('touchstart', onStart);
      document.removeEventListener('touchend', onEnd);
    };
  }, []);
}
