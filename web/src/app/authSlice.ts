import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { api } from '../api/api';
import type { Balance, User } from '../api/types';

export type AuthModalType = 'login' | 'registration' | 'restore1' | 'restore2';

export interface AuthState {
  isAuth: boolean;
  /** True once the first auth check answered (either way). */
  checked: boolean;
  user: User | null;
  balance: Balance | null;
  promocode: string | null;
  refId: string | null;
  loginIsPhone: boolean;
  authModal: { type: AuthModalType; isOpen: boolean };
  /** Phone (216XXXXXXXX) or e-mail whose recovery code was sent, for restore2. */
  restoreTarget: { channel: 'phone' | 'email'; value: string } | null;
  /** Generated credentials of a one-click registration, shown once. */
  oneClick: { email: string; password: string } | null;
}

export const initialAuthState: AuthState = {
  isAuth: false,
  checked: false,
  user: null,
  balance: null,
  promocode: null,
  refId: null,
  loginIsPhone: false,
  authModal: { type: 'login', isOpen: false },
  restoreTarget: null,
  oneClick: null,
};

const signedOut = (state: AuthState) => {
  state.isAuth = false;
  state.user = null;
  state.balance = null;
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
    },
    setLoginIsPhone(state, action: PayloadAction<boolean>) {
      state.loginIsPhone = action.payload;
    },
    setPromocode(state, action: PayloadAction<{ promocode: string; refId: string | null }>) {
      state.promocode = action.payload.promocode;
      state.refId = action.payload.refId;
    },
    setRestoreTarget(state, action: PayloadAction<AuthState['restoreTarget']>) {
      state.restoreTarget = action.payload;
    },
    setOneClick(state, action: PayloadAction<AuthState['oneClick']>) {
      state.oneClick = action.payload;
    },
    signedIn(state, action: PayloadAction<User>) {
      state.isAuth = true;
      state.checked = true;
      state.user = action.payload;
      state.authModal.isOpen = false;
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
        state.isAuth = true;
        state.user = payload;
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
  setRestoreTarget,
  setOneClick,
  signedIn,
  loggedOut,
} = authSlice.actions;
