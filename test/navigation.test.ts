/**
 * Layout and navigation (docs/protocol.md §5.4) on a real server with real shells: a 2×2
 * grid's edges, neighbours and directional focus by its drawn cells; swaps and moves that
 * change the tree (pane.layout, layout.export) while every shell keeps its pid and its
 * output, across shards too; zoom; the order of workspaces (compact ids follow, stable ids
 * stay) and of tabs; split ratios; layout.apply into an existing workspace or in place of a
 * tab; pane.scroll and the view `visible` then reads. Every refusal is a clear error, or
 * herdr's unchanged answer with its reason, and changes nothing.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call } from '../src/client/client.js';
import type { LayoutTreeNode } from '../src/protocol/layout-tree.js';
import type { MethodInput, MethodName, MethodResults } from '../src/protocol/methods.js';
import { EventClient } from './helpers/events.js';
import { type TestServer, codeOf, eventually, readUntil, startServer, tempDir } from './helpers/server.js';

/** The same request on the current dialect's socket (stable ids in the answer). */
function current<M extends MethodName>(server: TestServer, method: M, params: MethodInput<M>): Promise<MethodResults[M]> {
  return call(method, params, { socketPath: server.currentSocketPath, id: `current:${method}` });
}

interface Grid {
  workspace: string;
  /** Stable ids: a top left, b top right, c bottom left, d bottom right. */
  a: string;
  b: string;
  c: string;
  d: string;
}

/**
 * A workspace of four 80×24 shells in a 2×2 grid: `a` split right (b), `a` split down (c),
 * `b` split down (d). Layout order a, c, b, d; the flat layout is 160×48.
 */
async function grid(server: TestServer, label = 'grid'): Promise<Grid> {
  const size = { cols: 80, rows: 24 };
  const { workspace } = await server.call('workspace.create', { cwd: server.dir, label, focus: true, ...size });
  const a = `${workspace.stable_id}:p1`;
  const b = (await server.call('pane.split', { target_pane_id: a, direction: 'right', ...size })).pane.stable_id;
  const c = (await server.call('pane.split', { target_pane_id: a, direction: 'down', ...size })).pane.stable_id;
  const d = (await server.call('pane.split', { target_pane_id: b, direction: 'down', ...size })).pane.stable_id;
  return { workspace: workspace.stable_id, a, b, c, d };
}

/** The leaves of a layout tree in layout order (stable ids: export on the current socket). */
function leaves(node: LayoutTreeNode): string[] {
  return node.type === 'pane' ? [node.pane_id ?? '?'] : [...leaves(node.first), ...leaves(node.second)];
}

async function exported(server: TestServer, workspace: string) {
  return (await current(server, 'layout.export', { workspace_id: workspace })).layout;
}

async function pidOf(server: TestServer, pane: string): Promise<number> {
  return (await server.call('pane.get', { pane_id: pane })).pane.pid;
}

/** Makes the pane's shell print `word`, and waits until it shows. */
async function mark(server: TestServer, pane: string, word: string): Promise<void> {
  await server.call('pane.send_text', { pane_id: pane, text: `echo ${word}-$((40+2))\n` });
  await readUntil(server, pane, (text) => text.includes(`${word}-42`));
}

describe('layout and navigation', () => {
  let server: TestServer;
  before(async () => {
    // Two shards, so that a pane can be moved into a workspace whose panes run in the other one.
    server = await startServer({ workers: 2 });
  });
  after(() => server.stop());

  it('pane.layout, pane.edges, pane.neighbor and pane.focus_direction follow the drawn 2×2 grid', async () => {
    const g = await grid(server);
    const { layout } = await current(server, 'pane.layout', { pane_id: g.a });
    assert.deepEqual(layout.area, { x: 0, y: 0, width: 160, height: 48 });
    assert.equal(layout.workspace_id, g.workspace);
    assert.equal(layout.zoomed, false);
    assert.deepEqual(
      layout.panes.map((pane) => [pane.pane_id, pane.rect]),
      [
        [g.a, { x: 0, y: 0, width: 80, height: 24 }],
        [g.c, { x: 0, y: 24, width: 80, height: 24 }],
        [g.b, { x: 80, y: 0, width: 80, height: 24 }],
        [g.d, { x: 80, y: 24, width: 80, height: 24 }],
      ],
    );
    assert.deepEqual(layout.splits.map((split) => [split.id, split.direction]), [['split_0_root', 'right'], ['split_1_0', 'down'], ['split_2_1', 'down']]);

    const edges = async (pane: string) => {
      const { edges } = await current(server, 'pane.edges', { pane_id: pane });
      assert.equal(edges.pane_id, pane);
      return [edges.left, edges.right, edges.up, edges.down];
    };
    assert.deepEqual(await edges(g.a), [true, false, true, false]);
    assert.deepEqual(await edges(g.b), [false, true, true, false]);
    assert.deepEqual(await edges(g.c), [true, false, false, true]);
    assert.deepEqual(await edges(g.d), [false, true, false, true]);

    const neighbor = async (pane: string, direction: 'left' | 'right' | 'up' | 'down') => (await current(server, 'pane.neighbor', { pane_id: pane, direction })).neighbor.neighbor_pane_id;
    assert.equal(await neighbor(g.a, 'right'), g.b);
    assert.equal(await neighbor(g.a, 'down'), g.c);
    assert.equal(await neighbor(g.a, 'left'), undefined, 'no pane left of the left edge');
    assert.equal(await neighbor(g.d, 'up'), g.b);
    assert.equal(await neighbor(g.d, 'left'), g.c);
    // The 0.2.0 dialect names the same panes by position.
    const old = await server.call('pane.neighbor', { pane_id: g.a, direction: 'right' });
    assert.deepEqual([old.neighbor.pane_id, old.neighbor.neighbor_pane_id], ['1-1', '1-2'].map((id) => id.replace(/^1/, old.neighbor.layout.workspace_id)));

    const moved = (await current(server, 'pane.focus_direction', { pane_id: g.a, direction: 'right' })).focus;
    assert.deepEqual([moved.changed, moved.reason, moved.source_pane_id, moved.focused_pane_id], [true, undefined, g.a, g.b]);
    assert.equal((await server.call('pane.get', { pane_id: g.b })).pane.focused, true);
    // Without pane_id: from the focused pane (b), right is the outer edge.
    const stuck = (await current(server, 'pane.focus_direction', { direction: 'right' })).focus;
    assert.deepEqual([stuck.changed, stuck.reason, stuck.source_pane_id, stuck.focused_pane_id], [false, 'no_neighbor', g.b, g.b]);
    const down = (await current(server, 'pane.focus_direction', { direction: 'down' })).focus;
    assert.deepEqual([down.changed, down.focused_pane_id], [true, g.d]);

    // pane.focus by id: the pane, its tab and its workspace become the focused ones.
    const { pane } = await current(server, 'pane.focus', { pane_id: g.c });
    assert.deepEqual([pane.pane_id, pane.focused], [g.c, true]);
    assert.equal((await current(server, 'pane.layout', {})).layout.focused_pane_id, g.c, 'pane.layout without pane_id: the focused pane\'s tab');

    for (const [method, params] of [
      ['pane.neighbor', { pane_id: g.a, direction: 'sideways' }],
      ['pane.focus_direction', { pane_id: g.a, direction: 'diagonal' }],
      ['pane.neighbor', { pane_id: g.a }],
    ] as const) {
      const answer = await server.request(method, params);
      assert.ok('error' in answer && answer.error.code === 'invalid_request', `${method} ${JSON.stringify(params)}`);
      assert.match(answer.error.message, /direction/);
    }
    for (const method of ['pane.layout', 'pane.edges', 'pane.focus'] as const) {
      assert.equal(await codeOf(server.call(method, { pane_id: `${g.workspace}:p99` })), 'pane_not_found', method);
    }
    assert.equal(await codeOf(server.call('pane.focus_direction', { pane_id: '99-1', direction: 'up' })), 'pane_not_found');
    assert.equal((await current(server, 'pane.layout', {})).layout.focused_pane_id, g.c, 'no refusal moved the focus');
    await server.call('workspace.close', { workspace_id: g.workspace });
  });

  it('pane.swap exchanges places in the tree; the shells keep their pids and output; refusals change nothing', async () => {
    const g = await grid(server);
    await mark(server, g.a, 'alpha');
    const pids = { a: await pidOf(server, g.a), d: await pidOf(server, g.d) };
    const events = await EventClient.subscribe(server.currentSocketPath, { subscriptions: [{ type: 'layout.updated' }] });
    try {
      const swapped = (await current(server, 'pane.swap', { source_pane_id: g.a, target_pane_id: g.d })).swap;
      assert.deepEqual([swapped.changed, swapped.reason, swapped.source_pane_id, swapped.target_pane_id, swapped.focused_pane_id], [true, undefined, g.a, g.d, g.a]);
      assert.deepEqual(leaves((await exported(server, g.workspace)).root), [g.d, g.c, g.b, g.a], 'a and d changed places');
      const rectOf = (pane: string) => swapped.layout.panes.find((placed) => placed.pane_id === pane)?.rect;
      assert.deepEqual(rectOf(g.a), { x: 80, y: 24, width: 80, height: 24 }, 'a is drawn bottom right now');
      assert.deepEqual([await pidOf(server, g.a), await pidOf(server, g.d)], [pids.a, pids.d], 'no process restarted');
      assert.match((await server.call('pane.read', { pane_id: g.a, source: 'recent' })).read.text, /alpha-42/, 'a kept its output');
      const [line] = await events.until((lines) => lines.length > 0, 'layout_updated');
      assert.deepEqual(line?.data, { type: 'layout_updated', layout: swapped.layout });

      // By direction: a (bottom right now) with its left neighbour, c.
      const left = (await current(server, 'pane.swap', { pane_id: g.a, direction: 'left' })).swap;
      assert.deepEqual([left.changed, left.target_pane_id], [true, g.c]);
      assert.deepEqual(leaves((await exported(server, g.workspace)).root), [g.d, g.a, g.b, g.c]);
    } finally {
      events.close();
    }

    const before = await exported(server, g.workspace);
    const other = (await server.call('tab.create', { workspace_id: g.workspace, cwd: server.dir })).root_pane.stable_id;
    const unchanged: Array<[object, string]> = [
      [{ source_pane_id: g.a, target_pane_id: g.a }, 'same_pane'],
      [{ source_pane_id: g.a, target_pane_id: other }, 'cross_tab'],
      [{ source_pane_id: g.a, target_pane_id: `${g.workspace}:p99` }, 'not_found'],
      [{ pane_id: g.b, direction: 'up' }, 'no_neighbor'],
    ];
    for (const [params, reason] of unchanged) {
      const { swap } = await current(server, 'pane.swap', params);
      assert.deepEqual([swap.changed, swap.reason], [false, reason], JSON.stringify(params));
    }
    assert.equal(await codeOf(server.call('pane.swap', { pane_id: g.a, direction: 'left', source_pane_id: g.a, target_pane_id: g.b })), 'invalid_pane_swap');
    assert.equal(await codeOf(server.call('pane.swap', {})), 'invalid_pane_swap');
    assert.equal(await codeOf(server.call('pane.swap', { source_pane_id: g.a })), 'invalid_pane_swap');
    assert.equal(await codeOf(server.call('pane.swap', { pane_id: '99-1', direction: 'left' })), 'pane_not_found');
    const bad = await server.request('pane.swap', { pane_id: g.a, direction: 'around' });
    assert.ok('error' in bad && bad.error.code === 'invalid_request');
    assert.deepEqual(await exported(server, g.workspace), before, 'no refusal changed the tree or the focus');
    await server.call('workspace.close', { workspace_id: g.workspace });
  });

  it('pane.zoom zooms the focused pane of a tab, shows in the layout answers, toggles, and ends with a split', async () => {
    const g = await grid(server);
    const on = (await current(server, 'pane.zoom', { pane_id: g.d })).zoom;
    assert.deepEqual([on.changed, on.zoom_changed, on.focus_changed, on.zoomed, on.pane_id, on.focused_pane_id], [true, true, true, true, g.d, g.d]);
    assert.equal(on.layout.zoomed, true);
    assert.equal((await exported(server, g.workspace)).zoomed, true);
    assert.equal((await current(server, 'pane.layout', { pane_id: g.a })).layout.zoomed, true);
    const again = (await current(server, 'pane.zoom', { pane_id: g.d, mode: 'on' })).zoom;
    assert.deepEqual([again.changed, again.reason, again.zoomed], [false, 'already_zoomed', true]);
    const off = (await current(server, 'pane.zoom', { pane_id: g.d })).zoom;
    assert.deepEqual([off.changed, off.zoom_changed, off.focus_changed, off.zoomed], [true, true, false, false]);
    const offAgain = (await current(server, 'pane.zoom', { mode: 'off' })).zoom;
    assert.deepEqual([offAgain.changed, offAgain.reason], [false, 'already_unzoomed']);
    assert.equal((await exported(server, g.workspace)).zoomed, false);

    await current(server, 'pane.zoom', { pane_id: g.a, mode: 'on' });
    await server.call('pane.split', { target_pane_id: g.a, direction: 'right' });
    assert.equal((await exported(server, g.workspace)).zoomed, false, 'a split ends the zoom');

    const { root_pane } = await server.call('tab.create', { workspace_id: g.workspace, cwd: server.dir });
    const single = (await current(server, 'pane.zoom', { pane_id: root_pane.stable_id })).zoom;
    assert.deepEqual([single.changed, single.zoom_changed, single.reason, single.zoomed], [true, false, 'single_pane', false], 'a tab of one pane: only the focus moved');
    const bad = await server.request('pane.zoom', { pane_id: g.a, mode: 'maybe' });
    assert.ok('error' in bad && bad.error.code === 'invalid_request');
    assert.equal(await codeOf(server.call('pane.zoom', { pane_id: '99-9' })), 'pane_not_found');
    await server.call('workspace.close', { workspace_id: g.workspace });
  });

  it('pane.move takes a pane to another tab, workspace (on another shard) or a new one, with its process and output', async () => {
    const g = await grid(server, 'source');
    const { workspace: other } = await server.call('workspace.create', { cwd: server.dir, label: 'target' });
    const stats = await server.call('server.stats', {});
    assert.ok(stats.shards.length === 2 && stats.shards.every((shard) => shard.panes > 0), 'the two workspaces run in different shards');
    await mark(server, g.c, 'gamma');
    const pid = await pidOf(server, g.c);
    const terminal = (await server.call('pane.get', { pane_id: g.c })).pane.terminal_id;

    // Into the other workspace's tab, beside its pane.
    const into = (await current(server, 'pane.move', { pane_id: g.c, destination: { type: 'tab', tab_id: `${other.stable_id}:t1`, split: 'down' } })).move_result;
    assert.equal(into.changed, true);
    assert.deepEqual([into.previous_pane_id, into.previous_workspace_id, into.previous_tab_id], [g.c, g.workspace, `${g.workspace}:t1`]);
    const moved = into.pane.pane_id;
    assert.equal(moved, `${other.stable_id}:p2`, 'it takes the next stable number of the workspace it went to');
    assert.deepEqual([into.pane.workspace_id, into.pane.tab_id, into.pane.terminal_id], [other.stable_id, `${other.stable_id}:t1`, terminal]);
    assert.deepEqual(into.target_layout.panes.map((pane) => pane.pane_id), [`${other.stable_id}:p1`, moved]);
    assert.deepEqual(into.source_layout?.panes.map((pane) => pane.pane_id), [g.a, g.b, g.d]);
    assert.deepEqual(leaves((await exported(server, g.workspace)).root), [g.a, g.b, g.d]);
    assert.equal(await pidOf(server, moved), pid, 'the same process');
    assert.equal((await current(server, 'pane.get', { pane_id: g.c })).pane.pane_id, moved, 'its old stable id still names it');
    await mark(server, moved, 'moved');
    assert.match((await server.call('pane.read', { pane_id: moved, source: 'recent' })).read.text, /gamma-42[\s\S]*moved-42/, 'its output, old and new, from the shard it runs in');
    const counts = (await server.call('workspace.list', {})).workspaces.map((workspace) => [workspace.stable_id, workspace.pane_count]);
    assert.deepEqual(counts, [[g.workspace, 3], [other.stable_id, 2]]);

    // The 0.2.0 dialect: the same answer in positions (here a pane that stays put).
    const positional = (await server.call('pane.move', { pane_id: moved, destination: { type: 'tab', tab_id: `${other.stable_id}:t1`, split: 'down' } })).move_result;
    assert.deepEqual([positional.changed, positional.reason, positional.previous_pane_id, positional.previous_workspace_id, positional.pane.pane_id], [false, 'same_tab', '2-2', '2', '2-2']);

    // Into a new tab of its own (new) workspace, focused.
    const tabbed = (await current(server, 'pane.move', { pane_id: moved, destination: { type: 'new_tab', label: 'alone' }, focus: true })).move_result;
    assert.deepEqual([tabbed.changed, tabbed.created_tab?.label, tabbed.created_tab?.workspace_id, tabbed.pane.pane_id, tabbed.pane.focused], [true, 'alone', other.stable_id, moved, true]);
    assert.equal(tabbed.focused_pane_id, moved);

    // Into a new workspace: the last pane of its tab closes that tab.
    const alone = (await current(server, 'pane.move', { pane_id: moved, destination: { type: 'new_workspace', label: 'fresh' } })).move_result;
    assert.equal(alone.closed_tab_id, tabbed.pane.tab_id);
    assert.equal(alone.closed_workspace_id, undefined, 'its old workspace still has a pane');
    const fresh = alone.created_workspace?.workspace_id ?? '';
    assert.deepEqual([alone.created_workspace?.label, alone.pane.pane_id, alone.pane.workspace_id], ['fresh', `${fresh}:p1`, fresh]);
    assert.equal(await pidOf(server, alone.pane.pane_id), pid);

    // The last pane of a workspace taken away closes that workspace; told as herdr tells it.
    const kinds = ['pane.moved', 'tab.closed', 'tab.created', 'workspace.closed', 'workspace.created', 'layout.updated'];
    const events = await EventClient.subscribe(server.currentSocketPath, { subscriptions: kinds.map((type) => ({ type })) });
    let back;
    try {
      back = (await current(server, 'pane.move', { pane_id: alone.pane.pane_id, destination: { type: 'tab', tab_id: `${g.workspace}:t1`, target_pane_id: g.d, split: 'right', ratio: 0.3 } })).move_result;
      const lines = await events.until((seen) => seen.some((line) => line.event === 'layout_updated'), 'the move told');
      assert.deepEqual(events.names(), ['tab_closed', 'workspace_closed', 'pane_moved', 'layout_updated']);
      const { type, ...told } = lines[2]?.data as Record<string, unknown>;
      assert.equal(type, 'pane_moved');
      const { previous_pane_id, previous_workspace_id, previous_tab_id, pane, closed_workspace_id, closed_tab_id } = back;
      assert.deepEqual(told, { previous_pane_id, previous_workspace_id, previous_tab_id, pane, closed_workspace_id, closed_tab_id });
      assert.deepEqual((lines[3]?.data as { layout?: unknown }).layout, back.target_layout);
    } finally {
      events.close();
    }
    assert.deepEqual([back.closed_workspace_id, back.closed_tab_id, back.source_layout], [fresh, `${fresh}:t1`, undefined]);
    const root = (await exported(server, g.workspace)).root;
    assert.deepEqual(leaves(root), [g.a, g.b, g.d, back.pane.pane_id]);
    assert.ok((await server.call('workspace.list', {})).workspaces.every((workspace) => workspace.stable_id !== fresh));
    assert.equal(await pidOf(server, back.pane.pane_id), pid, 'still the same process after three moves');

    // What changes nothing, and what is refused.
    const before = { source: await exported(server, g.workspace), target: await exported(server, other.stable_id) };
    const same = (await current(server, 'pane.move', { pane_id: g.a, destination: { type: 'tab', tab_id: `${g.workspace}:t1`, split: 'right' } })).move_result;
    assert.deepEqual([same.changed, same.reason, same.pane.pane_id], [false, 'same_tab', g.a]);
    await current(server, 'pane.zoom', { pane_id: g.a, mode: 'on' });
    const zoomed = (await current(server, 'pane.move', { pane_id: g.a, destination: { type: 'new_workspace' } })).move_result;
    assert.deepEqual([zoomed.changed, zoomed.reason], [false, 'zoomed_tab']);
    await current(server, 'pane.zoom', { pane_id: g.a, mode: 'off' });
    const refusals: Array<[object, string]> = [
      [{ pane_id: `${g.workspace}:p99`, destination: { type: 'new_tab' } }, 'pane_not_found'],
      [{ pane_id: g.a, destination: { type: 'tab', tab_id: `${other.stable_id}:t9`, split: 'down' } }, 'tab_not_found'],
      [{ pane_id: g.a, destination: { type: 'tab', tab_id: `${other.stable_id}:t1`, target_pane_id: g.b, split: 'down' } }, 'target_pane_not_found'],
      [{ pane_id: g.a, destination: { type: 'new_tab', workspace_id: 'w999' } }, 'workspace_not_found'],
      [{ pane_id: g.a, destination: { type: 'elsewhere' } }, 'invalid_request'],
      [{ pane_id: g.a, destination: { type: 'tab', tab_id: `${other.stable_id}:t1`, split: 'left' } }, 'invalid_request'],
    ];
    for (const [params, code] of refusals) {
      const answer = await server.request('pane.move', params);
      assert.ok('error' in answer, JSON.stringify(params));
      assert.equal(answer.error.code, code, JSON.stringify(params));
    }
    const after = { source: await exported(server, g.workspace), target: await exported(server, other.stable_id) };
    assert.deepEqual({ ...after.source, zoomed: false }, { ...before.source, zoomed: false, focused_pane_id: after.source.focused_pane_id });
    assert.deepEqual(leaves(after.target.root), leaves(before.target.root));
    await server.call('workspace.close', { workspace_id: g.workspace });
    await server.call('workspace.close', { workspace_id: other.stable_id });
  });

  it('workspace.move and workspace.move_block reorder the list: compact ids follow, stable ids stay', async () => {
    const made = [];
    for (const label of ['a', 'b', 'c', 'd']) made.push((await server.call('workspace.create', { cwd: server.dir, label })).workspace);
    const order = async () => (await server.call('workspace.list', {})).workspaces.map((workspace) => [workspace.label, workspace.workspace_id, workspace.stable_id]);
    const stable = Object.fromEntries(made.map((workspace) => [workspace.label, workspace.stable_id])) as Record<string, string>;
    const { workspaces } = await server.call('workspace.move', { workspace_id: stable.c ?? '', insert_index: 0 });
    assert.deepEqual(workspaces.map((workspace) => workspace.label), ['c', 'a', 'b', 'd']);
    assert.deepEqual(await order(), [['c', '1', stable.c], ['a', '2', stable.a], ['b', '3', stable.b], ['d', '4', stable.d]]);
    assert.equal((await server.call('pane.get', { pane_id: '1-1' })).pane.stable_id, `${stable.c}:p1`, 'the compact pane id follows its workspace\'s new position');

    // One past the end: last.
    await server.call('workspace.move', { workspace_id: '1', insert_index: 4 });
    assert.deepEqual((await order()).map(([label]) => label), ['a', 'b', 'd', 'c']);

    const events = await EventClient.subscribe(server.currentSocketPath, { subscriptions: [{ type: 'workspace.moved' }, { type: 'workspace.reordered' }] });
    try {
      const block = await current(server, 'workspace.move_block', { workspace_ids: [stable.d ?? '', stable.a ?? ''], before_workspace_id: stable.b });
      assert.deepEqual(block.workspaces.map((workspace) => [workspace.label, workspace.workspace_id]), [['d', stable.d], ['a', stable.a], ['b', stable.b], ['c', stable.c]]);
      await current(server, 'workspace.move_block', { workspace_ids: [stable.b ?? ''] });
      assert.deepEqual((await order()).map(([label]) => label), ['d', 'a', 'c', 'b'], 'no before_workspace_id: to the end');
      await current(server, 'workspace.move', { workspace_id: stable.b ?? '', insert_index: 0 });
      const lines = await events.until((seen) => seen.length >= 3, 'the moves told');
      assert.deepEqual(lines.map((line) => line.event), ['workspace_reordered', 'workspace_reordered', 'workspace_moved']);
      assert.deepEqual(lines[0]?.data, {
        type: 'workspace_reordered',
        workspace_ids: [stable.d, stable.a],
        before_workspace_id: stable.b,
        workspaces: block.workspaces,
      });
      assert.equal((lines[2]?.data as { workspace_id?: string }).workspace_id, stable.b);
    } finally {
      events.close();
    }

    const before = await order();
    const unchanged = await server.call('workspace.move', { workspace_id: '1', insert_index: 1 });
    assert.deepEqual(unchanged.workspaces.map((workspace) => workspace.label), before.map(([label]) => label), 'to its own place: nothing moves');
    const refusals: Array<[MethodName, object, string]> = [
      ['workspace.move', { workspace_id: '1', insert_index: 5 }, 'workspace_move_failed'],
      ['workspace.move', { workspace_id: 'w999', insert_index: 0 }, 'workspace_not_found'],
      ['workspace.move', { workspace_id: '1', insert_index: -1 }, 'invalid_request'],
      ['workspace.move_block', { workspace_ids: [] }, 'workspace_move_block_failed'],
      ['workspace.move_block', { workspace_ids: ['1', stable.b] }, 'workspace_move_block_failed'],
      ['workspace.move_block', { workspace_ids: ['1'], before_workspace_id: '1' }, 'workspace_move_block_failed'],
      ['workspace.move_block', { workspace_ids: ['1', 'w999'] }, 'workspace_not_found'],
    ];
    for (const [method, params, code] of refusals) {
      const answer = await server.request(method, params);
      assert.ok('error' in answer, `${method} ${JSON.stringify(params)}`);
      assert.equal(answer.error.code, code, `${method} ${JSON.stringify(params)}`);
    }
    assert.match(((await server.request('workspace.move', { workspace_id: '1', insert_index: 5 })) as { error: { message: string } }).error.message, /insert_index 5 is out of bounds/);
    assert.deepEqual(await order(), before, 'no refusal moved anything');
    for (const workspace of made) await server.call('workspace.close', { workspace_id: workspace.stable_id });
  });

  it('tab.move reorders a workspace\'s tabs; the active tab stays active', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: true });
    const ws = workspace.stable_id;
    for (const label of ['two', 'three']) await server.call('tab.create', { workspace_id: ws, cwd: server.dir, label });
    await server.call('tab.rename', { tab_id: `${ws}:t1`, label: 'one' });
    const events = await EventClient.subscribe(server.currentSocketPath, { subscriptions: [{ type: 'tab.moved' }] });
    try {
      const { tabs } = await current(server, 'tab.move', { tab_id: `${ws}:t3`, insert_index: 0 });
      assert.deepEqual(tabs.map((tab) => [tab.label, tab.number, tab.focused]), [['three', 1, false], ['one', 2, true], ['two', 3, false]]);
      const [line] = await events.until((seen) => seen.length > 0, 'tab_moved');
      assert.deepEqual(line?.data, { type: 'tab_moved', tab_id: `${ws}:t3`, workspace_id: ws, insert_index: 0, tabs });
    } finally {
      events.close();
    }
    assert.deepEqual((await server.call('tab.list', { workspace_id: ws })).tabs.map((tab) => tab.label), ['three', 'one', 'two']);
    assert.equal((await server.call('workspace.get', { workspace_id: ws })).workspace.active_tab_id, `${ws}:t1`);
    await server.call('tab.move', { tab_id: `${ws}:t3`, insert_index: 3 });
    assert.deepEqual((await server.call('tab.list', { workspace_id: ws })).tabs.map((tab) => tab.label), ['one', 'two', 'three']);
    assert.equal(await codeOf(server.call('tab.move', { tab_id: `${ws}:t3`, insert_index: 4 })), 'tab_move_failed');
    assert.equal(await codeOf(server.call('tab.move', { tab_id: `${ws}:t9`, insert_index: 0 })), 'tab_not_found');
    assert.deepEqual((await server.call('tab.list', { workspace_id: ws })).tabs.map((tab) => tab.label), ['one', 'two', 'three'], 'refusals moved nothing');
    await server.call('workspace.close', { workspace_id: ws });
  });

  it('layout.set_split_ratio sets a split by its path and the cells follow', async () => {
    const g = await grid(server);
    const set = await current(server, 'layout.set_split_ratio', { pane_id: g.a, path: [], ratio: 0.25 });
    assert.equal(set.type, 'layout_split_ratio_set');
    assert.equal(set.layout.root.type === 'split' && set.layout.root.ratio, 0.25);
    await current(server, 'layout.set_split_ratio', { tab_id: `${g.workspace}:t1`, path: [true], ratio: 0.75 });
    const rects = Object.fromEntries((await current(server, 'pane.layout', { pane_id: g.a })).layout.panes.map((pane) => [pane.pane_id, pane.rect]));
    assert.deepEqual(rects[g.a], { x: 0, y: 0, width: 40, height: 24 });
    assert.deepEqual(rects[g.b], { x: 40, y: 0, width: 120, height: 36 });
    assert.deepEqual(rects[g.d], { x: 40, y: 36, width: 120, height: 12 });
    const clamped = await current(server, 'layout.set_split_ratio', { pane_id: g.a, path: [false], ratio: 0.99 });
    assert.equal(clamped.layout.root.type === 'split' && clamped.layout.root.first.type === 'split' && clamped.layout.root.first.ratio, 0.9, 'kept within 0.1–0.9');

    const before = await exported(server, g.workspace);
    const refusals: Array<[object, string]> = [
      [{ pane_id: g.a, path: [true, true], ratio: 0.5 }, 'split_not_found'],
      [{ pane_id: g.a, path: [false, false, false], ratio: 0.5 }, 'split_not_found'],
      [{ tab_id: `${g.workspace}:t9`, path: [], ratio: 0.5 }, 'layout_not_found'],
      [{ tab_id: `${g.workspace}:t1`, pane_id: g.a, path: [], ratio: 0.5 }, 'layout_not_found'],
      [{ pane_id: g.a, path: [], ratio: 'half' }, 'invalid_request'],
      [{ pane_id: g.a, ratio: 0.5 }, 'invalid_request'],
    ];
    for (const [params, code] of refusals) {
      const answer = await server.request('layout.set_split_ratio', params);
      assert.ok('error' in answer, JSON.stringify(params));
      assert.equal(answer.error.code, code, JSON.stringify(params));
    }
    assert.deepEqual(await exported(server, g.workspace), before, 'no refusal changed a ratio');
    await server.call('workspace.close', { workspace_id: g.workspace });
  });

  it('layout.apply builds into an existing workspace, or in place of a tab (its old panes end)', async () => {
    const g = await grid(server, 'host');
    const pids = await Promise.all([g.a, g.b].map((pane) => pidOf(server, pane)));
    const tree: LayoutTreeNode = { type: 'split', direction: 'down', ratio: 0.3, first: { type: 'pane', label: 'top' }, second: { type: 'pane', command: ['sleep', '60'] } };
    const added = (await current(server, 'layout.apply', { workspace_id: g.workspace, root: tree, tab_label: 'built' })).layout;
    assert.equal(added.workspace_id, g.workspace);
    assert.equal(added.tab_id, `${g.workspace}:t2`);
    assert.deepEqual(leaves(added.root), [`${g.workspace}:p5`, `${g.workspace}:p6`], 'the workspace\'s next stable numbers');
    assert.equal(added.root.type === 'split' && added.root.ratio, 0.3);
    const tab = (await server.call('tab.get', { tab_id: added.tab_id })).tab;
    assert.deepEqual([tab.label, tab.pane_count, tab.focused], ['built', 2, false], 'not focused unless asked');

    // In place of the first tab: a new tab is built, the old one closes with its panes.
    const events = await EventClient.subscribe(server.currentSocketPath, { subscriptions: ['tab.closed', 'tab.created', 'pane.closed', 'layout.updated'].map((type) => ({ type })) });
    await server.call('tab.rename', { tab_id: `${g.workspace}:t1`, label: 'first' });
    let replaced;
    try {
      replaced = (await current(server, 'layout.apply', { tab_id: `${g.workspace}:t1`, root: { type: 'pane', cwd: server.dir } })).layout;
      await events.until((seen) => seen.some((line) => line.event === 'layout_updated'), 'the new tab told');
      assert.deepEqual(
        events.names(),
        ['pane_closed', 'pane_closed', 'pane_closed', 'pane_closed', 'tab_closed', 'tab_created', 'layout_updated'],
      );
    } finally {
      events.close();
    }
    assert.equal(replaced.tab_id, `${g.workspace}:t3`);
    for (const pane of [g.a, g.b, g.c, g.d]) assert.equal(await codeOf(server.call('pane.get', { pane_id: pane })), 'pane_not_found', `${pane} ended`);
    for (const pid of pids) await eventually(() => !alive(pid), `pid ${pid} gone`);
    const { tabs } = await server.call('tab.list', { workspace_id: g.workspace });
    assert.deepEqual(tabs.map((each) => [each.tab_id, each.label, each.focused]), [[`${g.workspace}:t2`, 'built', false], [`${g.workspace}:t3`, 'first', true]], 'it kept the old tab\'s label and its focus');

    // The current dialect without a target: a new tab of the active workspace (herdr's rule).
    const plain = (await current(server, 'layout.apply', { root: { type: 'pane' } })).layout;
    assert.deepEqual([plain.workspace_id, plain.tab_id], [g.workspace, `${g.workspace}:t4`]);

    const before = (await server.call('tab.list', { workspace_id: g.workspace })).tabs;
    const refusals: Array<[object, string]> = [
      [{ root: { type: 'pane' }, tab_id: `${g.workspace}:t3`, workspace_id: g.workspace }, 'invalid_target'],
      [{ root: { type: 'pane' }, tab_id: `${g.workspace}:t9` }, 'tab_not_found'],
      [{ root: { type: 'pane' }, workspace_id: 'w999' }, 'workspace_not_found'],
      [{ root: { type: 'pane', command: ['no-such-program-here'] }, tab_id: `${g.workspace}:t3` }, 'layout_apply_failed'],
    ];
    for (const [params, code] of refusals) {
      const answer = await server.request('layout.apply', params);
      assert.ok('error' in answer, JSON.stringify(params));
      assert.equal(answer.error.code, code, JSON.stringify(params));
    }
    assert.deepEqual((await server.call('tab.list', { workspace_id: g.workspace })).tabs, before, 'no refusal built or closed a tab');
    await server.call('workspace.close', { workspace_id: g.workspace });
  });

  it('pane.scroll moves the view over the history; visible reads it; it stays on its rows as output comes', async () => {
    const { workspace } = await server.call('workspace.create', {
      cwd: server.dir,
      cols: 40,
      rows: 10,
      command: ['sh', '-c', 'seq 1 100; read line; seq 101 111; exec sleep 600'],
    });
    const pane = `${workspace.stable_id}:p1`;
    await readUntil(server, pane, (text) => /^100$/m.test(text));
    const live = (await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text;
    assert.equal(live, `${Array.from({ length: 9 }, (_, i) => i + 92).join('\n')}\n`, 'the live screen: 92 to 100');
    const rows = (from: number, to: number) => `${Array.from({ length: to - from + 1 }, (_, i) => i + from).join('\n')}\n`;

    const top = (await current(server, 'pane.scroll', { pane_id: pane, to: 'top' })).scroll;
    assert.deepEqual([top.changed, top.pane_id, top.workspace_id], [true, pane, workspace.stable_id]);
    assert.deepEqual(top.scroll, { offset_from_bottom: 91, max_offset_from_bottom: 91, viewport_rows: 10 });
    assert.equal((await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text, rows(1, 10));
    assert.match((await server.call('pane.read', { pane_id: pane, source: 'recent', lines: 3 })).read.text, /^98\n99\n100\n$/, 'recent reads are not the view');
    assert.deepEqual((await server.call('pane.get', { pane_id: pane })).pane.scroll, top.scroll);
    const still = (await current(server, 'pane.scroll', { pane_id: pane, to: 'top' })).scroll;
    assert.equal(still.changed, false);

    const page = (await current(server, 'pane.scroll', { pane_id: pane, direction: 'down' })).scroll;
    assert.equal(page.scroll.offset_from_bottom, 81, 'one page down: viewport_rows rows');
    assert.equal((await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text, rows(11, 20));
    await current(server, 'pane.scroll', { pane_id: pane, direction: 'up', lines: 5 });
    assert.equal((await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text, rows(6, 15));

    // New output below: the view stays on the rows it shows (its offset grows by the rows that came).
    const events = await EventClient.subscribe(server.currentSocketPath, { subscriptions: [{ type: 'pane.scroll_changed', pane_id: pane }] });
    try {
      await server.call('pane.send_text', { pane_id: pane, text: '\n' });
      await readUntil(server, pane, (text) => /^111$/m.test(text));
      await eventually(async () => (await server.call('pane.get', { pane_id: pane })).pane.scroll?.offset_from_bottom === 86 + 12, 'the offset to follow the rows');
      assert.equal((await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text, rows(6, 15));
      // The rows may come in more than one read: the last line tells where the view ended.
      const seen = await events.until((lines) => lines.some((line) => JSON.stringify(line.data).includes('"offset_from_bottom":98')), 'pane.scroll_changed');
      assert.ok(seen.every((line) => line.event === 'pane.scroll_changed'));
      assert.deepEqual(seen.at(-1)?.data, { pane_id: pane, workspace_id: workspace.stable_id, scroll: { offset_from_bottom: 98, max_offset_from_bottom: 103, viewport_rows: 10 } });
    } finally {
      events.close();
    }

    const bottom = (await server.call('pane.scroll', { pane_id: pane, offset_from_bottom: 0 })).scroll;
    assert.deepEqual([bottom.changed, bottom.scroll.offset_from_bottom], [true, 0]);
    assert.equal((await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text, rows(103, 111), 'at the bottom the view is the live screen again');
    const far = (await server.call('pane.scroll', { pane_id: pane, offset_from_bottom: 5000 })).scroll;
    assert.equal(far.scroll.offset_from_bottom, 103, 'cut to the history there is');

    const refusals: Array<[object, string]> = [
      [{ pane_id: `${workspace.stable_id}:p9`, to: 'top' }, 'pane_not_found'],
      [{ pane_id: pane }, 'invalid_request'],
      [{ pane_id: pane, to: 'top', direction: 'up' }, 'invalid_request'],
      [{ pane_id: pane, direction: 'up', lines: 2, pages: 1 }, 'invalid_request'],
      [{ pane_id: pane, lines: 2 }, 'invalid_request'],
      [{ pane_id: pane, direction: 'sideways' }, 'invalid_request'],
      [{ pane_id: pane, direction: 'up', lines: 0 }, 'invalid_request'],
    ];
    for (const [params, code] of refusals) {
      const answer = await server.request('pane.scroll', params);
      assert.ok('error' in answer, JSON.stringify(params));
      assert.equal(answer.error.code, code, JSON.stringify(params));
    }
    assert.equal((await server.call('pane.get', { pane_id: pane })).pane.scroll?.offset_from_bottom, 103, 'no refusal moved the view');
    await server.call('workspace.close', { workspace_id: workspace.stable_id });

    // A program that erases the history (CSI 3 J) brings the view back to the live bottom, for good.
    const { workspace: erasing } = await server.call('workspace.create', {
      cwd: server.dir,
      cols: 40,
      rows: 10,
      command: ['sh', '-c', 'seq 1 50; read line; printf "\\033[3J"; seq 51 80; exec sleep 600'],
    });
    const eraser = `${erasing.stable_id}:p1`;
    await readUntil(server, eraser, (text) => /^50$/m.test(text));
    assert.equal((await server.call('pane.scroll', { pane_id: eraser, to: 'top' })).scroll.scroll.offset_from_bottom, 41);
    await server.call('pane.send_text', { pane_id: eraser, text: '\n' });
    await readUntil(server, eraser, (text) => /^80$/m.test(text));
    await eventually(async () => (await server.call('pane.get', { pane_id: eraser })).pane.scroll?.offset_from_bottom === 0, 'the view back at the bottom');
    assert.equal((await server.call('pane.read', { pane_id: eraser, source: 'visible' })).read.text, rows(72, 80));
    await server.call('workspace.close', { workspace_id: erasing.stable_id });
  });
});

describe('layout and navigation across a restart', () => {
  it('keeps the zoom, the order of workspaces and tabs, the ratios, and a moved pane\'s place and id', async () => {
    const root = tempDir('herdr-nav-');
    const options = { stateDir: join(root, 'state'), socketPath: join(root, 'herdr.sock') };
    let server = await startServer(options);
    try {
      const g = await grid(server, 'first');
      const { workspace: second } = await server.call('workspace.create', { cwd: server.dir, label: 'second' });
      await server.call('workspace.move', { workspace_id: second.stable_id, insert_index: 0 });
      const moved = (await current(server, 'pane.move', { pane_id: g.d, destination: { type: 'tab', tab_id: `${second.stable_id}:t1`, split: 'right' } })).move_result.pane.pane_id;
      await current(server, 'layout.set_split_ratio', { pane_id: g.a, path: [], ratio: 0.3 });
      await current(server, 'pane.zoom', { pane_id: g.c, mode: 'on' });
      await server.call('tab.create', { workspace_id: g.workspace, cwd: server.dir, label: 'later' });
      await server.call('tab.move', { tab_id: `${g.workspace}:t2`, insert_index: 0 });
      const before = { first: await exported(server, g.workspace), second: await exported(server, second.stable_id) };
      const tabs = (await server.call('tab.list', { workspace_id: g.workspace })).tabs.map((tab) => tab.tab_id);
      assert.deepEqual(tabs, [`${g.workspace}:t2`, `${g.workspace}:t1`]);
      const since = Date.now();
      await eventually(async () => {
        const { last_snapshot: last } = await server.call('server.stats', {});
        return last !== undefined && Date.now() - last.ms_ago > since;
      }, 'a snapshot after the changes');
      await server.stop();

      server = await startServer(options);
      const labels = (await server.call('workspace.list', {})).workspaces.map((workspace) => workspace.label);
      assert.deepEqual(labels, ['second', 'first']);
      assert.deepEqual((await server.call('tab.list', { workspace_id: g.workspace })).tabs.map((tab) => tab.tab_id), tabs);
      const after = { first: await exported(server, g.workspace), second: await exported(server, second.stable_id) };
      assert.equal(after.first.zoomed, true, 'the zoom came back');
      assert.equal(after.first.focused_pane_id, g.c);
      assert.deepEqual(leaves(after.first.root), [g.a, g.c, g.b]);
      assert.equal(after.first.root.type === 'split' && after.first.root.ratio, 0.3);
      assert.deepEqual(leaves(after.second.root), leaves(before.second.root));
      assert.ok(leaves(after.second.root).includes(moved), `${moved} is in its new workspace`);
    } finally {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
