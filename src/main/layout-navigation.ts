/**
 * Directions over a tab's drawn cells (docs/protocol.md §5.4): which pane lies to a
 * pane's left, right, above or below, and which of its sides touch the tab's outer
 * edge. Pure; the rectangles are those of the flat layout (layout-geometry.ts), so the
 * answers agree with what `pane.layout` shows. The choice among several candidates is
 * herdr's: the nearest edge, then the longest shared span, then the closest centre,
 * then layout order.
 */
import type { PaneDirection } from '../protocol/enums.js';
import type { CellRect, PlacedPane } from './layout-geometry.js';

/** Whether [aStart, aStart+aLength) and [bStart, bStart+bLength) share a cell. */
function overlaps(aStart: number, aLength: number, bStart: number, bLength: number): boolean {
  return aStart < bStart + bLength && aStart + aLength > bStart;
}

function sharedSpan(aStart: number, aLength: number, bStart: number, bLength: number): number {
  return Math.max(0, Math.min(aStart + aLength, bStart + bLength) - Math.max(aStart, bStart));
}

/** Twice the distance between the two spans' centres (kept in whole cells). */
function centreDistance(aStart: number, aLength: number, bStart: number, bLength: number): number {
  return Math.abs(2 * aStart + aLength - (2 * bStart + bLength));
}

/** The pane beside `sourceUid` that way, or undefined at an outer edge (or when the source is not placed). */
export function neighborOf(placed: readonly PlacedPane[], sourceUid: number, direction: PaneDirection): number | undefined {
  const source = placed.find((pane) => pane.paneUid === sourceUid)?.rect;
  if (!source) return undefined;
  const across = direction === 'left' || direction === 'right';
  let best: { uid: number; key: [number, number, number, number] } | undefined;
  placed.forEach(({ paneUid, rect }, index) => {
    if (paneUid === sourceUid) return;
    const [start, length, sourceStart, sourceLength] = across ? [rect.y, rect.height, source.y, source.height] : [rect.x, rect.width, source.x, source.width];
    const beyond =
      direction === 'left' ? rect.x + rect.width <= source.x
      : direction === 'right' ? rect.x >= source.x + source.width
      : direction === 'up' ? rect.y + rect.height <= source.y
      : rect.y >= source.y + source.height;
    if (!beyond || !overlaps(start, length, sourceStart, sourceLength)) return;
    const gap =
      direction === 'left' ? source.x - (rect.x + rect.width)
      : direction === 'right' ? rect.x - (source.x + source.width)
      : direction === 'up' ? source.y - (rect.y + rect.height)
      : rect.y - (source.y + source.height);
    const key: [number, number, number, number] = [gap, -sharedSpan(start, length, sourceStart, sourceLength), centreDistance(start, length, sourceStart, sourceLength), index];
    if (!best || lexicallyBefore(key, best.key)) best = { uid: paneUid, key };
  });
  return best?.uid;
}

function lexicallyBefore(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/** Which sides of `rect` lie on the outer edge of `area` (herdr's `pane.edges`). */
export function edgesOf(rect: CellRect, area: CellRect): { left: boolean; right: boolean; up: boolean; down: boolean } {
  return {
    left: rect.x <= area.x,
    right: rect.x + rect.width >= area.x + area.width,
    up: rect.y <= area.y,
    down: rect.y + rect.height >= area.y + area.height,
  };
}
