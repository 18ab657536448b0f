/**
 * After a deploy, the page a player still has open names chunks the new build replaced: the next
 * lazy route (or lazy component) fails to load with "Failed to fetch dynamically imported module"
 * (Chromium), "Importing a module script failed" (Safari), "error loading dynamically imported
 * module" (Firefox), a ChunkLoadError, or Vite's "Unable to preload CSS". The cure is the new
 * index.html: the app reloads itself once. A record in sessionStorage (the path and the time)
 * keeps it to one reload: a second failure within RELOAD_WINDOW_MS shows the error screen
 * (app/RouteError.tsx) instead of reloading again, so a chunk that is really gone never loops.
 */

const KEY = 'carthage.chunkReload';
/** A failure this soon after the automatic reload is not cured by another one. */
export const RELOAD_WINDOW_MS = 30_000;

const CHUNK_PATTERNS = [
  /Failed to fetch dynamically imported module/i,
  /Importing a module script failed/i,
  /error loading dynamically imported module/i,
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk [\w-]+ failed/i,
];

/** True for the errors a missing or unreachable chunk produces, in every browser. */
export function isChunkLoadError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return typeof error === 'string' && CHUNK_PATTERNS.some((p) => p.test(error));
  const e = error as { name?: unknown; message?: unknown; cause?: unknown };
  if (e.name === 'ChunkLoadError') return true;
  if (typeof e.message === 'string' && CHUNK_PATTERNS.some((p) => p.test(e.message as string))) return true;
  return e.cause !== undefined && e.cause !== error && isChunkLoadError(e.cause);
}

/** The page reload, an object so tests can replace it. */
export const page = {
  reload: () => window.location.reload(),
  now: () => Date.now(),
};

interface Record_ {
  path: string;
  at: number;
}

function readRecord(): Record_ | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const r = JSON.parse(raw) as Partial<Record_>;
    return typeof r.at === 'number' && typeof r.path === 'string' ? { path: r.path, at: r.at } : null;
  } catch {
    return null;
  }
}

/**
 * A chunk failed to load: reloads the page (to the new build) unless it was already reloaded for
 * this within RELOAD_WINDOW_MS. Returns true when a reload was started (show nothing new), false
 * when the error screen must show.
 */
export function reloadOnceForChunk(): boolean {
  const now = page.now();
  const last = readRecord();
  if (last && now - last.at >= 0 && now - last.at < RELOAD_WINDOW_MS) return false;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path: window.location.pathname, at: now }));
  } catch {
    // No storage (private mode with a full quota): reloading could loop, so do not.
    return false;
  }
  page.reload();
  return true;
}

const decided = new WeakMap<object, boolean>();
/**
 * [reloadOnceForChunk] decided once per error object: a screen that renders the same error again
 * (React's strict double render, a re-render) gets the same answer and reloads at most once.
 */
export function reloadOnceFor(error: unknown): boolean {
  if (!isChunkLoadError(error)) return false;
  if (typeof error !== 'object' || error === null) return reloadOnceForChunk();
  const known = decided.get(error);
  if (known !== undefined) return known;
  const answer = reloadOnceForChunk();
  decided.set(error, answer);
  return answer;
}

/**
 * Vite's own preload failure (a lazy chunk's CSS or a static import of it): the same single
 * reload, instead of the error surfacing later as a broken screen.
 */
export function listenForPreloadErrors() {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnceForChunk()) event.preventDefault();
  });
}

/**
 * A dynamic import whose preload failure was handed to the automatic reload above resolves to
 * `undefined` (Vite swallows an error whose `vite:preloadError` was prevented): wait for the
 * reload instead of rendering a module that is not there.
 */
export function settled<T>(load: Promise<T | undefined>): Promise<T> {
  return load.then((m) => (m === undefined ? new Promise<T>(() => {}) : m));
}
