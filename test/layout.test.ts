/**
 * A workspace's layout tree on its own (src/main/layout.ts): where a split
 * puts the new pane, what a close leaves, and the order panes are listed in
 * (depth first, first child first), without a server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LayoutNode, layoutOrder, leaf, removeLeaf, splitLeaf } from '../src/main/layout.js';

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
