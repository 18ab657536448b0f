import { useState, type ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorText, isApiError } from '../../../app/errors';
import { Icon } from '../../../components/Icon';
import { MobileButton } from '../../../components/MobileButton';
import css from './Partners.module.css';

export interface FrameTab {
  to: string;
  label: string;
  /** A pulsing dot before the label (live). */
  live?: boolean;
  testId: string;
}

/** What the frame area shows: the frame, a skeleton while its address is asked, or the failure. */
export type FrameState =
  | { kind: 'loading' }
  | { kind: 'frame'; src: string }
  /** `error`: the call's error (an ApiError is shown by its code, anything else generically). */
  | { kind: 'error'; error: unknown; retry: () => void }
  | { kind: 'unavailable' };

/**
 * A partner sportsbook page: the category tabs, an optional notice, and the frame filling what is
 * left between the header and the bottom menu (the page itself never scrolls: the frame does).
 */
export function SportFrame({
  title,
  tabs,
  notice,
  state,
  testId,
}: {
  title: string;
  tabs: FrameTab[];
  notice?: ReactNode;
  state: FrameState;
  testId: string;
}) {
  const { t } = useTranslation(['partners', 'common', 'errors']);
  const src = state.kind === 'frame' ? state.src : null;
  // A new address is a new frame (the previous one's history is not the app's): the skeleton
  // shows again until it has loaded.
  // Reset while rendering (not in an effect, which could run after a fast frame's load event).
  const [loaded, setLoaded] = useState<string | null>(null);
  const [shown, setShown] = useState(src);
  if (shown !== src) {
    setShown(src);
    setLoaded(null);
  }
  const busy = state.kind === 'loading' || (src !== null && loaded !== src);

  return (
    <section className={css.page} data-testid={testId} aria-labelledby={`${testId}-title`}>
      <h1 id={`${testId}-title`} className={css.srOnly}>
        {title}
      </h1>
      <nav className={css.bar} aria-label={t('tabs', { name: title })}>
        <ul className={css.tabs}>
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink to={tab.to} replace className={({ isActive }) => `${css.tab} ${isActive ? css.tabOn : ''}`} data-testid={tab.testId}>
                {tab.live && <span className={css.liveDot} aria-hidden="true" />}
                <span className={css.tabLabel}>{tab.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {notice}
      <div className={css.stage} aria-busy={busy}>
        {src !== null && (
          <iframe
            key={src}
            className={`${css.frame} ${loaded === src ? css.frameOn : ''}`}
            src={src}
            title={title}
            aria-label={title}
            allow="autoplay; fullscreen; clipboard-write"
            referrerPolicy="origin"
            onLoad={() => setLoaded(src)}
            data-testid="partner-frame"
          />
        )}
        {busy && <FrameSkeleton label={t('loadingFrame', { name: title })} />}
        {state.kind === 'error' && <FrameError error={state.error} retry={state.retry} />}
        {state.kind === 'unavailable' && (
          <div className={css.message} data-testid="frame-unavailable">
            <span className={css.messageIcon} aria-hidden="true">
              <Icon name="lock" size={28} />
            </span>
            <h2>{t('unavailable')}</h2>
            <p>{t('unavailableText')}</p>
            <MobileButton to="/betting">{t('toSportsbook')}</MobileButton>
          </div>
        )}
      </div>
    </section>
  );
}

/** Looks like a sportsbook's list while the frame loads (rows of events with odds). */
function FrameSkeleton({ label }: { label: string }) {
  return (
    <div className={css.skeleton} role="status" data-testid="frame-skeleton">
      <span className={css.srOnly}>{label}</span>
      <div className={css.skelChips} aria-hidden="true">
        {[56, 72, 64, 80, 60].map((w, i) => (
          <span key={i} className={css.skel} style={{ inlineSize: w }} />
        ))}
      </div>
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <div key={i} className={css.skelRow} aria-hidden="true">
          <div className={css.skelTeams}>
            <span className={css.skel} style={{ inlineSize: `${62 - (i % 3) * 9}%` }} />
            <span className={css.skel} style={{ inlineSize: `${48 + (i % 2) * 12}%` }} />
          </div>
          <div className={css.skelOdds}>
            <span className={css.skel} />
            <span className={css.skel} />
            <span className={css.skel} />
          </div>
        </div>
      ))}
    </div>
  );
}

function FrameError({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation(['partners', 'common', 'errors']);
  const { key, params } = errorText(isApiError(error) ? error : undefined);
  return (
    <div className={css.message} role="alert" data-testid="frame-error">
      <span className={`${css.messageIcon} ${css.messageBad}`} aria-hidden="true">
        !
      </span>
      <h2>{t('failed')}</h2>
      <p data-testid="frame-error-text">{t(key, params)}</p>
      <MobileButton onClick={retry} data-testid="frame-retry">
        {t('retry')}
      </MobileButton>
    </div>
  );
}
