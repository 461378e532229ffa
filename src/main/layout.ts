/**
 * A workspace's layout tree (docs/protocol.md §5 `pane.split`): leaves are panes, splits
 * hold two children. Layout order is depth first, first child first.
 */
import type { SplitDirection } from '../protocol/enums.js';

export type LayoutNode =
  | { kind: 'leaf'; paneUid: number }
  | { kind: 'split'; direction: SplitDirection; ratio: number; first: LayoutNode; second: LayoutNode };

export function leaf(paneUid: number): LayoutNode {
  return { kind: 'leaf', paneUid };
}

/** The tree with `target`'s leaf replaced by a split holding (target, added). */
export function splitLeaf(node: LayoutNode, target: number, added: number, direction: SplitDirection): LayoutNode {
  if (node.kind === 'leaf') {
    return node.paneUid === target
      ? { kind: 'split', direction, ratio: 0.5, first: node, second: leaf(added) }
      : node;
  }
  return {
    ...node,
    first: splitLeaf(node.first, target, added, direction),
    second: splitLeaf(node.second, target, added, direction),
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
