import { BackButton } from '../../../components/BackButton';
import css from './Profile.module.css';

export function PageHead({ title, back = true }: { title: string; back?: boolean }) {
  return (
    <div className={css.head}>
      {back && <BackButton fallback="/profile" />}
      <h1 className={css.title}>{title}</h1>
    </div>
  );
}
