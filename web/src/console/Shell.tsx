import { type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { NavLink } from 'react-router-dom';
import { Icon, type IconName } from '../components/Icon';
import { consoleApi, type StaffMe } from './api';
import { CONSOLE_LANGUAGES, languageOf, switchConsoleLanguage } from './i18n';
import { sectionsFor, type Section } from './logic';
import { Badge, Button } from './ui';
import css from './Shell.module.css';

const ICONS: Record<Section, IconName> = {
  players: 'group',
  withdrawals: 'send',
  adjustments: 'wallet',
  audit: 'history',
  // A line rising to an arrow: the trend glyph (named for the crash game in the player app).
  reports: 'crash',
};

/** The language picker of the top bar and the sign-in page (remembered; Arabic turns the page). */
export function LanguagePicker() {
  const { t, i18n } = useTranslation('console');
  return (
    <label className={css.langWrap}>
      <Icon name="globe" size={18} className={css.langIcon} />
      <span className={css.srOnly}>{t('shell.language')}</span>
      <select
        className={css.lang}
        value={languageOf(i18n.language) ?? 'en'}
        onChange={(e) => void switchConsoleLanguage(languageOf(e.target.value) ?? 'en')}
        data-testid="console-lang"
      >
        {CONSOLE_LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Signs the console session out; the cache of the person who leaves goes with it. */
export function useSignOut() {
  const dispatch = useDispatch();
  const [logout, state] = consoleApi.useLogoutMutation();
  const signOut = async () => {
    await logout();
    dispatch(consoleApi.util.resetApiState());
  };
  return [signOut, state.isLoading] as const;
}

export const fullName = (me: Pick<StaffMe, 'firstName' | 'lastName' | 'email' | 'actor'>) =>
  [me.firstName, me.lastName].filter(Boolean).join(' ') || me.email || me.actor;

/** The signed-in console: the top bar, the sections this role may open, the page. */
export function Shell({ me, children }: { me: StaffMe; children: ReactNode }) {
  const { t } = useTranslation('console');
  const [signOut, leaving] = useSignOut();
  const sections = sectionsFor(me.permissions);
  // What waits for a decision, beside its section: the pages' own queries (one cache), never
  // polled (a console left open must still reach its 30-minute idle end).
  const queue = consoleApi.useWithdrawalsQuery('review', { skip: !sections.includes('withdrawals') });
  const requests = consoleApi.useAdjustRequestsQuery('pending', { skip: !sections.includes('adjustments') });
  const waiting: Partial<Record<Section, number>> = {
    withdrawals: queue.currentData?.length,
    adjustments: requests.currentData?.length,
  };
  return (
    <div className={css.shell}>
      <a className={css.skip} href="#console-main">
        {t('shell.skip')}
      </a>
      <header className={css.topbar}>
        <span className={css.brand}>
          Carthage <span className={css.brandSub}>{t('shell.console')}</span>
        </span>
        <div className={css.who} data-testid="console-me">
          <span className={css.whoName}>{fullName(me)}</span>
          <Badge tone="accent" testId="console-role">
            {t(`role.${me.role}`, { defaultValue: me.role })}
          </Badge>
        </div>
        <LanguagePicker />
        <Button tone="ghost" small className={css.signOut} onClick={() => void signOut()} busy={leaving} aria-label={t('shell.signOut')} data-testid="console-signout">
          <Icon name="logout" size={18} />
          <span className={css.signOutText}>{t('shell.signOut')}</span>
        </Button>
      </header>
      <div className={css.body}>
        {sections.length > 0 ? (
          <nav className={css.nav} aria-label={t('shell.sections')} data-testid="console-nav">
            {sections.map((s) => (
              <NavLink key={s} to={`/${s}`} className={({ isActive }) => `${css.navLink} ${isActive ? css.navCurrent : ''}`} data-testid={`nav-${s}`}>
                <span className={css.navIcon}>
                  <Icon name={ICONS[s]} size={20} />
                  {waiting[s] ? (
                    <span className={css.count} data-testid={`nav-count-${s}`}>
                      <span aria-hidden="true">{waiting[s]! > 99 ? '99+' : waiting[s]}</span>
                    </span>
                  ) : null}
                </span>
                <span className={css.navText}>
                  {t(`nav.${s}`)}
                  {waiting[s] ? <span className={css.srOnly}>{`, ${t('nav.waiting', { n: waiting[s] })}`}</span> : null}
                </span>
              </NavLink>
            ))}
          </nav>
        ) : null}
        <main id="console-main" className={css.main} tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
