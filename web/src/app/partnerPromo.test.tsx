import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, renderApp, testUser } from '../test/render';
import { initialAuthState, setPromocode } from './authSlice';
import { PROMO_STORAGE_KEY, usePartnerPromocode } from './partnerPromo';

function Probe() {
  usePartnerPromocode();
  return null;
}

const PATH = '/api/user/partner/set-promocode';
const reply = { code: 'PARTNERX', kind: 'bonus', bonusId: '1', freeBets: 0, partnerId: 5, linked: true, replayed: false };
const signedIn = (extra: Partial<typeof initialAuthState> = {}) => ({
  auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, promocode: 'PARTNERX', refId: '5', ...extra },
});
const sent = (fetchMock: ReturnType<typeof mockApi>) => fetchMock.mock.calls.filter(([u]) => String(u) === PATH);

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('partner set-promocode (spec §4 betting + ref_id)', () => {
  it('sends the stored code once after sign-in, forgets it and shows the success notice', async () => {
    sessionStorage.setItem(PROMO_STORAGE_KEY, JSON.stringify({ betting: 'PARTNERX', ref_id: '5' }));
    const fetchMock = mockApi({ [`POST ${PATH}`]: ok(reply) });
    const { store } = renderApp(<Probe />, { state: signedIn() });
    await vi.waitFor(() => expect(store.getState().auth.promocode).toBeNull());
    expect(sent(fetchMock)).toHaveLength(1);
    expect(JSON.parse(String(sent(fetchMock)[0]![1]!.body))).toEqual({ betting: 'PARTNERX', ref_id: '5' });
    expect(store.getState().auth.refId).toBeNull();
    expect(sessionStorage.getItem(PROMO_STORAGE_KEY)).toBeNull();
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ type: 'success', text: 'partnerPromo.activated', params: { code: '\u2068PARTNERX\u2069' } });
    // The same link again in this page (e.g. the tab's copy read back): not sent twice.
    await act(async () => {
      store.dispatch(setPromocode({ promocode: 'PARTNERX', refId: '5' }));
    });
    expect(sent(fetchMock)).toHaveLength(1);
  });

  it('shows a refusal with its own message and forgets the code', async () => {
    mockApi({ [`POST ${PATH}`]: { status: 2203, result: null, error_message: 'another partner' } });
    const { store } = renderApp(<Probe />, { state: signedIn() });
    await vi.waitFor(() => expect(store.getState().auth.promocode).toBeNull());
    const toast = store.getState().notifications.items.at(-1)!;
    expect(toast.type).toBe('error');
    expect(toast.text).toContain('errors:2203');
  });

  it("says '{label} {code} {not found}' for a code that does not exist", async () => {
    mockApi({ [`POST ${PATH}`]: { status: 2200, result: null, error_message: 'no such code' } });
    const { store } = renderApp(<Probe />, { state: signedIn() });
    await vi.waitFor(() => expect(store.getState().auth.promocode).toBeNull());
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ type: 'error', text: 'partnerPromo.notFound', params: { code: '\u2068PARTNERX\u2069' } });
  });

  it('waits for a confirmed sign-in, and sends nothing without a stored code', async () => {
    const fetchMock = mockApi({ [`POST ${PATH}`]: ok(reply) });
    renderApp(<Probe />, { state: signedIn({ remembered: true }) });
    renderApp(<Probe />, { state: signedIn({ promocode: null, refId: null }) });
    renderApp(<Probe />, { state: { auth: { ...initialAuthState, promocode: 'PARTNERX' } } });
    await act(async () => {});
    expect(sent(fetchMock)).toHaveLength(0);
  });
});
