import { useEffect, useRef } from 'react';
import { api } from '../api/api';
import { NETWORK_ERROR } from '../api/envelope';
import type { ApiError, ReplyOf } from '../api/types';
import { clearPromocode } from './authSlice';
import { addNotification } from './notificationsSlice';
import { useNotify } from './notify';
import { useAppDispatch, useAppSelector, type AppDispatch } from './store';

export type PartnerPromo = ReplyOf<'/api/user/partner/set-promocode', 'post'>;

/** The tab's copy of a partner link's `betting`/`ref_id` (app/startup.ts). */
export const PROMO_STORAGE_KEY = 'carthage.promo';

/** Partner set-promocode (spec §4, §7; docs/PROMOTIONS.md "Partner set-promocode"). */
export const partnerPromoApi = api.injectEndpoints({
  endpoints: (build) => ({
    setPartnerPromocode: build.mutation<PartnerPromo, { betting: string; ref_id: string | null }>({
      query: (body) => ({ url: '/api/user/partner/set-promocode', method: 'POST', body }),
    }),
  }),
});

/** Forgets the link's code: the store's and the tab's copy. */
export function forgetPartnerPromo(dispatch: AppDispatch) {
  dispatch(clearPromocode());
  try {
    sessionStorage.removeItem(PROMO_STORAGE_KEY);
  } catch {
    /* ignore */
  }
}

/** A code inside a sentence keeps its own direction (Arabic text around a Latin code). */
const isolate = (text: string) => `\u2068${text}\u2069`;

/**
 * A player who came by a partner's link (`?betting=CODE&ref_id=…`) and is signed in (after a
 * sign-in or a sign-up): the code is sent once to set-promocode, then forgotten whatever the
 * answer (a network failure keeps it for the next sign-in). Success: '{label} {code} {success}'
 * (spec §8); 2200: '{label} {code} {not found}'; another refusal: its own message.
 */
export function usePartnerPromocode() {
  const dispatch = useAppDispatch();
  const notify = useNotify();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const remembered = useAppSelector((s) => s.auth.remembered);
  const userId = useAppSelector((s) => s.auth.user?.id ?? null);
  const promocode = useAppSelector((s) => s.auth.promocode);
  const refId = useAppSelector((s) => s.auth.refId);
  const [apply] = partnerPromoApi.useSetPartnerPromocodeMutation();
  const sent = useRef<string | null>(null);

  useEffect(() => {
    // Only once the server has confirmed who is signed in (not a remembered, unconfirmed page).
    if (!isAuth || remembered || userId === null || !promocode) return;
    const once = `${userId}|${promocode}`;
    if (sent.current === once) return;
    sent.current = once;
    void (async () => {
      const res = await apply({ betting: promocode, ref_id: refId });
      if (res.error) {
        const error = res.error as ApiError;
        if (error.code === NETWORK_ERROR) {
          sent.current = null;
          return;
        }
        forgetPartnerPromo(dispatch);
        if (error.code === 2200) {
          dispatch(addNotification({ text: 'partnerPromo.notFound', type: 'error', params: { code: isolate(promocode) } }));
        } else {
          notify.error(error, 'promocode');
        }
        return;
      }
      forgetPartnerPromo(dispatch);
      notify.success('partnerPromo.activated', { code: isolate(res.data.code) });
      if (res.data.freeBets > 0) notify.info('partnerPromo.freeBets', { count: String(res.data.freeBets) });
    })();
  }, [isAuth, remembered, userId, promocode, refId, apply, dispatch, notify]);
}
