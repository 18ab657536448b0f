import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTION_GUARD_MS, REFUSED_HINT_MS, useActionGuard } from './actionGuard';

function Probe({ meaning, onTap }: { meaning: string; onTap: () => void }) {
  const guard = useActionGuard(meaning);
  return (
    <button type="button" disabled={guard.guarded} data-guard={guard.guarded} onClick={() => !guard.isGuarded() && onTap()}>
      {meaning}
    </button>
  );
}

/** A button that stays enabled and answers a refused tap (the slot's Spin). */
function Answering({ meaning, onTap }: { meaning: string; onTap: () => void }) {
  const guard = useActionGuard(meaning);
  return (
    <>
      <button type="button" data-guard={guard.guarded} onClick={() => (guard.isGuarded() ? guard.refuse() : onTap())}>
        {meaning}
      </button>
      {guard.refused && <span role="status">refused</span>}
    </>
  );
}

describe('useActionGuard', () => {
  it('answers a refused tap: `refused` for REFUSED_HINT_MS, and the tap does nothing', () => {
    vi.useFakeTimers();
    const onTap = vi.fn();
    const { rerender } = render(<Answering meaning="stop" onTap={onTap} />);
    rerender(<Answering meaning="spin" onTap={onTap} />);
    fireEvent.click(screen.getByRole('button'));
    expect(onTap).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('refused');
    act(() => vi.advanceTimersByTime(REFUSED_HINT_MS - 1));
    expect(screen.queryByRole('status')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).toBeNull();
    // After the guard, the tap acts and nothing is refused.
    fireEvent.click(screen.getByRole('button'));
    expect(onTap).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is a named constant between half a second and a second', () => {
    expect(ACTION_GUARD_MS).toBeGreaterThanOrEqual(600);
    expect(ACTION_GUARD_MS).toBeLessThanOrEqual(800);
  });

  it('does not guard the first meaning', () => {
    const onTap = vi.fn();
    render(<Probe meaning="bet" onTap={onTap} />);
    fireEvent.click(screen.getByRole('button'));
    expect(onTap).toHaveBeenCalledTimes(1);
  });

  it('ignores taps for exactly ACTION_GUARD_MS after the meaning changes', () => {
    const onTap = vi.fn();
    const { rerender } = render(<Probe meaning="cashout" onTap={onTap} />);
    rerender(<Probe meaning="betNext" onTap={onTap} />);
    const button = screen.getByRole('button');
    // Disabled in the same commit as the new label.
    expect(button.textContent).toBe('betNext');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button);
    act(() => vi.advanceTimersByTime(ACTION_GUARD_MS - 1));
    expect((button as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(button);
    expect(onTap).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect((button as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(button);
    expect(onTap).toHaveBeenCalledTimes(1);
  });

  it('restarts on every further change, and not on a re-render with the same meaning', () => {
    const onTap = vi.fn();
    const { rerender } = render(<Probe meaning="a" onTap={onTap} />);
    rerender(<Probe meaning="b" onTap={onTap} />);
    act(() => vi.advanceTimersByTime(500));
    rerender(<Probe meaning="c" onTap={onTap} />);
    act(() => vi.advanceTimersByTime(500));
    // 1000 ms after the first change, 500 ms after the second: still guarded.
    expect(screen.getByRole('button').getAttribute('data-guard')).toBe('true');
    act(() => vi.advanceTimersByTime(ACTION_GUARD_MS - 500));
    expect(screen.getByRole('button').getAttribute('data-guard')).toBe('false');
    rerender(<Probe meaning="c" onTap={onTap} />);
    expect(screen.getByRole('button').getAttribute('data-guard')).toBe('false');
    fireEvent.click(screen.getByRole('button'));
    expect(onTap).toHaveBeenCalledTimes(1);
  });

  it('the handler check refuses a tap even where the disabled state is not rendered yet', () => {
    let check = () => false;
    function Raw({ meaning }: { meaning: string }) {
      const guard = useActionGuard(meaning);
      check = guard.isGuarded;
      return <span>{meaning}</span>;
    }
    const { rerender } = render(<Raw meaning="a" />);
    expect(check()).toBe(false);
    rerender(<Raw meaning="b" />);
    expect(check()).toBe(true);
    vi.advanceTimersByTime(ACTION_GUARD_MS);
    expect(check()).toBe(false);
  });
});
