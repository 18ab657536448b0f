/**
 * The Carthage API wraps every reply in the same envelope, whatever the HTTP
 * status: `{"status": 0, "result": {...}, "error_message": null}` on success,
 * a non-zero `status` with an `error_message` on failure.
 */
export interface Envelope<T> {
  status: number;
  result: T | null;
  error_message: string | null;
}

export type EnvelopeResult<T> =
  | { ok: true; data: T }
  | { ok: false; code: number; message: string; data?: unknown };

/** The request never got an HTTP reply (offline, DNS, CORS, aborted, ...). */
export const NETWORK_ERROR = -1;
/** An HTTP reply came back, but its body is not an API envelope (e.g. a proxy's HTML 502 page). */
export const BAD_RESPONSE = -2;

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.status === 'number' && Number.isInteger(v.status);
}

/**
 * Fetches `path` and unwraps the API envelope. Never throws: every failure is
 * returned as `{ ok: false, code, message }`. The envelope is parsed whatever
 * the HTTP status, because the server reports errors (404, 401, 422, ...) in it.
 */
export async function fetchEnvelope<T>(path: string, init?: RequestInit): Promise<EnvelopeResult<T>> {
  const headers = new Headers(init?.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  // The server answers catalogue texts in the app's language (not the browser's): <html lang>
  // follows the language the player picked.
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
  if (lang && !headers.has('Accept-Language')) headers.set('Accept-Language', lang);

  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (err) {
    const detail = err instanceof Error && err.message ? `: ${err.message}` : '';
    return { ok: false, code: NETWORK_ERROR, message: `Network error${detail}` };
  }

  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    return {
      ok: false,
      code: BAD_RESPONSE,
      message: `Unexpected response from server (HTTP ${response.status}, not JSON)`,
    };
  }

  if (!isEnvelope(body)) {
    return {
      ok: false,
      code: BAD_RESPONSE,
      message: `Unexpected response from server (HTTP ${response.status}, not an API envelope)`,
    };
  }

  if (body.status !== 0) {
    const message =
      typeof body.error_message === 'string' && body.error_message !== ''
        ? body.error_message
        : `Request failed (status ${body.status})`;
    // Some refusals carry data for the client (e.g. 16: retryAfterSeconds, 6252: an amount).
    return body.result === null || body.result === undefined
      ? { ok: false, code: body.status, message }
      : { ok: false, code: body.status, message, data: body.result };
  }

  return { ok: true, data: body.result as T };
}
