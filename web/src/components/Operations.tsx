import type { ReactNode } from 'react';
import { Money } from './Money';
import css from './Operations.module.css';

/** The message shown in place of an operation list (empty, failed to load). */
export function OpMessage({ children, testId, alert }: { children: ReactNode; testId?: string; alert?: boolean }) {
  return (
    <p className={css.empty} data-testid={testId} role={alert ? 'alert' : undefined}>
      {children}
    </p>
  );
}

export function OpList({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <ul className={css.ops} data-testid={testId}>
      {children}
    </ul>
  );
}

/**
 * One operation: a +/− badge, its description (`children`: a `<strong>` title and `<small>`
 * lines) and the signed amount, with `below` under the amount (a status).
 */
export function OpItem(props: {
  out: boolean;
  amount: number;
  currency: string;
  below?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const { out, amount, currency, below, testId, children } = props;
  return (
    <li className={css.op} data-testid={testId}>
      <span className={`${css.icon} ${out ? css.out : css.in}`} aria-hidden="true">
        {out ? '−' : '+'}
      </span>
      <span className={css.main}>{children}</span>
      <span className={css.end}>
        <span className={`${css.amount} ${out ? css.outText : css.inText}`}>
          <Money amount={amount} currency={currency} />
        </span>
        {below}
      </span>
    </li>
  );
}
