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
  /**
   * The cause: at most one toast per key is shown; a repeat replaces the shown one (its
   * timer starts again). Defaults to the type, text and parameters.
   */
  key: string;
  /** The form whose submission raised it: that form's success removes its error toasts. */
  form?: string;
}

export type NewNotification = Pick<Notification, 'text'> & Partial<Omit<Notification, 'id' | 'text'>>;

/** Keep the stack short on small screens. */
export const MAX_NOTIFICATIONS = 4;
/**
 * How long a notice shows: the spec's 7000 ms (§3 `timeToCloseMs`, §9). Toasts sit over the
 * header, never over the page title (issue 18), and a tap or a swipe closes one sooner.
 */
export const TOAST_MS = 7000;

let sequence = 0;

export const causeKey = (n: Pick<Notification, 'type' | 'text' | 'params'>) =>
  `${n.type}|${JSON.stringify(n.text)}|${JSON.stringify(n.params ?? {})}`;

export const notificationsSlice = createSlice({
  name: 'notifications',
  initialState: { items: [] as Notification[] },
  reducers: {
    addNotification: {
      reducer(state, action: PayloadAction<Notification>) {
        const same = state.items.findIndex((n) => n.key === action.payload.key);
        if (same >= 0) {
          // The same cause again: one toast, refreshed (a new id restarts its timer).
          state.items[same] = action.payload;
          return;
        }
        state.items.push(action.payload);
        if (state.items.length > MAX_NOTIFICATIONS) state.items.shift();
      },
      prepare(n: NewNotification) {
        sequence += 1;
        const type = n.type ?? 'default';
        return {
          payload: {
            needClose: true,
            timeToCloseMs: TOAST_MS,
            ...n,
            type,
            key: n.key ?? causeKey({ type, text: n.text, ...(n.params ? { params: n.params } : {}) }),
            id: `${new Date().toISOString()}#${sequence}`,
          },
        };
      },
    },
    deleteNotification(state, action: PayloadAction<string>) {
      state.items = state.items.filter((n) => n.id !== action.payload);
    },
    /** A form succeeded: its error toasts are stale. */
    clearFormErrors(state, action: PayloadAction<string>) {
      state.items = state.items.filter((n) => !(n.form === action.payload && n.type === 'error'));
    },
  },
});

export const { addNotification, deleteNotification, clearFormErrors } = notificationsSlice.actions;
