import { CasinoLayout } from '../components/CasinoLayout';

export default function LiveLayout() {
  return <CasinoLayout casinoType="casinolive" />;
}
