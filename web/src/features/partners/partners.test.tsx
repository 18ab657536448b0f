import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initialAuthState, loggedOut, signedIn } from '../../app/authSlice';
import { mockApi, ok, renderApp, testBalance, testUser } from '../../test/render';
import en from '../../locales/en/partners.json';
import fr from '../../locales/fr/partners.json';
import ar from '../../locales/ar/partners.json';
import PartnersRoutes from './routes/PartnersRoutes';

beforeAll(() => {
  i18n.addResourceBundle('en', 'partners', en);
});
afterEach(async () => {
  await i18n.changeLanguage('en');
});

const guest = { auth: { ...initialAuthState, checked: true } };
const player = { auth: { ...initialAuthState, checked: true, isAuth: true, user: testUser, balance: testBalance } };

function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname}</output>;
}
const app = (
  <>
    {/* As the app's router holds them (app/router.tsx). */}
    <Routes>
      <Route path="/digsport/*" element={<PartnersRoutes />} />
      <Route path="/betting/gr/*" element={<PartnersRoutes />} />
    </Routes>
    <Where />
  </>
);

const frame = () => screen.findByTestId('partner-frame') as Promise<HTMLIFrameElement>;
const calls = (fetchMock: ReturnType<typeof mockApi>, prefix: string) =>
  fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith(prefix));

describe('Digitain frame', () => {
  it('a guest gets the placeholder token and the configured base, without asking the server', async () => {
    const fetchMock = mockApi({});
    renderApp(app, { path: '/digsport/live', state: guest });
    const f = await frame();
    expect(f.getAttribute('src')).toBe('/partners/digitain/en/Live/1?token=anonymous');
    expect(f.title).toBe('Digitain sportsbook');
    expect(calls(fetchMock, '/digitain')).toEqual([]);
    // The skeleton covers the frame until it has loaded.
    expect(screen.getByTestId('frame-skeleton')).toBeTruthy();
    fireEvent.load(f);
    expect(screen.queryByTestId('frame-skeleton')).toBeNull();
  });

  it('waits for the auth check before choosing guest or player', () => {
    const fetchMock = mockApi({});
    renderApp(app, { path: '/digsport/live', state: { auth: initialAuthState } });
    expect(screen.getByTestId('frame-skeleton')).toBeTruthy();
    expect(screen.queryByTestId('partner-frame')).toBeNull();
    expect(calls(fetchMock, '/digitain')).toEqual([]);
  });

  it("a player's frame carries the server's token and base; a query in the path is joined with &", async () => {
    const fetchMock = mockApi({ '/digitain/front/token': ok({ token: 'tok-7', url: 'https://dg.example/sport/' }) });
    renderApp(app, { path: '/digsport/mybets', state: player });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://dg.example/sport/en/?popup=MyBets&token=tok-7'));
    expect(calls(fetchMock, '/digitain/front/token')).toHaveLength(1);
  });

  it('opens one event, and sends an unknown category to the home page', async () => {
    mockApi({ '/digitain/front/token': ok({ token: 't', url: 'https://dg.example' }) });
    const { unmount } = renderApp(app, { path: '/digsport/event/4711', state: player });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://dg.example/en/events/4711?token=t'));
    unmount();
    const again = renderApp(app, { path: '/digsport/poker', state: guest });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/digsport'));
    again.unmount();
    renderApp(app, { path: '/digsport/live/1/2', state: guest });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/digsport'));
    expect((await frame()).getAttribute('src')).toBe('/partners/digitain/en/?token=anonymous');
  });

  it('uses the frame language of the app language', async () => {
    await i18n.changeLanguage('ar');
    mockApi({});
    renderApp(app, { path: '/digsport/results', state: guest });
    expect((await frame()).getAttribute('src')).toBe('/partners/digitain/ar/Results?token=anonymous');
  });

  it('shows a failed call by its code and tries again', async () => {
    let n = 0;
    const fetchMock = mockApi({
      '/digitain/front/token': () =>
        ++n === 1 ? { status: 5, result: null, error_message: 'banned' } : ok({ token: 'tok-2', url: 'https://dg.example' }),
    });
    renderApp(app, { path: '/digsport/line', state: player });
    expect((await screen.findByTestId('frame-error-text')).textContent).toBe('The user is banned.');
    expect(screen.getByText('The sportsbook could not be opened')).toBeTruthy();
    fireEvent.click(screen.getByTestId('frame-retry'));
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://dg.example/en/SportEvent?token=tok-2'));
    expect(screen.queryByTestId('frame-error')).toBeNull();
    expect(calls(fetchMock, '/digitain/front/token')).toHaveLength(2);
  });

  it('refuses a frame base that is not http(s)', async () => {
    mockApi({ '/digitain/front/token': ok({ token: 't', url: 'javascript:alert(1)' }) });
    renderApp(app, { path: '/digsport/live', state: player });
    expect(await screen.findByTestId('frame-error')).toBeTruthy();
    expect(screen.queryByTestId('partner-frame')).toBeNull();
  });

  it('follows a sign-out (placeholder) and a sign-in (a new token, the frame reloads)', async () => {
    let n = 0;
    const fetchMock = mockApi({ '/digitain/front/token': () => ok({ token: `tok-${++n}`, url: 'https://dg.example' }) });
    const { store } = renderApp(app, { path: '/digsport/live', state: player });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://dg.example/en/Live/1?token=tok-1'));
    act(() => {
      store.dispatch(loggedOut());
    });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('/partners/digitain/en/Live/1?token=anonymous'));
    act(() => {
      store.dispatch(signedIn(testUser as never));
    });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://dg.example/en/Live/1?token=tok-2'));
    expect(calls(fetchMock, '/digitain/front/token')).toHaveLength(2);
  });

  it('has tabs for live, pre-match, results and my bets that change the route', async () => {
    mockApi({});
    renderApp(app, { path: '/digsport/live', state: guest });
    expect(screen.getByTestId('digitain-tab-live').getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByTestId('digitain-tab-results'));
    expect(screen.getByTestId('where').textContent).toBe('/digsport/results');
    expect((await frame()).getAttribute('src')).toBe('/partners/digitain/en/Results?token=anonymous');
    expect(screen.getByTestId('digitain-tab-results').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('digitain-tab-line').textContent).toBe('Pre-match');
    expect(screen.getByTestId('digitain-tab-mybets').getAttribute('href')).toBe('/digsport/mybets');
  });

  it('covers each new frame with the skeleton until it has loaded, also back to one seen before', async () => {
    mockApi({});
    renderApp(app, { path: '/digsport/live', state: guest });
    fireEvent.load(await frame());
    expect(screen.queryByTestId('frame-skeleton')).toBeNull();
    fireEvent.click(screen.getByTestId('digitain-tab-line'));
    expect(screen.getByTestId('frame-skeleton')).toBeTruthy();
    fireEvent.click(screen.getByTestId('digitain-tab-live'));
    expect(screen.getByTestId('frame-skeleton')).toBeTruthy();
    fireEvent.load(await frame());
    expect(screen.queryByTestId('frame-skeleton')).toBeNull();
  });

  it('is not offered when Digitain is banned for the player', async () => {
    mockApi({ '/api/user/blocklist': ok(['Digitain']), '/digitain/front/token': ok({ token: 't', url: 'https://dg.example' }) });
    renderApp(app, { path: '/digsport/live', state: player });
    expect(await screen.findByTestId('frame-unavailable')).toBeTruthy();
    expect(screen.queryByTestId('partner-frame')).toBeNull();
  });
});

describe('GR8 frame', () => {
  it('a guest gets the frame, a notice to log in, and the login opens the auth modal', async () => {
    const fetchMock = mockApi({ '/gr8/frame': ok({ frame: 'https://gr8.example/en?demo=1' }) });
    const { store } = renderApp(app, { path: '/betting/gr/live', state: guest });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://gr8.example/en/all-live?demo=1'));
    expect(calls(fetchMock, '/gr8/frame')).toEqual(['/gr8/frame?lang=en']);
    expect(calls(fetchMock, '/gr8/game_link')).toEqual([]);
    expect(screen.getByTestId('gr8-guest-notice').textContent).toContain('Log in to place bets');
    fireEvent.click(screen.getByTestId('gr8-login'));
    expect(store.getState().auth.authModal).toEqual({ type: 'login', isOpen: true });
  });

  it("a player's link gets the deep link after its language segment, the jwt kept", async () => {
    const fetchMock = mockApi({ '/gr8/game_link': ok({ game_link: 'https://gr8.example/en/?jwt=eyJ.x.y' }) });
    renderApp(app, { path: '/betting/gr/mybets', state: player });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://gr8.example/en/my-bets/open?jwt=eyJ.x.y'));
    expect(calls(fetchMock, '/gr8/game_link')).toEqual(['/gr8/game_link?lang=en']);
    expect(calls(fetchMock, '/gr8/frame')).toEqual([]);
    expect(screen.queryByTestId('gr8-guest-notice')).toBeNull();
  });

  it('changes tabs without asking again: uefa opens the play-offs prematch page', async () => {
    const fetchMock = mockApi({ '/gr8/game_link': ok({ game_link: 'https://gr8.example/ar?jwt=j' }) });
    await i18n.changeLanguage('ar');
    renderApp(app, { path: '/betting/gr/live', state: player });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://gr8.example/ar/all-live?jwt=j'));
    fireEvent.click(screen.getByTestId('gr8-tab-uefa'));
    await waitFor(async () =>
      expect((await frame()).getAttribute('src')).toBe('https://gr8.example/ar/football/uefa-champions-league/play-offs?jwt=j'),
    );
    expect(calls(fetchMock, '/gr8/game_link')).toEqual(['/gr8/game_link?lang=ar']);
  });

  it('opens the link itself on /betting/gr and sends an unknown category there', async () => {
    mockApi({ '/gr8/frame': ok({ frame: 'https://gr8.example/en?demo=1' }) });
    renderApp(app, { path: '/betting/gr/tennis', state: guest });
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/betting/gr'));
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://gr8.example/en?demo=1'));
  });

  it('a network failure shows its message and a retry', async () => {
    let n = 0;
    mockApi({ '/gr8/game_link': () => (++n === 1 ? { nope: true } : ok({ game_link: 'https://gr8.example/en?jwt=2' })) });
    renderApp(app, { path: '/betting/gr/live', state: player });
    expect((await screen.findByTestId('frame-error-text')).textContent).toBe('No connection to the server. Check your network.');
    fireEvent.click(screen.getByTestId('frame-retry'));
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://gr8.example/en/all-live?jwt=2'));
  });

  it('switches from the guest frame to the player link on sign-in', async () => {
    const fetchMock = mockApi({
      '/gr8/frame': ok({ frame: 'https://gr8.example/en?demo=1' }),
      '/gr8/game_link': ok({ game_link: 'https://gr8.example/en?jwt=p' }),
    });
    const { store } = renderApp(app, { path: '/betting/gr/live', state: guest });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://gr8.example/en/all-live?demo=1'));
    act(() => {
      store.dispatch(signedIn(testUser as never));
    });
    await waitFor(async () => expect((await frame()).getAttribute('src')).toBe('https://gr8.example/en/all-live?jwt=p'));
    expect(screen.queryByTestId('gr8-guest-notice')).toBeNull();
    expect(calls(fetchMock, '/gr8/game_link')).toHaveLength(1);
  });
});

/** Every key path, plural suffixes folded. */
function keys(o: unknown, prefix = ''): string[] {
  if (typeof o !== 'object' || o === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')];
  return [...new Set(Object.entries(o).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k)))].sort();
}

describe('partners texts', () => {
  it('French and Arabic have every English key, and no other', () => {
    expect(keys(fr)).toEqual(keys(en));
    expect(keys(ar)).toEqual(keys(en));
  });
});
