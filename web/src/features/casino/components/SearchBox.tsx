import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import css from './Casino.module.css';

export const SEARCH_MIN = 2;
export const SEARCH_DEBOUNCE_MS = 300;

/** A search field reporting its (debounced, trimmed) text. */
export function SearchBox({ onSearch }: { onSearch: (q: string) => void }) {
  const { t } = useTranslation('casino');
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <form className={css.search} role="search" onSubmit={(e) => e.preventDefault()}>
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" className={css.searchIcon}>
        <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="m16 16 4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        type="search"
        className={css.searchInput}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t('searchPlaceholder')}
        aria-label={t('search')}
        enterKeyHint="search"
        autoComplete="off"
      />
      {text && (
        <button type="button" className={css.searchClear} aria-label={t('clearSearch')} onClick={() => setText('')}>
          ×
        </button>
      )}
    </form>
  );
}
