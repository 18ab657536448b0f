import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Spec §3 App state. */
export const uiSlice = createSlice({
  name: 'ui',
  initialState: { sideMenuOpened: false, downMenuOpened: false, isDark: true, busy: 0 },
  reducers: {
    setSideMenu(state, action: PayloadAction<boolean>) {
      state.sideMenuOpened = action.payload;
    },
    setDownMenu(state, action: PayloadAction<boolean>) {
      state.downMenuOpened = action.payload;
    },
  },
});

export const { setSideMenu, setDownMenu } = uiSlice.actions;
