/**
 * docs/protocol.md §5.5: herdr's methods for the screen herdr draws (window title, popups, agent
 * views, pane graphics) and its live handoff are answered `unsupported` with their reason, in
 * both dialects, once their params passed herdr's shapes; malformed params are
 * `invalid_request`; `ping` names them in its capabilities.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SCREEN_ONLY_METHOD_NAMES, type ScreenOnlyMethod } from '../src/protocol/screen-only.js';
import { type TestServer, oneAnswer, startServer } from './helpers/server.js';

/** A request each method takes by herdr's schema, every optional field filled. */
const VALID: Record<ScreenOnlyMethod, object> = {
  'client.window_title.set': { title: 'herdr api' },
  'client.window_title.clear': {},
  'popup.close': {},
  'agent.view.set': {
    source: 'dashboard',
    label: 'blocked first',
    filter: { op: 'all', filters: [{ op: 'in', field: 'status', values: ['blocked', 'done'] }, { op: 'not', filter: { op: 'eq', field: { token: 'team' }, value: { context: 'current_workspace_id' } } }] },
    sort: [{ field: 'attention', order: 'desc' }, { field: { token: 'priority' } }],
  },
  'agent.view.clear': { source: null },
  'pane.graphics.info': { pane_id: 'w1:p1' },
  'pane.graphics.set': { pane_id: 'w1:p1', format: 'png', image_width: 800, image_height: 600, data_base64: '', layer_id: 'overlay', placement: { viewport_col: -2, viewport_row: 0, grid_cols: 80, grid_rows: 30 }, z_index: -1 },
  'pane.graphics.clear': { pane_id: 'w1:p1', layer_id: null },
  'server.live_handoff': { import_exe: '/usr/bin/herdr', expected_protocol: 22, expected_version: '0.9.0' },
};

/** Params herdr's schema refuses, one case per method (empty-params methods: a params that is not an object). */
const MALFORMED: Record<ScreenOnlyMethod, unknown> = {
  'client.window_title.set': {},
  'client.window_title.clear': [],
  'popup.close': 'close',
  'agent.view.set': { source: 'x', filter: { op: 'eq', field: 'colour', value: 1 } },
  'agent.view.clear': { source: 7 },
  'pane.graphics.info': {},
  'pane.graphics.set': { pane_id: 'w1:p1', format: 'gif', image_width: 1, image_height: 1 },
  'pane.graphics.clear': { layer_id: 'x' },
  'server.live_handoff': { expected_protocol: -1 },
};

/** What each reason must say, in a word or two. */
const WHY: Record<ScreenOnlyMethod, RegExp> = {
  'client.window_title.set': /draws no screen/,
  'client.window_title.clear': /draws no screen/,
  'popup.close': /never opens a popup/,
  'agent.view.set': /sidebar/,
  'agent.view.clear': /sidebar/,
  'pane.graphics.info': /image layers/,
  'pane.graphics.set': /image layers/,
  'pane.graphics.clear': /no image layer/,
  'server.live_handoff': /node-pty cannot take over a terminal/,
};

describe('methods for a screen herdr draws', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
    await server.call('workspace.create', { cwd: server.dir });
  });
  after(() => server.stop());

  it('each is `unsupported`, saying why, on both sockets; nothing changes', async () => {
    const before = await server.call('session.snapshot', {});
    for (const socket of [server.socketPath, server.currentSocketPath]) {
      for (const method of SCREEN_ONLY_METHOD_NAMES) {
        const answer = await oneAnswer(socket, { id: method, method, params: VALID[method] });
        assert.equal(answer.id, method);
        assert.equal(answer.error?.code, 'unsupported', `${method}: ${JSON.stringify(answer)}`);
        assert.match(answer.error.message, new RegExp(`^${method.replace(/\./g, '\\.')} is not supported: `));
        assert.match(answer.error.message, WHY[method], method);
      }
    }
    const after = await server.call('session.snapshot', {});
    assert.deepEqual(after.snapshot.workspaces, before.snapshot.workspaces);
  });

  it('params are checked against herdr\'s shapes first: malformed ones are invalid_request', async () => {
    for (const method of SCREEN_ONLY_METHOD_NAMES) {
      const answer = await oneAnswer(server.currentSocketPath, { id: 'bad', method, params: MALFORMED[method] });
      assert.equal(answer.error?.code, 'invalid_request', `${method}: ${JSON.stringify(answer)}`);
    }
  });

  it('ping says the same: no live handoff, and a false flag for each screen feature', async () => {
    for (const socket of [server.socketPath, server.currentSocketPath]) {
      const { result } = await oneAnswer(socket, { id: 'p', method: 'ping', params: {} });
      assert.deepEqual(
        [result.capabilities.live_handoff, result.capabilities.client_window_title, result.capabilities.popups, result.capabilities.agent_view, result.capabilities.pane_graphics],
        [false, false, false, false, false],
      );
      // Flags only, as a client reading the map as names to booleans expects.
      assert.ok(Object.values(result.capabilities).every((flag) => typeof flag === 'boolean'));
    }
  });
});
