import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { SpinnerOverlay } from '../../components/Spinner';
import { PREVIOUS_PATH_KEY } from '../../components/BackButton';
import { isRtl } from '../i18n';
import { deleteNotification } from '../notificationsSlice';
import { useAppStart } from '../startup';
import { useAppDispatch, useAppSelector } from '../store';
import { setSideMenu } from '../uiSlice';
import { BottomMenu } from './BottomMenu';
import { Header } from './Header';
import { useEdgeSwipe } from './useEdgeSwipe';
import css from './Shell.module.css';
import { settled } from '../chunkReload';

const AuthModal = lazy(() => settled(import('../../features/auth/components/AuthModal')));
const OneClickModal = lazy(() => settled(import('../../features/auth/components/OneClickModal')));
// Loaded with the first notice.
const Toasts = lazy(() => settled(import('../../components/Toasts')).then((m) => ({ default: m.Toasts })));
// Off the critical path: mounted shortly after start, or at once when opened.
const SideMenu = lazy(() => settled(import('./SideMenu')));
const RealityCheck = lazy(() => settled(import('../../features/rg/components/RealityCheck')));
// The jackpot win modal's poller (features/promotions): signed-in only, mounted with the side
// menu (after the first paint), so it never adds to /home's first load.
const JackpotWatcher = lazy(() => settled(import('../../features/promotions/jackpots/JackpotWatcher')));
export const SIDE_MENU_PRELOAD_MS = 1200;

export function AppShell() {
  useAppStart();
  const { i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const location = useLocation();
  const navigation = useNavigation();
  const sideOpen = useAppSelector((s) => s.ui.sideMenuOpened);
  const modalOpen = useAppSelector((s) => s.auth.authModal.isOpen);
  const oneClick = useAppSelector((s) => s.auth.oneClick);
  const isAuth = useAppSelector((s) => s.auth.isAuth);
  const toasts = useAppSelector((s) => s.notifications.items);
  const onDelete = useCallback((id: string) => dispatch(deleteNotification(id)), [dispatch]);

  const [sideMounted, setSideMounted] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSideMounted(true), SIDE_MENU_PRELOAD_MS);
    return () => clearTimeout(timer);
  }, []);

  useEdgeSwipe({
    rtl: isRtl(i18n.language),
    open: sideOpen,
    onOpen: () => dispatch(setSideMenu(true)),
    onClose: () => dispatch(setSideMenu(false)),
  });

  // Remember where the player was, for back buttons.
  useEffect(() => {
    return () => {
      try {
        sessionStorage.setItem(PREVIOUS_PATH_KEY, location.pathname);
      } catch {
        /* ignore */
      }
    };
  }, [location.pathname]);

  useEffect(() => {
    dispatch(setSideMenu(false));
  }, [location.pathname, dispatch]);

  return (
    <div className={css.app}>
      <a href="#main" className={css.skip}>
        {i18n.t('skipToContent')}
      </a>
      <Header />
      <main id="main" className={css.main} tabIndex={-1}>
        <Suspense fallback={<SpinnerOverlay />}>
          <Outlet />
        </Suspense>
        {navigation.state === 'loading' && <div className={css.progress} aria-hidden="true" />}
      </main>
      <BottomMenu />
      <Suspense fallback={null}>{(sideMounted || sideOpen) && <SideMenu />}</Suspense>
      <Suspense fallback={null}>{toasts.length > 0 && <Toasts items={toasts} onDelete={onDelete} />}</Suspense>
      <Suspense fallback={null}>
        {modalOpen && !isAuth && <AuthModal />}
        {oneClick && <OneClickModal />}
        {isAuth && <RealityCheck />}
        {isAuth && sideMounted && <JackpotWatcher />}
      </Suspense>
    </div>
  );
}
