import { TopUpBlock } from './TopUpBlock';
import { WithdrawBanner } from './WithdrawBanner';

/** The payments part of /home (given to the home page by the app's router). */
export default function HomePayments() {
  return (
    <>
      <TopUpBlock />
      <WithdrawBanner />
    </>
  );
}
