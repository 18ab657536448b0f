import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackButton, PREVIOUS_PATH_KEY } from './BackButton';
import { formatDay, parseDay } from './dates';
import { DatePicker } from './DatePicker';
import { LazyImage } from './LazyImage';
import { MobileButton } from './MobileButton';
import { formatMoney } from './money';
import { Paginator } from './Paginator';
import { PasswordInput } from './PasswordInput';
import { COUNTRIES, PhoneInput, type Country } from './PhoneInput';
import { MobileModal, PopupModal } from './PopupModal';
import { SpinnerOverlay } from './Spinner';
import { Toasts, type ToastItem } from './Toasts';

afterEach(() => {
  vi.useRealTimers();
  sessionStorage.clear();
});

const toast = (over: Partial<ToastItem> = {}): ToastItem => ({
  id: 't1',
  text: 'successAuth',
  type: 'success',
  needClose: true,
  timeToCloseMs: 7000,
  ...over,
});

describe('Toasts', () => {
  it('shows the translated text and closes itself after 7000 ms, then is removed', () => {
    vi.useFakeTimers();
    const onDelete = vi.fn();
    render(<Toasts items={[toast()]} onDelete={onDelete} />);
    expect(screen.getByText('You are signed in. Good luck!')).toBeTruthy();
    act(() => vi.advanceTimersByTime(6999));
    expect(onDelete).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    act(() => vi.advanceTimersByTime(100));
    expect(onDelete).toHaveBeenCalledWith('t1');
  });

  it('shows the newest notice alone; the older one shows after it (over the header, never over the page title)', () => {
    vi.useFakeTimers();
    const items = [toast({ id: 'old', text: 'logoutSuccess' }), toast({ id: 'new', text: 'successAuth' })];
    const { rerender } = render(<Toasts items={items} onDelete={() => {}} />);
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    expect(screen.getByTestId('toast').textContent).toContain('You are signed in. Good luck!');
    rerender(<Toasts items={items.slice(0, 1)} onDelete={() => {}} />);
    expect(screen.getByTestId('toast').textContent).toContain('You are signed out.');
  });

  it('closes at a tap on it, not at a drag that goes back', () => {
    vi.useFakeTimers();
    const onDelete = vi.fn();
    render(<Toasts items={[toast({ needClose: false })]} onDelete={onDelete} />);
    const el = screen.getByTestId('toast');
    fireEvent.pointerDown(el, { clientX: 10 });
    fireEvent.pointerMove(el, { clientX: 60 });
    fireEvent.pointerMove(el, { clientX: 12 });
    fireEvent.pointerUp(el, { clientX: 12 });
    act(() => vi.advanceTimersByTime(500));
    expect(onDelete).not.toHaveBeenCalled();
    fireEvent.pointerDown(el, { clientX: 10 });
    fireEvent.pointerUp(el, { clientX: 12 });
    act(() => vi.advanceTimersByTime(150));
    expect(onDelete).toHaveBeenCalledWith('t1');
  });

  it('falls back through error keys to "Request execution failed."', () => {
    render(<Toasts items={[toast({ type: 'error', text: ['errors:99999', 'errors:default'] })]} onDelete={() => {}} />);
    expect(screen.getByRole('alert').textContent).toContain('Request execution failed.');
  });

  it('is dismissed by a swipe over 120 px but not by a shorter one', () => {
    vi.useFakeTimers();
    const onDelete = vi.fn();
    render(<Toasts items={[toast({ needClose: false })]} onDelete={onDelete} />);
    const el = screen.getByTestId('toast');
    fireEvent.pointerDown(el, { clientX: 10 });
    fireEvent.pointerMove(el, { clientX: 110 });
    fireEvent.pointerUp(el, { clientX: 110 });
    act(() => vi.advanceTimersByTime(500));
    expect(onDelete).not.toHaveBeenCalled();
    fireEvent.pointerDown(el, { clientX: 10 });
    fireEvent.pointerMove(el, { clientX: 140 });
    fireEvent.pointerUp(el, { clientX: 140 });
    act(() => vi.advanceTimersByTime(100));
    expect(onDelete).toHaveBeenCalledWith('t1');
  });
});

describe('PasswordInput', () => {
  it('toggles between hidden and shown', () => {
    render(<PasswordInput label="Password" value="secret" onChange={() => {}} />);
    const input = screen.getByLabelText('Password') as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input.type).toBe('password');
  });
});

describe('PhoneInput', () => {
  it('keeps digits only, up to the country length', () => {
    const onChange = vi.fn();
    render(<PhoneInput label="Phone" value="" onChange={onChange} country={COUNTRIES[0]!} />);
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: 'a1-2 34567899' } });
    expect(onChange).toHaveBeenCalledWith('12345678');
  });

  it('opens the country list on click only with more than one country, and closes it on mouse leave', () => {
    const { rerender } = render(<PhoneInput label="Phone" value="" onChange={() => {}} country={COUNTRIES[0]!} />);
    fireEvent.click(screen.getByTestId('country-toggle'));
    expect(screen.queryByRole('listbox')).toBeNull();
    const two: Country[] = [COUNTRIES[0]!, { iso: 'FR', code: '+33', length: 9 }];
    rerender(<PhoneInput label="Phone" value="" onChange={() => {}} country={two[0]!} countries={two} />);
    fireEvent.click(screen.getByTestId('country-toggle'));
    expect(screen.getByRole('listbox')).toBeTruthy();
    fireEvent.mouseLeave(screen.getByTestId('country-toggle').parentElement!);
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});

describe('Paginator', () => {
  it('moves between pages and disables the ends', () => {
    const onChange = vi.fn();
    render(<Paginator page={1} pages={3} onChange={onChange} />);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onChange).toHaveBeenCalledWith(2);
  });
  it('renders nothing with a single page', () => {
    const { container } = render(<Paginator page={1} pages={null} hasNext={false} onChange={() => {}} />);
    expect(container.innerHTML).toBe('');
  });
});

describe('dates and DatePicker', () => {
  it('formats and parses dd-MM-yyyy', () => {
    expect(formatDay(new Date(2026, 0, 5))).toBe('05-01-2026');
    expect(parseDay('31-12-2025')?.getMonth()).toBe(11);
    expect(parseDay('31-02-2025')).toBeNull();
    expect(parseDay('2025-12-31')).toBeNull();
  });
  it('reports typed dates', () => {
    const onChange = vi.fn();
    render(<DatePicker label="From" value={new Date(2026, 0, 5)} onChange={onChange} />);
    const input = screen.getByLabelText('From') as HTMLInputElement;
    expect(input.value).toBe('05-01-2026');
    fireEvent.change(input, { target: { value: '07-02-2026' } });
    expect(formatDay(onChange.mock.calls[0]![0] as Date)).toBe('07-02-2026');
  });
});

describe('PopupModal and MobileModal', () => {
  it('stacks layers from 100, +2 per open, and closes on Escape', () => {
    const onClose = vi.fn();
    render(
      <PopupModal title="First" onClose={onClose}>
        <PopupModal title="Second" onClose={() => {}}>
          x
        </PopupModal>
      </PopupModal>,
    );
    const first = Number(screen.getByRole('dialog', { name: 'First' }).getAttribute('data-layer'));
    const second = Number(screen.getByRole('dialog', { name: 'Second' }).getAttribute('data-layer'));
    expect(second - first).toBe(2);
    expect(first % 2).toBe(0);
    expect(first).toBeGreaterThan(100);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalled();
  });
  it('closes the mobile modal by a backdrop press', () => {
    const onClose = vi.fn();
    render(
      <MobileModal title="Sheet" onClose={onClose}>
        body
      </MobileModal>,
    );
    fireEvent.click(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalled();
  });
});

describe('MobileButton', () => {
  it('renders a link, a coloured button, a radius and a disabled state', () => {
    render(
      <MemoryRouter>
        <MobileButton to="/promotions">Go</MobileButton>
        <MobileButton color="danger" radius={4} disabled>
          Stop
        </MobileButton>
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Go' }).getAttribute('href')).toBe('/promotions');
    const stop = screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement;
    expect(stop.disabled).toBe(true);
    expect(stop.style.borderRadius).toBe('4px');
    expect(stop.className).toMatch(/danger/);
  });
});

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function renderBack(initial: string[], fallback?: string) {
  return render(
    <MemoryRouter initialEntries={initial} initialIndex={initial.length - 1}>
      <Routes>
        <Route path="*" element={<><BackButton fallback={fallback} /><Where /></>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('BackButton', () => {
  it('goes to the stored previous path first', () => {
    sessionStorage.setItem(PREVIOUS_PATH_KEY, '/promotions');
    renderBack(['/home', '/profile'], '/contacts');
    fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(screen.getByTestId('where').textContent).toBe('/promotions');
  });
  it('else to the given route', () => {
    renderBack(['/home', '/profile'], '/contacts');
    fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(screen.getByTestId('where').textContent).toBe('/contacts');
  });
  it('else back in history', () => {
    renderBack(['/home', '/profile']);
    fireEvent.click(screen.getByRole('button', { name: /Back/ }));
    expect(screen.getByTestId('where').textContent).toBe('/home');
  });
});

describe('LazyImage and SpinnerOverlay', () => {
  it('plays mp4 muted in a loop', () => {
    render(<LazyImage src="/a.mp4" alt="clip" eager />);
    const video = screen.getByTestId('lazy-video') as HTMLVideoElement;
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
  });
  it('renders images lazily with their alt text', () => {
    render(<LazyImage src="/a.svg" alt="banner" eager />);
    expect(screen.getByAltText('banner').getAttribute('loading')).toBe('eager');
  });
  it('announces loading', () => {
    render(<SpinnerOverlay />);
    expect(screen.getByRole('status').textContent).toContain('Loading');
  });
});

describe('money', () => {
  it('shows the currency decimals without arithmetic', () => {
    expect(formatMoney(500, 'TND')).toBe('500.000 TND');
    expect(formatMoney(12.345, 'TND')).toBe('12.345 TND');
    expect(formatMoney(700, 'PYG')).toBe('700 PYG');
    expect(formatMoney(1.5, 'USDT')).toBe('1.500000 USDT');
    expect(formatMoney(3, 'FUN')).toBe('3.00 RUB');
    expect(formatMoney(1234.5, 'TND', 'fr')).toMatch(/^1\s234,500 TND$/);
    expect(formatMoney(-15, 'TND', 'ar')).toMatch(/15\.000 TND/);
  });
});
