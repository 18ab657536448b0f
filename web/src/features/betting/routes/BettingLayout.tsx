import { Outlet, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useLiveUpdates } from '../live';
import { BetSlip } from '../components/BetSlip';
import { LiveContext } from '../components/LiveContext';
import { useSlipReducer } from '../slipSlice';
import { useNamesFollowLanguage } from '../api';

/** /betting and /betting/event/:id: one live socket and one slip for both pages. */
export default function BettingLayout() {
  useTranslation('betting');
  const { id } = useParams();
  useSlipReducer();
  useNamesFollowLanguage();
  const up = useLiveUpdates(id);
  return (
    <LiveContext.Provider value={up}>
      <Outlet />
      <BetSlip />
    </LiveContext.Provider>
  );
}
