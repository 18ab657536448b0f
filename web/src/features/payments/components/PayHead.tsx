import { BackButton } from '../../../components/BackButton';
import css from './Payments.module.css';

export function PayHead({ title, lead, back = '/profile' }: { title: string; lead?: string; back?: string }) {
  return (
    <div className={css.head}>
      <BackButton fallback={back} />
      <h1 className={css.title}>{title}</h1>
      {lead ? <p className={css.lead}>{lead}</p> : null}
    </div>
  );
}
