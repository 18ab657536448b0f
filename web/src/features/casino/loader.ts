/**
 * Providers whose game page loads the provider's own loader script (spec §2 /slots/inbet/:gameId;
 * §7: the scripts come from fixed paths under /inbet/media and /rpl/media, which the reverse
 * proxy maps to the provider, and demo mode serves from the provider's local fake).
 */
export type LoaderHandle = { destroy(): void };
export type LoaderOptions = { url: string; title: string; onReady?: () => void; onError?: (e: Error) => void };
export type LoaderApi = { mount(container: HTMLElement, options: LoaderOptions): LoaderHandle };

/** The loader script and the global it defines, by provider. */
export const LOADERS: Record<string, { src: string; global: string }> = {
  inbet: { src: '/inbet/media/loader.js', global: 'InbetLoader' },
};

const loading = new Map<string, { el: HTMLScriptElement; promise: Promise<void> }>();

/**
 * Loads a script once per page while its element stays in the document; a failed load is
 * removed and forgotten, so a retry loads it again.
 */
export function loadScript(src: string, doc: Document = document): Promise<void> {
  const known = loading.get(src);
  if (known && known.el.isConnected) return known.promise;
  const el = doc.createElement('script');
  const promise = new Promise<void>((resolve, reject) => {
    el.src = src;
    el.async = true;
    el.onload = () => resolve();
    el.onerror = () => {
      el.remove();
      loading.delete(src);
      reject(new Error(`${src} did not load`));
    };
  });
  loading.set(src, { el, promise });
  doc.head.appendChild(el);
  return promise;
}

/** The loader a script defined, if it defined one that can mount. */
export function loaderApi(global: string, win: object = window): LoaderApi | null {
  const candidate = (win as Record<string, unknown>)[global] as Partial<LoaderApi> | undefined;
  return candidate && typeof candidate.mount === 'function' ? (candidate as LoaderApi) : null;
}
