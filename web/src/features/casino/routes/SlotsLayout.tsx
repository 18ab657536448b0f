import { CasinoLayout } from '../components/CasinoLayout';

export default function SlotsLayout() {
  return <CasinoLayout casinoType="slots" />;
}
