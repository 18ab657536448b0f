import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import css from './ui.module.css';

export type ButtonColor = 'primary' | 'secondary' | 'ghost' | 'danger';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'color'> & {
  color?: ButtonColor;
  /** Border radius in px (default from the theme). */
  radius?: number;
  /** Renders a link to this path instead of a button. */
  to?: string;
  block?: boolean;
  children: ReactNode;
};

export function MobileButton({ color = 'primary', radius, to, block, disabled, className, children, style, ...rest }: Props) {
  const classes = [css.btn, css[`btn_${color}`], block ? css.btnBlock : '', className ?? ''].join(' ');
  const s = radius !== undefined ? { ...style, borderRadius: radius } : style;
  if (to !== undefined && !disabled) {
    return (
      <Link to={to} className={classes} style={s}>
        {children}
      </Link>
    );
  }
  return (
    <button type="button" {...rest} disabled={disabled} className={classes} style={s}>
      {children}
    </button>
  );
}
