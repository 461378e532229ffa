/**
 * The registry on its own (src/main/registry.ts, ids from src/main/ids.ts):
 * compact ids are positions that renumber when something closes, stable ids
 * are never reused, both resolve, and focus moves to a neighbour when the
 * focused pane or workspace goes. No server: what clients see of ids and
 * focus comes from here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError } from '../src/protocol/errors.js';
import { paneIds } from '../src/main/ids.js';
import type { SplitDirection } from '../src/protocol/enums.js';
import { type PaneFacts, type PaneRecord, Registry, type WorkspaceRecord } from '../src/main/registry.js';

const facts = (): PaneFacts => ({
  pid: 0,
  cwd: undefined,
  cwdLabel: undefined,
  cols: 80,
  rows: 24,
  launch: { command: undefined, env: undefined },
});

/** A registry with the calls the server's operations make to create workspaces and split panes. */
function setup() {
  const registry = new Registry();
  const workspace = (focus = false): WorkspaceRecord =>
    registry.addWorkspace(registry.reserveWorkspaceUid(), 0, { uid: registry.reservePaneUid(), stableNumber: 1 }, facts(), { focus, label: undefined });
  const split = (target: PaneRecord, direction: SplitDirection = 'right', focus = false): PaneRecord =>
    registry.addSplitPane(target, registry.reservePane(target.workspace), direction, facts(), focus);
  const first = (w: WorkspaceRecord): PaneRecord => {
    const pane = w.panes[0];
    assert.ok(pane);
    return pane;
  };
  return { registry, workspace, split, first };
}

const compact = (pane: PaneRecord): string => paneIds(pane).pane_id;
const stable = (pane: PaneRecord): string => paneIds(pane).stable_id;
const workspaceIds = (registry: Registry): string[] => registry.workspaces.map((w) => `${w.position}=w${w.uid}`);

function notFound(run: () => unknown, code: 'pane_not_found' | 'workspace_not_found', id: string): void {
  assert.throws(run, (error: unknown) => error instanceof ProtocolError && error.code === code && error.message.includes(id), id);
}

describe('registry ids', () => {
  it('workspace ids renumber when one closes; the panes\' compact ids follow', () => {
    const { registry, workspace, split, first } = setup();
    const [one, two, three] = [workspace(), workspace(), workspace()];
    assert.ok(one && two && three);
    const twoSplit = split(first(two));
    assert.deepEqual([compact(first(three)), compact(twoSplit)], ['3-1', '2-2']);
    registry.removeWorkspace(one);
    assert.deepEqual(workspaceIds(registry), ['1=w2', '2=w3']);
    assert.deepEqual([compact(first(two)), compact(twoSplit), compact(first(three))], ['1-1', '1-2', '2-1']);
    assert.equal(registry.resolveWorkspace('1'), two);
    assert.equal(registry.resolvePane('2-1'), first(three));
    notFound(() => registry.resolveWorkspace('3'), 'workspace_not_found', '3');
    notFound(() => registry.resolvePane('3-1'), 'pane_not_found', '3-1');
  });

  it('pane numbers are creation order and close up when a pane closes, whatever the layout', () => {
    const { registry, workspace, split, first } = setup();
    const w = workspace();
    const a = first(w);
    const b = split(a);
    const c = split(a, 'down'); // layout a, c, b; creation a, b, c
    assert.deepEqual([a, b, c].map(compact), ['1-1', '1-2', '1-3']);
    assert.deepEqual(registry.panesInLayoutOrder(w), [a, c, b]);
    assert.deepEqual(registry.removePane(b), { tabClosed: false, workspaceClosed: false });
    assert.deepEqual([a, c].map(compact), ['1-1', '1-2']);
    assert.equal(registry.resolvePane('1-2'), c);
    notFound(() => registry.resolvePane('1-3'), 'pane_not_found', '1-3');
    assert.equal(registry.paneCount, 2);
  });

  it('stable ids resolve the same pane and workspace across renumbering', () => {
    const { registry, workspace, split, first } = setup();
    const gone = workspace();
    const kept = workspace();
    const pane = split(first(kept));
    assert.deepEqual(paneIds(pane), { pane_id: '2-2', workspace_id: '2', stable_id: 'w2:p2' });
    registry.removeWorkspace(gone);
    assert.deepEqual(paneIds(pane), { pane_id: '1-2', workspace_id: '1', stable_id: 'w2:p2' });
    assert.equal(registry.resolvePane('w2:p2'), pane);
    assert.equal(registry.resolveWorkspace('w2'), kept);
  });

  it('stable ids count a workspace\'s panes from p1 and are never reused: closed ones stay unknown, new work gets new numbers', () => {
    const { registry, workspace, split, first } = setup();
    const a = workspace();
    const b = workspace();
    const bPane = split(first(b));
    const oldIds = [stable(first(a)), stable(bPane)];
    assert.equal(registry.resolvePane('2-1'), first(b));
    registry.removeWorkspace(a);
    registry.removePane(bPane);
    const c = workspace();
    const cPane = split(first(c));
    const bNext = split(first(b));
    assert.deepEqual(oldIds, ['w1:p1', 'w2:p2']);
    assert.deepEqual([stable(first(c)), stable(cPane)], ['w3:p1', 'w3:p2']);
    assert.equal(stable(bNext), 'w2:p3', 'w2:p2 closed: its number is not given again');
    notFound(() => registry.resolveWorkspace('w1'), 'workspace_not_found', 'w1');
    for (const id of oldIds) notFound(() => registry.resolvePane(id), 'pane_not_found', id);
    // A compact id is reused by whatever now stands at its position; only the stable id says which pane.
    assert.equal(registry.resolvePane('2-1'), first(c));
  });

  it('a stable pane id must name the pane\'s own workspace; ids that are neither form are not found', () => {
    const { registry, workspace, first } = setup();
    workspace();
    const pane = first(workspace());
    assert.equal(stable(pane), 'w2:p1');
    notFound(() => registry.resolvePane('w1:p2'), 'pane_not_found', 'w1:p2');
    notFound(() => registry.resolvePane('w3:p1'), 'pane_not_found', 'w3:p1');
    for (const id of ['0', '01', '1-0', '-1', 'w0', 'w01', '1.0', ' 1', 'w2:p2:p2', '']) {
      notFound(() => registry.resolvePane(id), 'pane_not_found', id);
    }
    for (const id of ['0', '01', 'w', 'w0', '1-1', 'W1', '1e0']) notFound(() => registry.resolveWorkspace(id), 'workspace_not_found', id);
  });

  it('after a restart, uids carry on from the saved ones: no stable id of the old session comes back', () => {
    const { registry, workspace, first } = setup();
    registry.advanceUids(8, 20);
    const w = workspace();
    assert.equal(stable(first(w)), 'w8:p1');
    assert.equal(first(w).uid, 20);
    assert.deepEqual(registry.nextUids, { workspace: 9, pane: 21 });
    registry.advanceUids(2, 2); // never backwards
    assert.deepEqual(registry.nextUids, { workspace: 9, pane: 21 });
  });
});

describe('registry focus', () => {
  it('the first workspace is focused without asking; later ones only when asked', () => {
    const { registry, workspace } = setup();
    const one = workspace(false);
    assert.equal(registry.activeWorkspace, one);
    workspace(false);
    assert.equal(registry.activeWorkspace, one);
    const three = workspace(true);
    assert.equal(registry.activeWorkspace, three);
  });

  it('a split focuses its target, and the new pane only when asked', () => {
    const { registry, workspace, split, first } = setup();
    const w = workspace();
    const a = first(w);
    const b = split(a, 'right', true);
    assert.ok(registry.isFocused(b));
    const c = split(a, 'down', false);
    assert.ok(registry.isFocused(a), 'the target of the split');
    assert.ok(!registry.isFocused(c));
  });

  it('when the focused pane closes, focus goes to the next pane in layout order, else the previous', () => {
    const { registry, workspace, split, first } = setup();
    const w = workspace();
    const a = first(w);
    const b = split(a);
    const c = split(a, 'down'); // layout a, c, b
    assert.ok(registry.isFocused(a));
    registry.removePane(a);
    assert.ok(registry.isFocused(c), 'the next in layout order (creation order would say b)');
    registry.removePane(b);
    assert.ok(registry.isFocused(c), 'closing another pane leaves focus alone');
    assert.deepEqual(registry.removePane(c), { tabClosed: true, workspaceClosed: true }, 'the last pane takes its workspace with it');
    assert.deepEqual(registry.workspaces, []);
    assert.equal(registry.activeWorkspace, undefined);
  });

  it('the previous pane in layout order takes focus when the focused one was last', () => {
    const { registry, workspace, split, first } = setup();
    const a = first(workspace());
    const b = split(a);
    const c = split(b, 'down', true); // layout a, b, c
    assert.ok(registry.isFocused(c));
    registry.removePane(c);
    assert.ok(registry.isFocused(b));
  });

  it('when the active workspace closes, the one that takes its place is active, else the one before', () => {
    const { registry, workspace } = setup();
    const [one, two, three] = [workspace(), workspace(), workspace()];
    assert.ok(one && two && three);
    registry.focusWorkspace(two);
    registry.removeWorkspace(two);
    assert.equal(registry.activeWorkspace, three, 'the one now at position 2');
    registry.removeWorkspace(three);
    assert.equal(registry.activeWorkspace, one, 'the last one closed: the one before');
    const four = workspace();
    registry.removeWorkspace(four);
    assert.equal(registry.activeWorkspace, one, 'closing an inactive workspace leaves focus alone');
  });

  it('a focused pane is the focused pane of the active workspace only', () => {
    const { registry, workspace, first } = setup();
    const one = workspace();
    const two = workspace();
    assert.ok(registry.isFocused(first(one)));
    assert.ok(!registry.isFocused(first(two)), 'focused in its workspace, but that one is not active');
    const before = registry.focusKey();
    registry.focusWorkspace(two);
    assert.ok(registry.isFocused(first(two)));
    assert.notEqual(registry.focusKey(), before);
  });
});

describe('registry tabs', () => {
  /** A new tab in `w` the way tab.create makes one. */
  const addTab = (registry: Registry, w: WorkspaceRecord, focus = false) =>
    registry.addTab(w, registry.reserveTabUid(w), registry.reservePane(w), facts(), { focus, label: undefined });

  it('compact pane numbers count the whole workspace in creation order; a tab takes its panes when it closes', () => {
    const { registry, workspace, split, first } = setup();
    const w = workspace(true);
    const a = first(w);
    const tab = addTab(registry, w);
    const [b] = registry.tabPanes(tab);
    assert.ok(b);
    const c = split(a);
    assert.deepEqual([a, b, c].map(compact), ['1-1', '1-2', '1-3']);
    assert.deepEqual(registry.panesInLayoutOrder(w), [a, c, b], 'tab by tab, each in layout order');
    assert.equal(registry.resolveTab('w1:t2'), tab);
    registry.removeTab(tab);
    assert.deepEqual([a, c].map(compact), ['1-1', '1-2'], 'the later pane moved down');
    assert.throws(() => registry.resolveTab('w1:t2'), (error: unknown) => error instanceof ProtocolError && error.code === 'tab_not_found');
    assert.equal(addTab(registry, w).uid, 3, 'a tab id is never reused in its workspace');
  });

  it('focus: the active workspace\'s active tab\'s focused pane; a new tab takes it only when asked', () => {
    const { registry, workspace, first } = setup();
    const w = workspace(true);
    const a = first(w);
    const quiet = addTab(registry, w, false);
    assert.ok(registry.isFocused(a));
    assert.ok(!registry.isFocusedTab(quiet));
    const loud = addTab(registry, w, true);
    const [d] = registry.tabPanes(loud);
    assert.ok(d && registry.isFocused(d) && !registry.isFocused(a));
    registry.focusPane(a);
    assert.ok(registry.isFocused(a) && registry.isFocusedTab(a.tab));
  });

  it('the last pane of a tab closes the tab, not the workspace; the next tab becomes active, else the previous', () => {
    const { registry, workspace, first } = setup();
    const w = workspace(true);
    const second = addTab(registry, w, true);
    const third = addTab(registry, w);
    const [b] = registry.tabPanes(second);
    assert.ok(b);
    assert.deepEqual(registry.removePane(b), { tabClosed: true, workspaceClosed: false });
    assert.equal(w.activeTab, third, 'the next tab');
    const [c] = registry.tabPanes(third);
    assert.ok(c);
    registry.removePane(c);
    assert.equal(w.activeTab, w.tabs[0], 'the previous tab');
    assert.deepEqual(registry.removePane(first(w)), { tabClosed: true, workspaceClosed: true });
  });
});
