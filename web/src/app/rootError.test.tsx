import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/render';
import { routerOptions, routes } from './router';
import { makeStore } from './store';

// The shell itself breaks (its header throws on every render): the root's error screen stands in,
// with a plain header and the navigation, never React Router's developer page.
vi.mock('./layout/Header', () => ({
  Header: () => {
    throw new Error('header broke');
  },
  Logo: () => null,
}));

afterEach(() => vi.unstubAllGlobals());

describe('root error screen', { timeout: 20_000 }, () => {
  it('keeps a header, the navigation and Reload when the shell itself fails', async () => {
    mockApi({});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const router = createMemoryRouter(routes, { ...routerOptions, initialEntries: ['/contacts'] });
    render(
      <Provider store={makeStore()}>
        <RouterProvider router={router} future={{ v7_startTransition: true }} />
      </Provider>,
    );
    expect(await screen.findByRole('heading', { name: 'Something went wrong' }, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByRole('banner').textContent).toContain('Carthage');
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.queryByText(/Unexpected Application Error/)).toBeNull();
  });
});
