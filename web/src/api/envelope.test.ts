import { describe, expect, it, vi } from 'vitest';
import { BAD_RESPONSE, NETWORK_ERROR, fetchEnvelope } from './envelope';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function mockFetch(impl: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>) {
  const fetchMock = vi.fn(impl);
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('fetchEnvelope', () => {
  it('returns the result of a successful envelope', async () => {
    const fetchMock = mockFetch(async () =>
      jsonResponse({ status: 0, result: { lang: 'en', currencies: ['EUR'] }, error_message: null }),
    );

    const reply = await fetchEnvelope<{ lang: string; currencies: string[] }>('/api/site/settings');

    expect(reply).toEqual({ ok: true, data: { lang: 'en', currencies: ['EUR'] } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/site/settings');
    expect(new Headers(init?.headers).get('Accept')).toBe('application/json');
  });

  it('passes init through and keeps caller headers', async () => {
    const fetchMock = mockFetch(async () => jsonResponse({ status: 0, result: null, error_message: null }));

    const reply = await fetchEnvelope('/api/x', {
      method: 'POST',
      headers: { Accept: 'application/vnd.carthage+json', 'X-Trace': 't1' },
      body: '{}',
    });

    expect(reply).toEqual({ ok: true, data: null });
    const init = fetchMock.mock.calls[0]![1]!;
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{}');
    const headers = new Headers(init.headers);
    expect(headers.get('Accept')).toBe('application/vnd.carthage+json');
    expect(headers.get('X-Trace')).toBe('t1');
  });

  it('reports a non-zero status with its error message', async () => {
    mockFetch(async () => jsonResponse({ status: 7, result: null, error_message: 'Maintenance' }));

    expect(await fetchEnvelope('/api/site/settings')).toEqual({ ok: false, code: 7, message: 'Maintenance' });
  });

  it('parses the envelope of a non-200 HTTP reply', async () => {
    mockFetch(async () => jsonResponse({ status: 404, result: null, error_message: 'Not found' }, 404));

    expect(await fetchEnvelope('/api/does-not-exist')).toEqual({ ok: false, code: 404, message: 'Not found' });
  });

  it('gives a generic message when a failing envelope has none', async () => {
    mockFetch(async () => jsonResponse({ status: 3, result: null, error_message: null }, 500));

    expect(await fetchEnvelope('/api/x')).toEqual({ ok: false, code: 3, message: 'Request failed (status 3)' });
  });

  it('rejects a non-JSON body', async () => {
    mockFetch(async () => new Response('<html><body>502 Bad Gateway</body></html>', { status: 502 }));

    const reply = await fetchEnvelope('/api/site/settings');

    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.code).toBe(BAD_RESPONSE);
    expect(reply.message).toContain('HTTP 502');
  });

  it('rejects JSON that is not an envelope', async () => {
    mockFetch(async () => jsonResponse({ lang: 'en' }));

    const reply = await fetchEnvelope('/api/site/settings');

    expect(reply).toMatchObject({ ok: false, code: BAD_RESPONSE });
  });

  it('reports a network failure without throwing', async () => {
    mockFetch(async () => {
      throw new TypeError('Failed to fetch');
    });

    expect(await fetchEnvelope('/api/site/settings')).toEqual({
      ok: false,
      code: NETWORK_ERROR,
      message: 'Network error: Failed to fetch',
    });
  });
});
