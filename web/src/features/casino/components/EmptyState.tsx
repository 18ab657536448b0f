import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../../components/Icon';
import css from './Casino.module.css';

export function EmptyState({ icon, title, text, children, testId }: { icon: IconName; title: string; text?: string; children?: ReactNode; testId?: string }) {
  return (
    <div className={css.empty} data-testid={testId}>
      <span className={css.emptyIcon}>
        <Icon name={icon} size={34} />
      </span>
      <h2>{title}</h2>
      {text && <p>{text}</p>}
      {children}
    </div>
  );
}
