/**
 * `pane.resize` (docs/protocol.md §5) on a real server, in both its forms: herdr's
 * `{direction, amount?}` moves a border (what layout.export then shows) and answers a
 * PaneLayoutSnapshot, in either dialect's ids; `{cols, rows}` still sizes the PTY; a
 * request with fields of both forms, or of neither, is refused and changes nothing.
 * A move that changed something is told as herdr's `layout_updated`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call } from '../src/client/client.js';
import type { LayoutTreeNode } from '../src/protocol/layout-tree.js';
import { METHOD_RESULTS, type MethodResults } from '../src/protocol/methods.js';
import { currentSocketPathFor } from '../src/protocol/socket-path.js';
import { EventClient } from './helpers/events.js';
import { type TestServer, codeOf, newWorkspace, startServer } from './helpers/server.js';

type Resized = MethodResults['pane.resize'];

/** The border form's answer (the size form answers pane_info). */
function moved(answer: Resized) {
  assert.ok(answer.type === 'pane_resize', `answered ${answer.type}`);
  return answer.resize;
}

async function rootRatio(server: TestServer, workspaceId: string): Promise<number | undefined> {
  const { layout } = await server.call('layout.export', { workspace_id: workspaceId });
  const root: LayoutTreeNode = layout.root;
  return root.type === 'split' ? root.ratio : undefined;
}

describe('pane.resize', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('{direction} moves the border beside the pane: layout.export shows the new ratio, the answer the layout after it', async () => {
    const { workspaceId, paneId } = await newWorkspace(server, { cols: 100, rows: 30 });
    await server.call('pane.split', { target_pane_id: paneId, direction: 'right', cols: 100, rows: 30 });
    const grown = moved(await server.call('pane.resize', { pane_id: paneId, direction: 'right', amount: 0.1 }));
    assert.equal(grown.changed, true);
    assert.equal(grown.reason, undefined);
    assert.equal(grown.pane_id, paneId);
    assert.equal(grown.focused_pane_id, paneId, 'a split focuses its target');
    assert.equal(await rootRatio(server, workspaceId), 0.6);
    const { layout } = grown;
    assert.equal(layout.workspace_id, workspaceId);
    assert.deepEqual(layout.area, { x: 0, y: 0, width: 200, height: 30 }, 'the two terminals side by side');
    assert.deepEqual(layout.splits, [{ id: 'split_0_root', direction: 'right', ratio: 0.6, rect: layout.area }]);
    assert.deepEqual(layout.panes, [
      { pane_id: paneId, focused: true, rect: { x: 0, y: 0, width: 120, height: 30 } },
      { pane_id: `${workspaceId}-2`, focused: false, rect: { x: 120, y: 0, width: 80, height: 30 } },
    ]);
    // Without pane_id: the focused pane (the left one), on its outer edge: its right border moves left.
    const back = moved(await server.call('pane.resize', { direction: 'left' }));
    assert.deepEqual([back.changed, back.pane_id], [true, paneId]);
    assert.equal(await rootRatio(server, workspaceId), 0.55, 'herdr\'s default amount, 0.05');
    const { pane } = await server.call('pane.get', { pane_id: paneId });
    assert.deepEqual([pane.cols, pane.rows], [100, 30], 'a border move leaves the PTY as it was');
  });

  it('answers unchanged when there is no border that way, or the ratio is at its bound', async () => {
    const { workspaceId, paneId } = await newWorkspace(server);
    const alone = moved(await server.call('pane.resize', { pane_id: paneId, direction: 'right' }));
    assert.deepEqual([alone.changed, alone.reason, alone.layout.splits], [false, 'unchanged', []]);
    await server.call('pane.split', { target_pane_id: paneId, direction: 'down' });
    const across = moved(await server.call('pane.resize', { pane_id: paneId, direction: 'left' }));
    assert.deepEqual([across.changed, across.reason], [false, 'unchanged'], 'a stacked split has no left or right border');
    const far = moved(await server.call('pane.resize', { pane_id: paneId, direction: 'down', amount: 0.5 }));
    assert.equal(far.changed, true);
    assert.equal(await rootRatio(server, workspaceId), 0.9, 'clamped to 0.9');
    const atBound = moved(await server.call('pane.resize', { pane_id: paneId, direction: 'down' }));
    assert.deepEqual([atBound.changed, atBound.reason], [false, 'unchanged']);
    assert.equal(await rootRatio(server, workspaceId), 0.9);
  });

  it('{cols, rows} still sizes the PTY and answers pane_info', async () => {
    const { paneId } = await newWorkspace(server, { cols: 90, rows: 20 });
    const answer = await server.call('pane.resize', { pane_id: paneId, cols: 70, rows: 15 });
    assert.ok(answer.type === 'pane_info');
    assert.deepEqual([answer.pane.cols, answer.pane.rows], [70, 15]);
  });

  it('refuses fields of both forms, or of neither, with invalid_request and changes nothing', async () => {
    const { workspaceId, paneId } = await newWorkspace(server, { cols: 90, rows: 20 });
    await server.call('pane.split', { target_pane_id: paneId, direction: 'right' });
    const refusals: Array<[object, RegExp]> = [
      [{ pane_id: paneId, cols: 50, rows: 10, direction: 'right' }, /not fields of both/],
      [{ pane_id: paneId, cols: 50, amount: 0.2 }, /not fields of both/],
      [{ pane_id: paneId }, /needs \{cols, rows\}.*or \{direction/],
      [{}, /needs/],
      [{ pane_id: paneId, cols: 50 }, /rows/],
      [{ pane_id: paneId, direction: 'sideways' }, /direction/],
    ];
    for (const [params, message] of refusals) {
      const answer = await server.request('pane.resize', params);
      assert.ok('error' in answer, JSON.stringify(params));
      assert.equal(answer.error.code, 'invalid_request', JSON.stringify(params));
      assert.match(answer.error.message, message, JSON.stringify(params));
    }
    const { pane } = await server.call('pane.get', { pane_id: paneId });
    assert.deepEqual([pane.cols, pane.rows], [90, 20]);
    assert.equal(await rootRatio(server, workspaceId), 0.5);
    assert.equal(await codeOf(server.call('pane.resize', { pane_id: '99-1', direction: 'left' })), 'pane_not_found');
  });

  it('answers in the current dialect\'s ids on herdr-current.sock', async () => {
    const fresh = await startServer();
    try {
      const { paneId } = await newWorkspace(fresh);
      await fresh.call('pane.split', { target_pane_id: paneId, direction: 'down' });
      const { pane } = await fresh.call('pane.get', { pane_id: paneId });
      const answer = await call('pane.resize', { pane_id: pane.stable_id, direction: 'up' }, { socketPath: currentSocketPathFor(fresh.socketPath) });
      const resize = moved(answer);
      assert.ok(METHOD_RESULTS['pane.resize'].safeParse(answer).success);
      const workspace = pane.stable_id.split(':')[0] ?? '';
      assert.deepEqual([resize.pane_id, resize.focused_pane_id, resize.layout.workspace_id, resize.layout.focused_pane_id], [pane.stable_id, pane.stable_id, workspace, pane.stable_id]);
      assert.deepEqual(resize.layout.panes.map((p) => p.pane_id), [pane.stable_id, `${workspace}:p2`]);
      assert.deepEqual(resize.layout.splits.map((s) => [s.id, s.ratio]), [['split_0_root', 0.45]]);
    } finally {
      await fresh.stop();
    }
  });

  it('emits layout_updated with the answer\'s layout when a border moved, and nothing when it did not', async () => {
    const { workspaceId, paneId } = await newWorkspace(server);
    await server.call('pane.split', { target_pane_id: paneId, direction: 'right' });
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'layout.updated' }] });
    try {
      const unchanged = moved(await server.call('pane.resize', { pane_id: paneId, direction: 'up' }));
      assert.equal(unchanged.changed, false);
      const changed = moved(await server.call('pane.resize', { pane_id: paneId, direction: 'right' }));
      const [line, ...more] = await events.until((lines) => lines.length > 0, 'layout_updated');
      assert.deepEqual(more, [], 'the unchanged move emitted nothing');
      assert.equal(line?.event, 'layout_updated');
      assert.deepEqual(line?.data, { type: 'layout_updated', layout: changed.layout });
      assert.equal(changed.layout.workspace_id, workspaceId);
    } finally {
      events.close();
    }
  });
});

