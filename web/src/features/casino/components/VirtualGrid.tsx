import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { gridLayout, gridWindow, type GridOptions } from '../grid';
import type { Game } from '../types';
import { GameTile } from './GameTile';
import css from './Casino.module.css';

const FALLBACK_WIDTH = 358;

/**
 * A windowed grid of game tiles: only the rows near the viewport are in the DOM (the page
 * itself scrolls), each tile absolutely placed from its index, so thousands of games stay
 * smooth. Tiles are placed with inset-inline-start, so right-to-left mirrors by itself.
 */
export function VirtualGrid({
  games,
  isAuth,
  onOpen,
  options,
  overscan = 2,
}: {
  games: readonly Game[];
  isAuth: boolean;
  onOpen: (game: Game) => void;
  options?: GridOptions;
  overscan?: number;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  const [view, setView] = useState({ top: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight });

  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const rect = el.getBoundingClientRect();
    if (rect.width > 0) setWidth((w) => (Math.abs(w - rect.width) > 0.5 ? rect.width : w));
    const top = Math.round(rect.top);
    const height = window.innerHeight;
    setView((v) => (v.top === top && v.height === height ? v : { top, height }));
  }, []);

  useLayoutEffect(measure, [measure, games.length]);

  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        measure();
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    const ro = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onScroll);
    if (ro && ref.current) ro.observe(ref.current);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      ro?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [measure]);

  const layout = gridLayout(width, options);
  const win = gridWindow({
    count: games.length,
    columns: layout.columns,
    rowHeight: layout.rowHeight,
    top: view.top,
    viewportHeight: view.height,
    overscan,
  });

  const tiles = [];
  for (let i = win.start; i < win.end; i += 1) {
    const g = games[i]!;
    const row = Math.floor(i / layout.columns);
    const col = i % layout.columns;
    tiles.push(
      <GameTile
        key={`${g.provider}/${g.gameId}`}
        game={g}
        isAuth={isAuth}
        onOpen={onOpen}
        eager={row < 3}
        style={{
          position: 'absolute',
          insetBlockStart: row * layout.rowHeight,
          insetInlineStart: col * (layout.tileWidth + layout.gap),
          inlineSize: layout.tileWidth,
          blockSize: layout.tileHeight,
        }}
      />,
    );
  }

  return (
    <div
      ref={ref}
      className={css.grid}
      style={{ blockSize: Math.max(0, win.totalHeight - layout.gap) }}
      data-testid="game-grid"
      data-count={games.length}
    >
      {tiles}
    </div>
  );
}
