import { createContext, useContext } from 'react';

/** Whether the live socket is up: while it is down the pages poll every 30 s. */
export const LiveContext = createContext(false);
export const POLL_MS = 30_000;
export const usePollWhenDown = () => (useContext(LiveContext) ? 0 : POLL_MS);
