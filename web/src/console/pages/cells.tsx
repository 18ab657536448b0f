import { formatTime } from '../logic';
import { Ltr } from '../ui';
import css from './pages.module.css';

/** A queue row's first cell: its id (left to right in Arabic too) over when it was made. */
export function IdAndTime({ id, at, lang }: { id: number; at: number; lang: string }) {
  return (
    <span className={css.stack}>
      <strong className={css.id}>
        <Ltr>#{id}</Ltr>
      </strong>
      <small className={css.muted}>{formatTime(at, lang)}</small>
    </span>
  );
}
