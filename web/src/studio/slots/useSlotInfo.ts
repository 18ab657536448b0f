import { useEffect, useState } from 'react';
import type { StudioApi } from '../api';
import type { SlotInfo } from './model';

let cached: { token: string; promise: Promise<SlotInfo> } | null = null;

/** The machine of this session, fetched once. */
export function loadSlotInfo(api: StudioApi): Promise<SlotInfo> {
  if (!cached || cached.token !== api.token) {
    const promise = api.slotInfo();
    cached = { token: api.token, promise };
    promise.catch(() => {
      cached = null;
    });
  }
  return cached.promise;
}

export function useSlotInfo(api: StudioApi, enabled = true): SlotInfo | null {
  const [info, setInfo] = useState<SlotInfo | null>(null);
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    loadSlotInfo(api).then(
      (i) => live && setInfo(i),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api, enabled]);
  return info;
}
