import { useState } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/api';
import { Icon, type IconName } from '../../components/Icon';
import { addNotification } from '../notificationsSlice';
import { useAppDispatch, useAppSelector } from '../store';
import { setSideMenu } from '../uiSlice';
import css from './Shell.module.css';

interface SubEntry {
  id: string;
  label: string;
  to: string;
  needAuth: boolean;
}

const SPORT_ENTRIES: SubEntry[] = [
  // Our own sportsbook: open to guests (they sign in to place a bet).
  { id: 'sportsbook', label: '', to: '/betting', needAuth: false },
  { id: 'gr8', label: 'GR8', to: '/betting/gr', needAuth: true },
  { id: 'digitain', label: 'Digitain', to: '/digsport', needAuth: true },
];

const SLOTS_HINT = { prevPath: '/slots/lobby' };

export function BottomMenu() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const banned = api.useBlocklistQuery().data ?? [];
  const [sportOpen, setSportOpen] = useState(false);
  const sport = SPORT_ENTRIES.filter((e) => !banned.includes(e.id));

  const go = (e: SubEntry) => {
    setSportOpen(false);
    if (e.needAuth && !isAuth) {
      dispatch(addNotification({ text: 'pleaseAuthoriseToBet', type: 'error' }));
      return;
    }
    void navigate(e.to);
  };

  const item = (to: string, icon: IconName, label: string, state?: object, testId?: string) => (
    <li>
      <NavLink to={to} state={state} data-testid={testId} className={({ isActive }) => `${css.bottomItem} ${isActive ? css.bottomActive : ''}`}>
        <Icon name={icon} />
        <span>{label}</span>
      </NavLink>
    </li>
  );

  return (
    <nav className={css.bottom} aria-label={t('mainNavigation')} data-testid="bottom-menu">
      {sportOpen && sport.length > 0 && (
        <>
          <div className={css.subBackdrop} onClick={() => setSportOpen(false)} />
          <ul className={css.subMenu} data-testid="sport-menu">
            {sport.map((e) => (
              <li key={e.id}>
                <button type="button" className={css.subItem} onClick={() => go(e)}>
                  <Icon name="sport" size={18} /> {e.label || t('nav.sportsbook')}
                  {e.id === 'gr8' && <span className={css.newBadge}>{t('new')}</span>}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <ul className={css.bottomList}>
        {item('/home', 'home', t('nav.main'), undefined, 'nav-home')}
        {sport.length > 0 && (
          <li>
            <button
              type="button"
              className={`${css.bottomItem} ${sportOpen ? css.bottomActive : ''}`}
              aria-expanded={sportOpen}
              data-testid="nav-sport"
              onClick={() => setSportOpen((o) => !o)}
            >
              <Icon name="sport" />
              <span>{t('nav.sport')}</span>
            </button>
          </li>
        )}
        {item('/slots/lobby', 'slots', t('nav.slots'), SLOTS_HINT)}
        {item('/casinolive/main', 'casino', t('nav.casino'), SLOTS_HINT)}
        <li>
          <button type="button" className={css.bottomItem} onClick={() => dispatch(setSideMenu(true))}>
            <Icon name="menu" />
            <span>{t('nav.menu')}</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
