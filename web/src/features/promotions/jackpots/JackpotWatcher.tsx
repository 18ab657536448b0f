import { useEffect, useState } from 'react';
import { useAppSelector } from '../../../app/store';
import { useNotify } from '../../../app/notify';
import { promotionsApi } from '../api';
import { JackpotWinModal } from './JackpotWinModal';

/** Spec §4/§9: the jackpot widget's data refreshes every 60 000 ms. */
export const JACKPOT_REFRESH_MS = 60_000;
const DISMISSED_KEY = 'carthage.jackpots.dismissed';

function readDismissed(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}
function writeDismissed(ids: Set<string>) {
  try {
    sessionStorage.setItem(DISMISSED_KEY, JSON.stringify([...ids]));
  } catch {
    /* private mode: kept in memory only */
  }
}

/**
 * Mounted by the app shell while a player is signed in (its chunk loads lazily, after the first
 * paint): asks `jackpot_data` at once and every 60 s, and shows the win modal for each drop not
 * yet shown, one at a time. Closing it calls `jackpot_is_shown`; when that fails the drop is put
 * in the manual-delete state (spec §4): hidden here, and the close is retried on the next refresh.
 */
export default function JackpotWatcher() {
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const notify = useNotify();
  const { data, fulfilledTimeStamp } = promotionsApi.useJackpotDataQuery(undefined, { skip: !isAuth, pollingInterval: JACKPOT_REFRESH_MS, refetchOnMountOrArgChange: true });
  const [markShown] = promotionsApi.useJackpotIsShownMutation();
  const [dismissed, setDismissed] = useState(readDismissed);
  // Closed in this tab (hidden at once, before the server answers).
  const [closed, setClosed] = useState<Set<string>>(() => new Set());
  const current = data?.wonJackpots.find((w) => !dismissed.has(w.id) && !closed.has(w.id));

  // Drops in the manual-delete state that the server still offers: closed again, quietly, once
  // per refresh (a failed close invalidates nothing, so this never loops).
  useEffect(() => {
    for (const w of data?.wonJackpots ?? []) if (dismissed.has(w.id)) void markShown(w.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fulfilledTimeStamp]);

  if (!isAuth || !current) return null;
  const onClose = async () => {
    const id = current.id;
    setClosed((c) => new Set(c).add(id));
    const res = await markShown(id);
    if ('error' in res && res.error) {
      const next = new Set(dismissed).add(id);
      writeDismissed(next);
      setDismissed(next);
      notify.errorKey('promotions:jackpots.closeFailed');
    }
  };
  return <JackpotWinModal key={current.id} win={current} onClose={() => void onClose()} />;
}
