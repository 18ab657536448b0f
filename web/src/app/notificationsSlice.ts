import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type NotificationType = 'default' | 'success' | 'error';

/** Spec §3 Notification; `text` is an i18n key (or a list of keys, first found wins). */
export interface Notification {
  id: string;
  text: string | string[];
  params?: Record<string, string>;
  type: NotificationType;
  needClose: boolean;
  timeToCloseMs: number;
}

export type NewNotification = Pick<Notification, 'text'> & Partial<Omit<Notification, 'id' | 'text'>>;

let sequence = 0;

export const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: { items: [] as Notification[] },
  reducers: {
    addNotification: {
      reducer(state, action: PayloadAction<Notification>) {
        state.items.push(action.payload);
        // Keep the stack short on small screens.
        if (state.items.length > 4) state.items.shift();
      },
      prepare(n: NewNotification) {
        sequence += 1;
        return {
          payload: {
            type: 'default' as NotificationType,
            needClose: true,
            timeToCloseMs: 7000,
            ...n,
            id: `${new Date().toISOString()}#${sequence}`,
          },
        };
      },
    },
    deleteNotification(state, action: PayloadAction<string>) {
      state.items = state.items.filter((n) => n.id !== action.payload);
    },
  },
});

export const { addNotification, deleteNotification } = notificationsSlice.actions;
