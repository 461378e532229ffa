/** docs/protocol.md §12 conformance cases 1, 2 (without the waits), 5, 6 (without the wait) and 7, over the real socket. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { VERSION } from '../src/protocol/version.js';
import { type TestServer, herdrCli, oneAnswer, readUntil, startServer } from './helpers/server.js';

const raw = (server: TestServer, request: object) => oneAnswer(server.socketPath, request);

describe('docs/protocol.md §12 conformance', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('case 1: ping echoes the id and returns pong with the version', async () => {
    const response = await raw(server, { id: 'req-ping-1', method: 'ping', params: {} });
    const { protocol, capabilities, dialect, ...pong } = response.result;
    assert.deepEqual({ ...response, result: pong }, { id: 'req-ping-1', result: { type: 'pong', version: VERSION } });
    // EXT (§15): which dialect this socket answers in; herdr 0.2.0 had no number.
    assert.deepEqual({ protocol, dialect, capabilities: typeof capabilities }, { protocol: 0, dialect: '0.2.0', capabilities: 'object' });
  });

  it('case 2: an empty server, a workspace, its pane, reading what the shell printed', async () => {
    const list = await raw(server, { id: 'l0', method: 'workspace.list', params: {} });
    assert.deepEqual(list.result, { type: 'workspace_list', workspaces: [] });

    const created = await raw(server, { id: 'c1', method: 'workspace.create', params: { cwd: server.dir, focus: true } });
    assert.equal(created.id, 'c1');
    assert.equal(created.result.type, 'workspace_info');
    assert.equal(created.result.workspace.workspace_id, '1');
    assert.equal(created.result.workspace.number, 1);
    assert.equal(created.result.workspace.focused, true);

    const listed = await raw(server, { id: 'l1', method: 'workspace.list', params: {} });
    assert.equal(listed.result.workspaces.length, 1);
    const got = await raw(server, { id: 'g1', method: 'workspace.get', params: { workspace_id: '1' } });
    assert.equal(got.result.workspace.workspace_id, '1');

    const panes = await raw(server, { id: 'p1', method: 'pane.list', params: {} });
    assert.equal(panes.result.panes.length, 1);
    assert.equal(panes.result.panes[0].workspace_id, '1');
    assert.equal(panes.result.panes[0].pane_id, '1-1');
    const pane = await raw(server, { id: 'pg', method: 'pane.get', params: { pane_id: '1-1' } });
    assert.equal(pane.result.type, 'pane_info');
    assert.equal(pane.result.pane.cwd, server.dir);
    const visible = await raw(server, { id: 'pr', method: 'pane.read', params: { pane_id: '1-1', source: 'visible' } });
    assert.equal(visible.result.type, 'pane_read');
    assert.equal(visible.result.read.source, 'visible');

    const sent = await raw(server, {
      id: 's1',
      method: 'pane.send_text',
      params: { pane_id: '1-1', text: 'echo alpha; echo beta; echo gamma' },
    });
    assert.deepEqual(sent, { id: 's1', result: { type: 'ok' } });
    await raw(server, { id: 'k1', method: 'pane.send_keys', params: { pane_id: '1-1', keys: ['Enter'] } });
    const text = await readUntil(server, '1-1', (t) => /^(?:[$#] )?gamma$/m.test(t), { lines: 20 });
    assert.match(text, /^(?:[$#] )?(beta|gamma)$/m);
  });

  it('case 7: compact ids renumber after closes', async () => {
    const fresh = await startServer();
    try {
      const ids = async (method: 'workspace.list' | 'pane.list', params = {}) => {
        const r = await raw(fresh, { id: 'x', method, params });
        return method === 'workspace.list'
          ? r.result.workspaces.map((w: { workspace_id: string }) => w.workspace_id)
          : r.result.panes.map((p: { pane_id: string }) => p.pane_id);
      };
      const ok = async (method: string, params: object) => {
        const r = await raw(fresh, { id: 'x', method, params });
        assert.ok(r.result, `${method} ${JSON.stringify(params)}: ${JSON.stringify(r.error)}`);
        return r.result;
      };
      assert.equal((await ok('workspace.create', { cwd: fresh.dir })).workspace.workspace_id, '1');
      assert.equal((await ok('pane.split', { target_pane_id: '1-1', direction: 'right' })).pane.pane_id, '1-2');
      assert.equal((await ok('pane.split', { target_pane_id: '1-1', direction: 'down' })).pane.pane_id, '1-3');
      assert.deepEqual(await ids('pane.list', { workspace_id: '1' }), ['1-1', '1-3', '1-2']);
      assert.equal((await ok('workspace.create', { cwd: fresh.dir })).workspace.workspace_id, '2');
      assert.equal((await ok('pane.split', { target_pane_id: '2-1', direction: 'right' })).pane.pane_id, '2-2');
      assert.equal((await ok('workspace.create', { cwd: fresh.dir })).workspace.workspace_id, '3');
      await ok('workspace.close', { workspace_id: '2' });
      assert.deepEqual(await ids('workspace.list'), ['1', '2']);
      const third = await ok('workspace.create', { cwd: fresh.dir });
      assert.equal(third.workspace.workspace_id, '3');
      assert.deepEqual(await ids('pane.list', { workspace_id: '3' }), ['3-1']);
      await ok('pane.close', { pane_id: '1-2' });
      assert.deepEqual(await ids('pane.list', { workspace_id: '1' }), ['1-1', '1-2']);
    } finally {
      await fresh.stop();
    }
  });

  it('case 5: CLI management commands exit 0 and print the response', async () => {
    const fresh = await startServer();
    const herdr = herdrCli(fresh);
    try {
      assert.deepEqual(JSON.parse((await herdr('workspace', 'list')).stdout).result.workspaces, []);
      const created = JSON.parse((await herdr('workspace', 'create', '--cwd', fresh.dir)).stdout);
      assert.equal(created.id, 'cli:workspace:create');
      assert.equal(created.result.workspace.workspace_id, '1');
      const panes = JSON.parse((await herdr('pane', 'list', '--workspace', '1')).stdout);
      assert.deepEqual(panes.result.panes.map((p: { pane_id: string }) => p.pane_id), ['1-1']);
      const split = JSON.parse((await herdr('pane', 'split', '1-1', '--direction', 'right')).stdout);
      assert.equal(split.result.pane.pane_id, '1-2');
      assert.equal(JSON.parse((await herdr('pane', 'get', '1-2')).stdout).result.pane.pane_id, '1-2');
      assert.deepEqual(JSON.parse((await herdr('pane', 'close', '1-2')).stdout).result, { type: 'ok' });
      const renamed = JSON.parse((await herdr('workspace', 'rename', '1', 'my', 'project')).stdout);
      assert.equal(renamed.result.workspace.label, 'my project');
      assert.equal(JSON.parse((await herdr('workspace', 'focus', '1')).stdout).result.workspace.focused, true);
      assert.deepEqual(JSON.parse((await herdr('workspace', 'close', '1')).stdout).result, { type: 'ok' });
    } finally {
      await fresh.stop();
    }
  });

  it('case 6: CLI run then read shows the output', async () => {
    const fresh = await startServer();
    const herdr = herdrCli(fresh);
    try {
      await herdr('workspace', 'create', '--cwd', fresh.dir);
      const { stdout: nothing } = await herdr('pane', 'run', '1-1', "echo alpha && echo beta && printf 'ready\\n'");
      assert.equal(nothing, '');
      await readUntil(fresh, '1-1', (t) => /^ready$/m.test(t));
      const { stdout } = await herdr('pane', 'read', '1-1');
      assert.match(stdout, /^alpha$/m);
      assert.match(stdout, /^ready$/m);
    } finally {
      await fresh.stop();
    }
  });
});
