/**
 * A workspace's layout tree on its own (src/main/layout.ts): where a split
 * puts the new pane, what a close leaves, the order panes are listed in
 * (depth first, first child first), which border `pane.resize {direction}`
 * moves and where panes would be drawn (layout-geometry.ts), without a server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LayoutNode, borderStep, layoutOrder, leaf, moveBorder, removeLeaf, splitLeaf } from '../src/main/layout.js';
import { placeLayout, tiledArea } from '../src/main/layout-geometry.js';

/** The tree as text, `(a right b)`, so a test reads the shape a client would draw. */
function shape(node: LayoutNode | null): string {
  if (!node) return '∅';
  if (node.kind === 'leaf') return String(node.paneUid);
  return `(${shape(node.first)} ${node.direction} ${shape(node.second)})`;
}

describe('layout', () => {
  it('a split puts the new pane after its target, in the direction asked, each taking half', () => {
    const right = splitLeaf(leaf(1), 1, 2, 'right');
    assert.equal(shape(right), '(1 right 2)');
    assert.equal(right.kind === 'split' && right.ratio, 0.5);
    const down = splitLeaf(right, 1, 3, 'down');
    assert.equal(shape(down), '((1 down 3) right 2)');
    assert.deepEqual(layoutOrder(down), [1, 3, 2], 'the new pane comes right after its target, not last');
  });

  it('splitting a pane that is not in the tree changes nothing', () => {
    const tree = splitLeaf(leaf(1), 1, 2, 'right');
    assert.equal(shape(splitLeaf(tree, 9, 10, 'down')), '(1 right 2)');
  });

  it('a closed pane\'s sibling takes the whole of their parent\'s place; the rest keeps its shape', () => {
    // 1 | (2 over (3 | 4))
    let tree = splitLeaf(leaf(1), 1, 2, 'right');
    tree = splitLeaf(tree, 2, 3, 'down');
    tree = splitLeaf(tree, 3, 4, 'right');
    assert.equal(shape(tree), '(1 right (2 down (3 right 4)))');
    assert.equal(shape(removeLeaf(tree, 2)), '(1 right (3 right 4))');
    assert.equal(shape(removeLeaf(tree, 4)), '(1 right (2 down 3))');
    assert.equal(shape(removeLeaf(tree, 1)), '(2 down (3 right 4))');
    assert.deepEqual(layoutOrder(removeLeaf(tree, 3) ?? leaf(0)), [1, 2, 4]);
  });

  it('closing the last pane leaves nothing; closing one that is not there leaves the tree as it was', () => {
    assert.equal(removeLeaf(leaf(1), 1), null);
    const tree = splitLeaf(leaf(1), 1, 2, 'down');
    assert.equal(shape(removeLeaf(tree, 7)), '(1 down 2)');
    assert.equal(shape(removeLeaf(removeLeaf(tree, 1) ?? leaf(0), 2)), '∅');
  });

  it('order is depth first, first child first, whatever order the panes were made in', () => {
    // Made 1, 2, 3, 4; each split of pane 1 goes between 1 and what followed it.
    let tree = splitLeaf(leaf(1), 1, 2, 'right');
    tree = splitLeaf(tree, 1, 3, 'down');
    tree = splitLeaf(tree, 1, 4, 'right');
    assert.deepEqual(layoutOrder(tree), [1, 4, 3, 2]);
  });
});

/** The tree as text with ratios, `(1 right:0.5 2)`. */
function ratios(node: LayoutNode): string {
  if (node.kind === 'leaf') return String(node.paneUid);
  return `(${ratios(node.first)} ${node.direction}:${node.ratio} ${ratios(node.second)})`;
}

function split(first: LayoutNode, second: LayoutNode, direction: 'right' | 'down', ratio = 0.5): LayoutNode {
  return { kind: 'split', direction, ratio, first, second };
}

describe('moving a border (pane.resize {direction})', () => {
  it('moves the border on the pane\'s side that way, whichever side of it the pane is', () => {
    const tree = split(leaf(1), leaf(2), 'right');
    assert.equal(ratios(moveBorder(tree, 1, 'right', 0.05)), '(1 right:0.55 2)', 'the left pane grows');
    assert.equal(ratios(moveBorder(tree, 2, 'left', 0.05)), '(1 right:0.45 2)', 'the right pane grows');
  });

  it('on an outer edge moves the border on the other side, still that way (the pane shrinks)', () => {
    const tree = split(leaf(1), leaf(2), 'down');
    assert.equal(ratios(moveBorder(tree, 1, 'up', 0.05)), '(1 down:0.45 2)');
    assert.equal(ratios(moveBorder(tree, 2, 'down', 0.05)), '(1 down:0.55 2)');
  });

  it('takes the nearest split of that orientation that borders the pane, across splits of the other', () => {
    // 1 | (2 over (3 | 4)): 3's right border is the inner split, its left border the root's.
    const tree = split(leaf(1), split(leaf(2), split(leaf(3), leaf(4), 'right', 0.4), 'down', 0.6), 'right', 0.3);
    assert.equal(ratios(moveBorder(tree, 3, 'right', 0.1)), '(1 right:0.3 (2 down:0.6 (3 right:0.5 4)))');
    assert.equal(ratios(moveBorder(tree, 3, 'left', 0.1)), '(1 right:0.2 (2 down:0.6 (3 right:0.4 4)))');
    assert.equal(ratios(moveBorder(tree, 2, 'left', 0.1)), '(1 right:0.2 (2 down:0.6 (3 right:0.4 4)))', 'through the down split to the root');
    assert.equal(ratios(moveBorder(tree, 4, 'up', 0.1)), '(1 right:0.3 (2 down:0.5 (3 right:0.4 4)))');
  });

  it('changes nothing (the same tree) without a border that way, at a bound, or for a pane not in the tree', () => {
    const sideBySide = split(leaf(1), leaf(2), 'right');
    assert.equal(moveBorder(sideBySide, 1, 'down', 0.05), sideBySide, 'no stacked split holds the pane');
    const single = leaf(1);
    assert.equal(moveBorder(single, 1, 'left', 0.05), single, 'a lone pane has no border');
    const atBound = split(leaf(1), leaf(2), 'right', 0.9);
    assert.equal(moveBorder(atBound, 1, 'right', 0.05), atBound);
    assert.equal(ratios(moveBorder(split(leaf(1), leaf(2), 'right', 0.88), 1, 'right', 0.05)), '(1 right:0.9 2)', 'clamped to 0.9');
    assert.equal(moveBorder(sideBySide, 9, 'right', 0.05), sideBySide);
    assert.equal(moveBorder(sideBySide, 1, 'right', 0), sideBySide);
  });

  it('never pushes a ratio already outside the band further out, but lets it come back', () => {
    const narrow = split(leaf(1), leaf(2), 'right', 0.05);
    assert.equal(moveBorder(narrow, 1, 'left', 0.05), narrow);
    assert.equal(ratios(moveBorder(narrow, 1, 'right', 0.05)), '(1 right:0.1 2)');
  });

  it('steps by herdr\'s default 0.05, ignores the sign, caps a step at 0.5', () => {
    assert.deepEqual([borderStep(undefined), borderStep(-0.2), borderStep(3)], [0.05, 0.2, 0.5]);
  });
});

describe('where panes would be drawn', () => {
  it('tiles the panes\' terminal sizes into the area and cuts it by the ratios as herdr does', () => {
    // (1 | 2) over 3, terminals 80×24 each.
    const tree = split(split(leaf(1), leaf(2), 'right', 0.25), leaf(3), 'down', 0.5);
    const area = tiledArea(tree, () => ({ cols: 80, rows: 24 }));
    assert.deepEqual(area, { x: 0, y: 0, width: 160, height: 48 });
    const placed = placeLayout(tree, area);
    assert.deepEqual(placed.panes, [
      { paneUid: 1, rect: { x: 0, y: 0, width: 40, height: 24 } },
      { paneUid: 2, rect: { x: 40, y: 0, width: 120, height: 24 } },
      { paneUid: 3, rect: { x: 0, y: 24, width: 160, height: 24 } },
    ]);
    assert.deepEqual(placed.splits.map(({ path, direction, ratio, rect }) => ({ path, direction, ratio, rect })), [
      { path: [], direction: 'down', ratio: 0.5, rect: { x: 0, y: 0, width: 160, height: 48 } },
      { path: [false], direction: 'right', ratio: 0.25, rect: { x: 0, y: 0, width: 160, height: 24 } },
    ]);
  });
});

