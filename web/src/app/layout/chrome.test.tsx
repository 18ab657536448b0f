import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialAuthState } from '../authSlice';
import { i18n } from '../i18n';
import { makeStore } from '../store';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import { BottomMenu } from './BottomMenu';
import { Header } from './Header';
import SideMenu from './SideMenu';
import { useEdgeSwipe } from './useEdgeSwipe';

afterEach(() => {
  vi.unstubAllGlobals();
  void i18n.changeLanguage('en');
});

const signedIn = { auth: { ...initialAuthState, isAuth: true, checked: true, user: testUser, balance: testBalance } };

describe('Header', () => {
  it('offers login and registration to guests', () => {
    const { store } = renderApp(<Header />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(store.getState().auth.authModal).toEqual({ type: 'registration', isOpen: true });
  });
  it('shows the id and the balance linking to the profile when signed in', () => {
    renderApp(<Header />, { state: signedIn });
    expect(screen.getByTestId('header-id').textContent).toBe('7');
    expect(screen.getByTestId('header-balance').textContent).toBe('500.000 TND');
    expect(screen.getByTestId('header-account').getAttribute('href')).toBe('/profile');
  });
});

describe('SideMenu', () => {
  it('lists info pages by priority, and switching language calls SetLanguage', async () => {
    const fetchMock = mockApi({
      '/api/site/flatpages/list/': ok([
        { id: 1, idName: 'privacy', name: 'Privacy policy', priority: 10, text: '' },
        { id: 2, idName: 'terms', name: 'Terms', priority: 100, text: '' },
      ]),
      'POST /api/bs3/remote/SetLanguage': ok({ applied: 1 }),
    });
    const { store } = renderApp(<SideMenu />, {
      state: { ...signedIn, ui: { sideMenuOpened: true, downMenuOpened: false, isDark: true, busy: 0 } },
    });
    await waitFor(() => expect(screen.getAllByRole('link', { name: /Terms|Privacy/ })).toHaveLength(2));
    expect(screen.getAllByRole('link', { name: /Terms|Privacy/ }).map((a) => a.textContent?.trim())).toEqual([
      'Terms',
      'Privacy policy',
    ]);
    expect(screen.getByText('18+')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Français' })));
    await waitFor(() => expect(i18n.language).toBe('fr'));
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/bs3/remote/SetLanguage');
    expect(JSON.parse(String(call![1]!.body))).toEqual({ languageId: 'fr-fr' });
    expect(store.getState().auth.isAuth).toBe(true);
  });
});

describe('BottomMenu', () => {
  it('blocks protected sport entries for guests with "please authorise to bet"', async () => {
    mockApi({});
    const { store } = renderApp(<BottomMenu />, { path: '/home' });
    fireEvent.click(screen.getByRole('button', { name: 'Sport' }));
    fireEvent.click(screen.getByRole('button', { name: /GR8/ }));
    expect(store.getState().notifications.items.at(-1)).toMatchObject({ text: 'pleaseAuthoriseToBet', type: 'error' });
    expect(screen.getByRole('link', { name: 'Main' }).getAttribute('aria-current')).toBe('page');
  });
  it('keeps our sportsbook (open to guests) when both partner sportsbooks are banned', async () => {
    mockApi({ '/api/user/blocklist': ok(['GR8', 'digitain']) });
    const { store } = renderApp(<BottomMenu />, { path: '/home' });
    await waitFor(() => expect(screen.queryByRole('button', { name: /GR8/ })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Sport' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /GR8|Digitain/ })).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: /Sportsbook/ }));
    expect(store.getState().notifications.items).toHaveLength(0);
  });
});

function Swipe({ rtl, open, onOpen, onClose }: { rtl: boolean; open: boolean; onOpen: () => void; onClose: () => void }) {
  useEdgeSwipe({ rtl, open, onOpen, onClose });
  return null;
}

function touch(type: 'touchstart' | 'touchend', x: number) {
  const t = { clientX: x, clientY: 300 } as Touch;
  const e = new Event(type) as TouchEvent;
  Object.defineProperty(e, type === 'touchstart' ? 'touches' : 'changedTouches', { value: [t] });
  document.dispatchEvent(e);
}

describe('edge swipe', () => {
  it('opens from the left edge in ltr and from the right edge in rtl; closes over 100 px', () => {
    const onOpen = vi.fn();
    const onClose = vi.fn();
    const store = makeStore();
    const { rerender } = render(
      <Provider store={store}>
        <MemoryRouter>
          <Swipe rtl={false} open={false} onOpen={onOpen} onClose={onClose} />
        </MemoryRouter>
      </Provider>,
    );
    touch('touchstart', window.innerWidth - 5);
    touch('touchend', window.innerWidth - 200);
    expect(onOpen).not.toHaveBeenCalled();
    touch('touchstart', 5);
    touch('touchend', 200);
    expect(onOpen).toHaveBeenCalledTimes(1);
    rerender(
      <Provider store={store}>
        <MemoryRouter>
          <Swipe rtl open={false} onOpen={onOpen} onClose={onClose} />
        </MemoryRouter>
      </Provider>,
    );
    touch('touchstart', window.innerWidth - 5);
    touch('touchend', window.innerWidth - 200);
    expect(onOpen).toHaveBeenCalledTimes(2);
    rerender(
      <Provider store={store}>
        <MemoryRouter>
          <Swipe rtl={false} open onOpen={onOpen} onClose={onClose} />
        </MemoryRouter>
      </Provider>,
    );
    touch('touchstart', 300);
    touch('touchend', 220);
    expect(onClose).not.toHaveBeenCalled();
    touch('touchstart', 300);
    touch('touchend', 180);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
