import {
  cloneElement,
  createElement,
  useId,
  type FormHTMLAttributes,
  type HTMLAttributes,
  type LiHTMLAttributes,
  type ReactElement,
  type ReactNode,
} from 'react';
import { Icon } from './Icon';
import css from './Page.module.css';

/*
 * The page primitives shared by the player app, the cashier desk and the console: a page column,
 * its header, cards, lists of rows, form rows, actions and the empty state. They hold no text of
 * their own (every word comes from the caller, already translated) and import no router, so the
 * desk and the console can use them as they are; a back button or a link is handed in by the caller.
 */

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ');

// The form row lives beside the text field built on it (Field.tsx): one look for every control.
export { FormRow, type FormControl } from './Field';

/** A page: its header, cards and lists in one column as wide as the screen. */
export function Page({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div {...rest} className={cx(css.page, className)} />;
}

/**
 * The page's title (its one `h1`), with the way back above it (`back`: a `BackButton`, given by
 * the caller), an `action` at the title's end and a `lead` line under it.
 */
export function PageHeader({ title, lead, back, action }: { title: ReactNode; lead?: ReactNode; back?: ReactNode; action?: ReactNode }) {
  const heading = <h1 className={css.title}>{title}</h1>;
  return (
    <div className={css.header}>
      {back}
      {action ? (
        <div className={css.headerRow}>
          {heading}
          <div className={css.headerAction}>{action}</div>
        </div>
      ) : (
        heading
      )}
      {lead ? <p className={css.lead}>{lead}</p> : null}
    </div>
  );
}

type CardOwn = {
  /** Its `h2`; a section (or form) with a title is named by it. */
  title?: ReactNode;
  /** The title's id (default: a generated one). */
  titleId?: string;
  /** A muted line under the title. */
  lead?: ReactNode;
  /** A card inside a card: darker and tighter. */
  inset?: boolean;
};
export type CardProps =
  | (CardOwn & { as?: 'section' | 'div' } & Omit<HTMLAttributes<HTMLElement>, 'title'>)
  | (CardOwn & { as: 'form' } & Omit<FormHTMLAttributes<HTMLFormElement>, 'title'>);

/** A panel of the page (a `section` unless `as` says `div` or `form`); its rows are spaced by its gap. */
export function Card(props: CardProps) {
  const { as = 'section', title, titleId, lead, inset, className, children, ...rest } = props;
  const autoId = useId();
  const headingId = titleId ?? autoId;
  const titled = title !== undefined && title !== null && title !== false;
  return createElement(
    as,
    {
      ...rest,
      className: cx(css.card, inset && css.inset, className),
      'aria-labelledby': rest['aria-labelledby'] ?? (titled && as !== 'div' ? headingId : undefined),
    },
    titled ? (
      <h2 id={headingId} className={css.cardTitle}>
        {title}
      </h2>
    ) : null,
    lead ? <p className={css.muted}>{lead}</p> : null,
    children,
  );
}

/** Secondary text: smaller, muted (a `p` unless `as` says otherwise). */
export function Muted({ as = 'p', className, ...rest }: { as?: 'p' | 'span' | 'small' | 'div' } & HTMLAttributes<HTMLElement>) {
  return createElement(as, { ...rest, className: cx(css.muted, className) });
}

/**
 * Rows in one bordered block with a line between two: a `ul` of `ListRow`s, or a `dl` of
 * `ValueRow`s (`as="dl"`). Inside a card it is darker and tighter.
 */
export function List({ as = 'ul', className, ...rest }: { as?: 'ul' | 'dl' } & HTMLAttributes<HTMLElement>) {
  return createElement(as, { ...rest, className: cx(css.list, className) });
}

/** An element the whole row becomes (a `Link`, an `a`, a `button`): it gets the row's look and content. */
type RowAction = ReactElement<{ className?: string; children?: ReactNode }>;

export type ListRowProps = Omit<LiHTMLAttributes<HTMLLIElement>, 'children'> & {
  /** Decorative (hidden from assistive technology), in a rounded square at the start. */
  icon?: ReactNode;
  /** The text: a line, or a `strong` with `small` lines under it. */
  children: ReactNode;
  /** At the row's end: a value, a status, a button. */
  trailing?: ReactNode;
  /** A chevron at the end (mirrored right to left): the row leads to another page. */
  chevron?: boolean;
  tone?: 'danger';
  /** The link or button the whole row is, given without children (`<Link to="…" />`). */
  action?: RowAction;
};

/** A row of a `List`: icon, text, trailing; the whole row a link or button when `action` is given. */
export function ListRow({ icon, children, trailing, chevron, tone, action, className, ...rest }: ListRowProps) {
  // Inside a link or a button only phrasing content is allowed: spans there, divs elsewhere.
  const Box = action ? 'span' : 'div';
  const end = (trailing !== undefined && trailing !== null && trailing !== false) || chevron;
  const body = (
    <>
      {icon ? (
        <span className={css.rowIcon} aria-hidden="true">
          {icon}
        </span>
      ) : null}
      <Box className={css.rowText}>{children}</Box>
      {end ? (
        <Box className={css.rowTrailing}>
          {trailing}
          {chevron ? <Icon name="chevron" size={18} className={css.chevron} /> : null}
        </Box>
      ) : null}
    </>
  );
  return (
    <li {...rest} className={cx(tone === 'danger' && css.danger, className) || undefined}>
      {action ? (
        cloneElement(action, { className: cx(css.rowBody, css.rowAction, action.props.className) }, body)
      ) : (
        <div className={css.rowBody}>{body}</div>
      )}
    </li>
  );
}

/** A label and its value (`children`), a row of a `<List as="dl">`. */
export function ValueRow({
  label,
  children,
  valueTestId,
  className,
  ...rest
}: Omit<HTMLAttributes<HTMLDivElement>, 'children'> & { label: ReactNode; children: ReactNode; valueTestId?: string }) {
  return (
    <div {...rest} className={cx(css.valueRow, className)}>
      <dt>{label}</dt>
      <dd data-testid={valueTestId}>{children}</dd>
    </div>
  );
}

/** Buttons side by side while they fit, one under the other when they do not. */
export function Actions({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div {...rest} className={cx(css.actions, className)} />;
}

export type Tone = 'neutral' | 'success' | 'danger' | 'attention';

/**
 * Nothing to show yet, or how a step ended: a badge (`icon`, decorative, coloured by `tone`), a
 * `title` (an `h2` unless `headingLevel` says otherwise), the text (`children`: `p`s, or more),
 * and `actions`. `live`: announced when it appears or changes.
 */
export function EmptyState({
  icon,
  tone = 'neutral',
  title,
  headingLevel = 2,
  actions,
  live,
  children,
  className,
  ...rest
}: Omit<HTMLAttributes<HTMLElement>, 'title'> & {
  icon?: ReactNode;
  tone?: Tone;
  title?: ReactNode;
  headingLevel?: 1 | 2 | 3;
  actions?: ReactNode;
  live?: boolean;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section {...rest} className={cx(css.empty, className)} aria-live={live ? 'polite' : rest['aria-live']}>
      {icon ? (
        <span className={cx(css.badge, css[`tone_${tone}`])} aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {title ? <Heading className={css.emptyTitle}>{title}</Heading> : null}
      {children}
      {actions ? <div className={cx(css.actions, css.emptyActions)}>{actions}</div> : null}
    </section>
  );
}
