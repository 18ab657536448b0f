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
 * How an operation touched the balance: `in` a credit, `out` a debit, `void` nothing at all (a
 * deposit that was rejected, failed or expired, a withdrawal cancelled): neither green nor red,
 * its amount struck through, so it is never read as money received or spent.
 */
export type OpTone = 'in' | 'out' | 'void';

/**
 * One operation: a badge for its tone, its description (`children`: a `<strong>` title and
 * `<small>` lines) and the amount, with `below` under the amount (a status).
 */
export function OpItem(props: {
  tone: OpTone;
  amount: number;
  currency: string;
  below?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const { tone, amount, currency, below, testId, children } = props;
  const badge = tone === 'void' ? '×' : tone === 'out' ? '−' : '+';
  return (
    <li className={`${css.op} ${tone === 'void' ? css.voided : ''}`} data-testid={testId} data-tone={tone}>
      <span className={`${css.icon} ${css[tone]}`} aria-hidden="true">
        {badge}
      </span>
      <span className={css.main}>{children}</span>
      <span className={css.end}>
        <span className={`${css.amount} ${css[`${tone}Text`]}`} data-testid="op-amount">
          {tone === 'void' ? (
            <s>
              <Money amount={amount} currency={currency} />
            </s>
          ) : (
            <Money amount={amount} currency={currency} />
          )}
        </span>
        {below}
      </span>
    </li>
  );
}
