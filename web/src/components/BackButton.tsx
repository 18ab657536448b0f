import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import css from './ui.module.css';

export const PREVIOUS_PATH_KEY = 'carthage.prevPath';

/** Goes to the stored previous path, else to `fallback`, else back in history. */
export function BackButton({ fallback }: { fallback?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as { prevPath?: string } | null;
  const onClick = () => {
    let stored: string | null = state?.prevPath ?? null;
    if (!stored) {
      try {
        stored = sessionStorage.getItem(PREVIOUS_PATH_KEY);
      } catch {
        stored = null;
      }
    }
    if (stored && stored !== location.pathname) void navigate(stored);
    else if (fallback) void navigate(fallback);
    else void navigate(-1);
  };
  return (
    <button type="button" className={css.back} onClick={onClick}>
      <span className={css.flip} aria-hidden="true">
        ←
      </span>
      {t('back')}
    </button>
  );
}
