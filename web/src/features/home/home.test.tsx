import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, renderApp } from '../../test/render';
import HomePage from './routes/HomePage';

afterEach(() => vi.unstubAllGlobals());

/** What the app's router hands to the home page (the casino's section, from another feature). */
const CasinoSection = () => <div data-testid="home-casino" />;

describe('home page', () => {
  it('mounts the casino part after the first paint, not with the page', async () => {
    mockApi({ '/api/site/slides': ok([]), '/api/casino/providers': ok([]), '/api/casino/game_list': ok([]) });
    Element.prototype.scrollTo = () => {};
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => setTimeout(() => cb(0), 16));
    renderApp(<HomePage casinoSection={CasinoSection} />);
    expect(screen.queryByTestId('home-casino')).toBeNull();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 100));
    });
    expect(await screen.findByTestId('home-casino')).toBeTruthy();
  });
});
