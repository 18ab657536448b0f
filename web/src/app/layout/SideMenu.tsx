import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/api';
import { Icon } from '../../components/Icon';
import { Money } from '../../components/Money';
import { openAuthModal } from '../authSlice';
import { LANGUAGES, languageOf } from '../i18n';
import { changeLanguage, logout } from '../session';
import { useAppDispatch, useAppSelector } from '../store';
import { setSideMenu } from '../uiSlice';
import css from './Shell.module.css';

export const SOCIAL_LINKS = [
  { id: 'telegram', href: 'https://t.me/carthage_bet', icon: 'send' as const },
  { id: 'facebook', href: 'https://www.facebook.com/groups/carthage.bet', icon: 'group' as const },
];

/** The flat page whose place the /contacts page takes. */
const CONTACTS_PAGE = 'contacts';

export default function SideMenu() {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const open = useAppSelector((s) => s.ui.sideMenuOpened);
  const { isAuth, user, balance } = useAppSelector((s) => s.auth);
  const lang = languageOf(i18n.language) ?? LANGUAGES[0];
  // The "contacts" flat page is the Contacts link above: listed once.
  const pages = (api.useFlatPagesQuery(lang.id).data ?? []).filter((p) => p.idName !== CONTACTS_PAGE);
  const close = () => dispatch(setSideMenu(false));
  const panel = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && dispatch(setSideMenu(false));
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, dispatch]);

  return (
    <div className={`${css.sideLayer} ${open ? css.sideOpen : ''}`} aria-hidden={!open} inert={!open}>
      <div className={css.sideBackdrop} data-testid="side-backdrop" onClick={close} />
      <nav
        ref={panel}
        className={css.side}
        aria-label={t('menu')}
        data-testid="side-menu"
        data-open={open}
        tabIndex={-1}
      >
        <div className={css.sideHead}>
          <span className={css.sideTitle}>{t('menu')}</span>
          <button type="button" className={css.sideClose} aria-label={t('closeMenu')} onClick={close}>
            <Icon name="close" />
          </button>
        </div>

        {isAuth && user ? (
          <Link to="/profile" className={css.sideAccount} onClick={close}>
            <span className={css.avatar} aria-hidden="true">
              <Icon name="user" />
            </span>
            <span className={css.sideAccountText}>
              <span className={css.sideLogin}>{user.login}</span>
              <span className={css.muted}>
                {t('idLabel')} <bdi>{user.id}</bdi>
              </span>
            </span>
            <span className={css.sideBalance}>
              {balance ? <Money amount={balance.balance} currency={balance.currency} /> : null}
            </span>
          </Link>
        ) : (
          <div className={css.sideAuth}>
            <button
              type="button"
              className={css.headerBtnGhost}
              onClick={() => {
                close();
                dispatch(openAuthModal('login'));
              }}
            >
              {t('login')}
            </button>
            <button
              type="button"
              className={css.headerBtn}
              onClick={() => {
                close();
                dispatch(openAuthModal('registration'));
              }}
            >
              {t('register')}
            </button>
          </div>
        )}

        <ul className={css.sideList}>
          <li>
            <Link to="/promotions" onClick={close} className={css.sideItem}>
              <Icon name="gift" /> {t('promotions')}
            </Link>
          </li>
          <li>
            <Link to="/contacts" onClick={close} className={css.sideItem}>
              <Icon name="phone" /> {t('contacts')}
            </Link>
          </li>
          <li>
            <Link to="/contacts#support" onClick={close} className={css.sideItem}>
              <Icon name="chat" /> {t('writeToSupport')}
            </Link>
          </li>
        </ul>

        {pages.length > 0 && (
          <>
            <h2 className={css.sideSection}>{t('information')}</h2>
            <ul className={css.sideList} data-testid="info-pages">
              {pages.map((p) => (
                <li key={p.id}>
                  <Link to={`/flatPages/${p.idName}`} onClick={close} className={css.sideItem}>
                    <Icon name="doc" /> {p.name}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}

        <h2 className={css.sideSection} id="lang-title">
          {t('language')}
        </h2>
        <div className={css.langs} role="group" aria-labelledby="lang-title">
          {LANGUAGES.map((l) => (
            <button
              key={l.code}
              type="button"
              lang={l.code}
              className={css.langBtn}
              aria-pressed={l.code === lang.code}
              onClick={() => void changeLanguage(dispatch, l.code)}
            >
              {l.label}
            </button>
          ))}
        </div>

        <h2 className={css.sideSection}>{t('followUs')}</h2>
        <div className={css.socials}>
          {SOCIAL_LINKS.map((s) => (
            <a key={s.id} href={s.href} target="_blank" rel="noopener noreferrer" className={css.social}>
              <Icon name={s.icon} /> {t(`social.${s.id}`)}
            </a>
          ))}
        </div>

        {isAuth && (
          <button
            type="button"
            className={css.sideLogout}
            onClick={() => {
              close();
              void logout(dispatch);
            }}
          >
            <Icon name="logout" /> {t('logout')}
          </button>
        )}

        <div className={css.legal}>
          {/* A left-to-right island: "18+" keeps its order in Arabic too. */}
          <span className={css.age} aria-label={t('adultsOnly')} dir="ltr" data-testid="age-mark">
            18+
          </span>
          <p>{t('legalText')}</p>
        </div>
      </nav>
    </div>
  );
}
