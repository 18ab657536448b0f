import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * How long a main action button ignores taps after its meaning changed (e.g. "Cash out" became
 * "Bet next round" because the round crashed, or "Bet placed" became "Cash out" as the round
 * started). A tap is decided on what the player saw: seeing the old label, deciding and moving the
 * finger takes ~250–500 ms before the touch lands, plus a frame or two of rendering; a deliberate
 * tap on the *new* meaning needs the player to notice and read the new label first, which takes
 * longer than this. 700 ms covers the first without making the second feel slow.
 */
export const ACTION_GUARD_MS = 700;
/** How long the "why nothing happened" hint of a refused tap stays up (long enough to read). */
export const REFUSED_HINT_MS = 1500;

/**
 * Guards a button whose meaning (not merely its text: "Cash out 1.23 TND" → "Cash out 1.24 TND" is
 * the same meaning) can change under the player's finger. `guarded` renders it disabled and shows
 * the transition; `isGuarded()` is the check the click handler makes, read from the clock so that a
 * tap dispatched before the disabled state is painted is refused too; `refuse()` records such a
 * tap so the button can show why nothing happened. The first meaning is not guarded.
 */
export function useActionGuard(meaning: string, ms: number = ACTION_GUARD_MS) {
  const [guarded, setGuarded] = useState(false);
  const until = useRef(0);
  const prev = useRef(meaning);
  // A layout effect: it runs in the same commit as the new label, before the browser paints or
  // dispatches another event, so no tap can fall between the new meaning and the guard.
  useLayoutEffect(() => {
    if (prev.current !== meaning) {
      prev.current = meaning;
      until.current = Date.now() + ms;
    }
    const left = until.current - Date.now();
    if (left <= 0) {
      setGuarded(false);
      return undefined;
    }
    setGuarded(true);
    const id = window.setTimeout(() => setGuarded(false), left);
    return () => window.clearTimeout(id);
  }, [meaning, ms]);
  const isGuarded = useCallback(() => Date.now() < until.current, []);

  // A tap the guard refused is answered, never silently dropped (issue 18): `refused` stays true
  // for REFUSED_HINT_MS so the button can say why; `refusals` counts them (a new one restarts the
  // hint's animation).
  const [refusals, setRefusals] = useState(0);
  const [refused, setRefused] = useState(false);
  const refuse = useCallback(() => {
    setRefusals((n) => n + 1);
    setRefused(true);
  }, []);
  useEffect(() => {
    if (!refused) return undefined;
    const id = window.setTimeout(() => setRefused(false), REFUSED_HINT_MS);
    return () => window.clearTimeout(id);
  }, [refused, refusals]);
  return { guarded, isGuarded, refuse, refused, refusals };
}
