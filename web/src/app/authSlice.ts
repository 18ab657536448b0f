import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { api } from '../api/api';
import type { Balance, User } from '../api/types';

export type AuthModalType = 'login' | 'registration' | 'restore1' | 'restore2';

/**
 * The signed-in user as the app holds it: the server's full reply, or — between a reload and the
 * server's confirmation — the few fields remembered across reloads (app/remembered.ts).
 */
export type SessionUser = Pick<User, 'id' | 'login' | 'role'> & Partial<User>;
/** The balance: the server's full reply, or only the remembered real balance and currency. */
export type SessionBalance = Pick<Balance, 'balance' | 'currency'> & Partial<Balance>;

/** What a reload shows at once, before the server confirms it (never a token or a secret). */
export interface RememberedSession {
  id: number;
  login: string;
  firstName?: string;
  lastName?: string;
  role: 0;
  balance: { balance: number; currency: string } | null;
  /** When these values, as the server sent them, were stored (ms since the epoch). */
  at: number;
}

/** Every field of the balance reply: the server answered (not only the remembered real balance). */
export function isFullBalance(balance: SessionBalance | null): balance is Balance {
  return balance !== null && typeof balance.bonusBalance === 'number' && Array.isArray(balance.jackpots);
}

/** The server's full balance reply; null while only the remembered real balance is known. */
export const selectFullBalance = (s: { auth: AuthState }): Balance | null =>
  isFullBalance(s.auth.balance) ? s.auth.balance : null;

export interface AuthState {
  isAuth: boolean;
  /** True once the first auth check answered (either way). */
  checked: boolean;
  user: SessionUser | null;
  balance: SessionBalance | null;
  /** The user and balance come from the remembered record; the server has not confirmed them yet. */
  remembered: boolean;
  promocode: string | null;
  refId: string | null;
  loginIsPhone: boolean;
  authModal: { type: AuthModalType; isOpen: boolean };
  /** Phone (216XXXXXXXX) or e-mail whose recovery code was sent, for restore2. */
  restoreTarget: { channel: 'phone' | 'email'; value: string } | null;
  /** Generated credentials of a one-click registration, shown once. */
  oneClick: { email: string; password: string } | null;
  /**
   * The role of a staff account (partner, cashier, super agent, admin) whose sign-in was just
   * refused by the player app: the login modal tells them where their tools are.
   */
  staffNotice: number | null;
}

export const initialAuthState: AuthState = {
  isAuth: false,
  checked: false,
  user: null,
  balance: null,
  remembered: false,
  promocode: null,
  refId: null,
  loginIsPhone: false,
  authModal: { type: 'login', isOpen: false },
  restoreTarget: null,
  oneClick: null,
  staffNotice: null,
};

const signedOut = (state: AuthState) => {
  state.isAuth = false;
  state.user = null;
  state.balance = null;
  state.remembered = false;
};

/** The server's user: a different one than shown drops the balance shown (it was the other user's). */
const confirmedUser = (state: AuthState, user: User) => {
  if (state.user && state.user.id !== user.id) state.balance = null;
  state.isAuth = true;
  state.user = user;
  state.remembered = false;
};

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    openAuthModal(state, action: PayloadAction<AuthModalType>) {
      state.authModal = { type: action.payload, isOpen: true };
    },
    closeAuthModal(state) {
      state.authModal.isOpen = false;
      state.staffNotice = null;
    },
    /** A staff sign-in refused (the login modal opens on the notice), or the notice dismissed (null). */
    staffRefused(state, action: PayloadAction<number | null>) {
      state.staffNotice = action.payload;
      if (action.payload !== null) state.authModal = { type: 'login', isOpen: true };
    },
    setLoginIsPhone(state, action: PayloadAction<boolean>) {
      state.loginIsPhone = action.payload;
    },
    setPromocode(state, action: PayloadAction<{ promocode: string; refId: string | null }>) {
      state.promocode = action.payload.promocode;
      state.refId = action.payload.refId;
    },
    /** The partner link's code was sent (app/partnerPromo.ts): forgotten. */
    clearPromocode(state) {
      state.promocode = null;
      state.refId = null;
    },
    setRestoreTarget(state, action: PayloadAction<AuthState['restoreTarget']>) {
      state.restoreTarget = action.payload;
    },
    setOneClick(state, action: PayloadAction<AuthState['oneClick']>) {
      state.oneClick = action.payload;
    },
    signedIn(state, action: PayloadAction<User>) {
      confirmedUser(state, action.payload);
      state.checked = true;
      state.authModal.isOpen = false;
    },
    /** A reload of a signed-in page: the remembered user and balance show at once, unconfirmed. */
    restored(state, action: PayloadAction<RememberedSession>) {
      if (state.isAuth) return;
      const { id, login, firstName, lastName, role, balance } = action.payload;
      state.isAuth = true;
      state.user = { id, login, firstName, lastName, role };
      state.balance = balance;
      state.remembered = true;
    },
    /** Logout, a ban or a role other than 0: back to guest. */
    loggedOut(state) {
      signedOut(state);
      state.checked = true;
    },
  },
  extraReducers: (builder) => {
    builder
      .addMatcher(api.endpoints.check.matchFulfilled, (state, { payload }) => {
        state.checked = true;
        // Only players (role 0) may hold a session in the app (spec §4, §6).
        if (payload.role !== 0) {
          signedOut(state);
          return;
        }
        confirmedUser(state, payload);
      })
      .addMatcher(api.endpoints.check.matchRejected, (state, { error, payload }) => {
        if (error.name === 'ConditionError') return;
        state.checked = true;
        // 23: no session. A network blip keeps the state as it is.
        if (payload && payload.code > 0) signedOut(state);
      })
      .addMatcher(api.endpoints.balance.matchFulfilled, (state, { payload }) => {
        if (payload.isBanned) {
          signedOut(state);
          return;
        }
        state.balance = payload;
      })
      .addMatcher(api.endpoints.balance.matchRejected, (state, { payload }) => {
        if (payload && (payload.code === 23 || payload.code === 5)) signedOut(state);
      });
  },
});

export const {
  openAuthModal,
  closeAuthModal,
  setLoginIsPhone,
  setPromocode,
  clearPromocode,
  setRestoreTarget,
  setOneClick,
  signedIn,
  restored,
  loggedOut,
  staffRefused,
} = authSlice.actions;
