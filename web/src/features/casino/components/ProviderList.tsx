import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/api';
import { casinoApi } from '../api';
import { isProviderBanned, PROVIDER_STEP, PROVIDER_STEP_MS } from '../logic';
import type { Provider } from '../types';
import { ProviderRow } from './ProviderRow';
import css from './Casino.module.css';

/**
 * Spec §9: the first 6 providers, then 6 more every 500 ms while the end marker is visible.
 * Returns how many to show and the marker's ref.
 */
export function useProgressiveCount(total: number, step = PROVIDER_STEP, everyMs = PROVIDER_STEP_MS) {
  const [shown, setShown] = useState(step);
  const [markerVisible, setMarkerVisible] = useState(false);
  const marker = useRef<HTMLDivElement>(null);
  const more = shown < total;

  useEffect(() => {
    const el = marker.current;
    if (!el) return;
    if (typeof IntersectionObserver === 'undefined') {
      setMarkerVisible(true);
      return;
    }
    const io = new IntersectionObserver((entries) => setMarkerVisible(entries.some((e) => e.isIntersecting)), { rootMargin: '300px' });
    io.observe(el);
    return () => io.disconnect();
  }, [more]);

  useEffect(() => {
    if (!markerVisible || shown >= total) return;
    const timer = setTimeout(() => setShown((n) => n + step), everyMs);
    return () => clearTimeout(timer);
  }, [markerVisible, shown, total, step, everyMs]);

  // `loading`: the marker is in view and more rows are on their way (what a status announces).
  return { shown: Math.min(shown, total), marker, more, loading: more && markerVisible };
}

/** Providers of a casino type as rows of games, banned ones left out, loaded progressively. */
export function ProviderList({ casinoType, isAuth, providers: given }: { casinoType: string; isAuth: boolean; providers?: Provider[] }) {
  const { t } = useTranslation('casino');
  const query = casinoApi.useCasinoProvidersQuery(casinoType, { skip: given !== undefined });
  const banned = api.useBlocklistQuery().data ?? [];
  const providers = (given ?? query.data ?? []).filter((p) => !isProviderBanned(p.name, banned));
  const { shown, marker, more, loading } = useProgressiveCount(providers.length);

  return (
    <div className={css.rows} data-testid="provider-list">
      {providers.slice(0, shown).map((p) => (
        <ProviderRow key={p.name} provider={{ ...p, casinoType: p.casinoType || casinoType }} isAuth={isAuth} />
      ))}
      {/* The end marker is a sentinel below the fold; it is a status only while rows load. */}
      {more && (
        <div ref={marker} className={css.endMarker} data-testid="provider-list-end" role={loading ? 'status' : undefined} aria-hidden={loading ? undefined : true}>
          {loading && <span className={css.srOnly}>{t('loadingMore')}</span>}
        </div>
      )}
    </div>
  );
}
