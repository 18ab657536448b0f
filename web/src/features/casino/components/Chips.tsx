import type { ReactNode } from 'react';
import css from './Casino.module.css';

export interface Chip {
  id: string;
  label: ReactNode;
  active: boolean;
  onSelect: () => void;
}

/** A horizontally scrolling row of filter chips (a single choice). */
export function Chips({ label, chips, testId }: { label: string; chips: Chip[]; testId?: string }) {
  return (
    <div className={css.chips} role="group" aria-label={label} data-testid={testId}>
      {chips.map((c) => (
        <button key={c.id} type="button" className={`${css.chip} ${c.active ? css.chipOn : ''}`} aria-pressed={c.active} onClick={c.onSelect}>
          {c.label}
        </button>
      ))}
    </div>
  );
}
