/** Windowing arithmetic of the virtualised game grid (fixed tile aspect, rows of equal height). */

export interface GridLayout {
  columns: number;
  tileWidth: number;
  tileHeight: number;
  /** Tile height plus the gap below it. */
  rowHeight: number;
  gap: number;
}

export interface GridOptions {
  /** Smallest tile width before a column is dropped. */
  minTile?: number;
  gap?: number;
  /** Height / width of a tile's artwork. */
  aspect?: number;
  /** Fixed height under the artwork (the caption). */
  caption?: number;
  maxColumns?: number;
}

export function gridLayout(width: number, { minTile = 104, gap = 10, aspect = 1, caption = 34, maxColumns = 8 }: GridOptions = {}): GridLayout {
  const w = Math.max(width, minTile);
  const columns = Math.max(2, Math.min(maxColumns, Math.floor((w + gap) / (minTile + gap))));
  const tileWidth = (w - gap * (columns - 1)) / columns;
  const tileHeight = Math.round(tileWidth * aspect + caption);
  return { columns, tileWidth, tileHeight, rowHeight: tileHeight + gap, gap };
}

export interface WindowInput {
  count: number;
  columns: number;
  rowHeight: number;
  /** The grid's top edge relative to the viewport's top (negative once scrolled past). */
  top: number;
  viewportHeight: number;
  /** Extra rows rendered above and below the visible ones. */
  overscan?: number;
}

export interface GridWindow {
  /** First rendered item index. */
  start: number;
  /** One past the last rendered item index. */
  end: number;
  rows: number;
  totalHeight: number;
}

export function gridWindow({ count, columns, rowHeight, top, viewportHeight, overscan = 2 }: WindowInput): GridWindow {
  const rows = Math.ceil(count / Math.max(1, columns));
  const totalHeight = rows > 0 ? rows * rowHeight : 0;
  if (rows === 0 || rowHeight <= 0) return { start: 0, end: 0, rows, totalHeight };
  const firstRow = Math.max(0, Math.floor(-top / rowHeight) - overscan);
  const lastRow = Math.min(rows, Math.ceil((viewportHeight - top) / rowHeight) + overscan);
  if (lastRow <= firstRow) return { start: 0, end: 0, rows, totalHeight };
  return { start: firstRow * columns, end: Math.min(count, lastRow * columns), rows, totalHeight };
}
