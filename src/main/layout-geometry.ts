/**
 * Where a workspace's panes would be drawn, in cells (herdr's PaneLayoutSnapshot
 * rectangles). Pure. A headless server has no screen, so the area is what the panes'
 * terminals add up to when tiled as the tree says: side by side the widths add and the
 * taller decides the height, stacked the other way round. Panes and splits then get
 * their rectangles cut from that area by the ratios, as herdr cuts them: the first
 * child gets round(size × ratio) cells, the second the rest.
 */
import type { SplitDirection } from '../protocol/enums.js';
import type { LayoutNode } from './layout.js';

export interface CellRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedPane {
  paneUid: number;
  rect: CellRect;
}

export interface PlacedSplit {
  /** From the root: false = first child, true = second. */
  path: readonly boolean[];
  direction: SplitDirection;
  ratio: number;
  /** The whole split node's area (both children). */
  rect: CellRect;
}

/** herdr's rectangles are u16 cells. */
const MAX_CELLS = 65_535;

/** The area the panes fill when tiled; `sizeOf` gives a pane's terminal size (a pane it does not know: 0×0). */
export function tiledArea(node: LayoutNode, sizeOf: (paneUid: number) => { cols: number; rows: number } | undefined): CellRect {
  const size = (at: LayoutNode): { width: number; height: number } => {
    if (at.kind === 'leaf') {
      const { cols, rows } = sizeOf(at.paneUid) ?? { cols: 0, rows: 0 };
      return { width: cols, height: rows };
    }
    const first = size(at.first);
    const second = size(at.second);
    return at.direction === 'right'
      ? { width: first.width + second.width, height: Math.max(first.height, second.height) }
      : { width: Math.max(first.width, second.width), height: first.height + second.height };
  };
  const { width, height } = size(node);
  return { x: 0, y: 0, width: Math.min(width, MAX_CELLS), height: Math.min(height, MAX_CELLS) };
}

/** Every pane (layout order) and every split (pre-order: a split, then its first child's, then its second's) with its rectangle. */
export function placeLayout(node: LayoutNode, area: CellRect): { panes: PlacedPane[]; splits: PlacedSplit[] } {
  const panes: PlacedPane[] = [];
  const splits: PlacedSplit[] = [];
  const place = (at: LayoutNode, rect: CellRect, path: boolean[]) => {
    if (at.kind === 'leaf') {
      panes.push({ paneUid: at.paneUid, rect });
      return;
    }
    splits.push({ path, direction: at.direction, ratio: at.ratio, rect });
    const [first, second] = cut(rect, at.direction, at.ratio);
    place(at.first, first, [...path, false]);
    place(at.second, second, [...path, true]);
  };
  place(node, area, []);
  return { panes, splits };
}

function cut(rect: CellRect, direction: SplitDirection, ratio: number): [CellRect, CellRect] {
  if (direction === 'right') {
    const width = Math.min(rect.width, Math.round(rect.width * ratio));
    return [{ ...rect, width }, { ...rect, x: rect.x + width, width: rect.width - width }];
  }
  const height = Math.min(rect.height, Math.round(rect.height * ratio));
  return [{ ...rect, height }, { ...rect, y: rect.y + height, height: rect.height - height }];
}
