/**
 * A workspace's layout tree (docs/protocol.md §5 `pane.split`): leaves are panes, splits
 * hold two children. Layout order is depth first, first child first.
 */
import type { PaneDirection, SplitDirection } from '../protocol/enums.js';

export type LayoutNode =
  | { kind: 'leaf'; paneUid: number }
  | { kind: 'split'; direction: SplitDirection; ratio: number; first: LayoutNode; second: LayoutNode };

export function leaf(paneUid: number): LayoutNode {
  return { kind: 'leaf', paneUid };
}

/** The tree with `target`'s leaf replaced by a split holding (target, added). */
export function splitLeaf(node: LayoutNode, target: number, added: number, direction: SplitDirection, ratio = 0.5): LayoutNode {
  if (node.kind === 'leaf') {
    return node.paneUid === target
      ? { kind: 'split', direction, ratio, first: node, second: leaf(added) }
      : node;
  }
  return {
    ...node,
    first: splitLeaf(node.first, target, added, direction, ratio),
    second: splitLeaf(node.second, target, added, direction, ratio),
  };
}

/** The tree without `paneUid`'s leaf (its sibling takes the parent's place); null when empty. */
export function removeLeaf(node: LayoutNode, paneUid: number): LayoutNode | null {
  if (node.kind === 'leaf') return node.paneUid === paneUid ? null : node;
  const first = removeLeaf(node.first, paneUid);
  const second = removeLeaf(node.second, paneUid);
  if (!first) return second;
  if (!second) return first;
  return { ...node, first, second };
}

export function layoutOrder(node: LayoutNode, into: number[] = []): number[] {
  if (node.kind === 'leaf') into.push(node.paneUid);
  else {
    layoutOrder(node.first, into);
    layoutOrder(node.second, into);
  }
  return into;
}

/** The band a border move keeps a ratio in (herdr's); a ratio already outside it (layout.apply) is never pushed further out. */
export const MIN_MOVED_RATIO = 0.1;
export const MAX_MOVED_RATIO = 0.9;
/** herdr's `amount` when none is given, and the most one move may take. */
export const DEFAULT_BORDER_STEP = 0.05;
export const MAX_BORDER_STEP = 0.5;

/** The share one `pane.resize` moves a border by: herdr's default, sign dropped, capped. */
export function borderStep(amount: number | undefined): number {
  return Math.min(Math.abs(amount ?? DEFAULT_BORDER_STEP), MAX_BORDER_STEP);
}

type SplitNode = Extract<LayoutNode, { kind: 'split' }>;

/** The splits from the root down to `paneUid`'s leaf, each with the side the pane is on; undefined when it is not in the tree. */
function pathTo(node: LayoutNode, paneUid: number): Array<{ split: SplitNode; side: 'first' | 'second' }> | undefined {
  if (node.kind === 'leaf') return node.paneUid === paneUid ? [] : undefined;
  for (const side of ['first', 'second'] as const) {
    const below = pathTo(node[side], paneUid);
    if (below) return [{ split: node, side }, ...below];
  }
  return undefined;
}

function replaceNode(node: LayoutNode, target: LayoutNode, replacement: LayoutNode): LayoutNode {
  if (node === target) return replacement;
  if (node.kind === 'leaf') return node;
  const first = replaceNode(node.first, target, replacement);
  const second = first === node.first ? replaceNode(node.second, target, replacement) : node.second;
  return first === node.first && second === node.second ? node : { ...node, first, second };
}

/**
 * herdr's `pane.resize {direction, amount}`: moves the border on `paneUid`'s edge
 * that faces `direction` that way by `step` of its split, as herdr does. That border
 * is the nearest split of the matching orientation (`right` for left/right, `down`
 * for up/down) with the pane on the side facing it; a pane on an outer edge has
 * none, and then the border on its other edge moves (still in `direction`, so the
 * pane shrinks). The same tree (by identity) when nothing moved: no split of that
 * orientation holds the pane, the ratio is at its bound, or `step` is 0.
 */
export function moveBorder(root: LayoutNode, paneUid: number, direction: PaneDirection, step: number): LayoutNode {
  const orientation: SplitDirection = direction === 'left' || direction === 'right' ? 'right' : 'down';
  const forward = direction === 'right' || direction === 'down';
  const matching = (pathTo(root, paneUid) ?? []).filter(({ split }) => split.direction === orientation).reverse();
  const border = matching.find(({ side }) => side === (forward ? 'first' : 'second')) ?? matching[0];
  if (!border) return root;
  const { ratio } = border.split;
  const low = Math.min(MIN_MOVED_RATIO, ratio);
  const high = Math.max(MAX_MOVED_RATIO, ratio);
  const clamped = Math.min(high, Math.max(low, ratio + (forward ? step : -step)));
  if (clamped === ratio) return root;
  // Six decimals: 0.55 + 0.05 stays 0.6 in layout.export, not 0.6000000000000001.
  const moved = Math.round(clamped * 1e6) / 1e6;
  return moved === ratio ? root : replaceNode(root, border.split, { ...border.split, ratio: moved });
}

/** The tree with the leaves of `a` and `b` exchanged (splits and ratios unchanged); the same tree when either is missing or they are one. */
export function swapLeaves(root: LayoutNode, a: number, b: number): LayoutNode {
  const order = layoutOrder(root);
  if (a === b || !order.includes(a) || !order.includes(b)) return root;
  const swap = (node: LayoutNode): LayoutNode => {
    if (node.kind === 'leaf') return node.paneUid === a ? leaf(b) : node.paneUid === b ? leaf(a) : node;
    return { ...node, first: swap(node.first), second: swap(node.second) };
  };
  return swap(root);
}

/** The split at `path` from the root (false: first child, true: second), or undefined when the path ends elsewhere. */
export function splitAt(root: LayoutNode, path: readonly boolean[]): SplitNode | undefined {
  let node = root;
  for (const second of path) {
    if (node.kind !== 'split') return undefined;
    node = second ? node.second : node.first;
  }
  return node.kind === 'split' ? node : undefined;
}

/** The tree with the split at `path` given `ratio`; undefined when no split is there. */
export function withRatioAt(root: LayoutNode, path: readonly boolean[], ratio: number): LayoutNode | undefined {
  const split = splitAt(root, path);
  return split ? replaceNode(root, split, { ...split, ratio }) : undefined;
}
