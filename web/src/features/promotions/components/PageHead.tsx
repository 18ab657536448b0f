import { BackButton } from '../../../components/BackButton';
import css from '../Promotions.module.css';

export function PageHead({ title, fallback = '/profile' }: { title: string; fallback?: string }) {
  return (
    <div className={css.head}>
      <BackButton fallback={fallback} />
      <h1 className={css.title}>{title}</h1>
    </div>
  );
}
