/** docs/protocol.md §3–5: stable ids, focus rules (with the close-focus fix), labels, split and close semantics. */
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { HerdrError } from '../src/client/client.js';
import { type TestServer, eventually, readUntil, startServer } from './helpers/server.js';

describe('ids, focus and labels', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer();
  });
  afterEach(() => server.stop());

  const create = async (focus = false) => (await server.call('workspace.create', { cwd: server.dir, focus })).workspace;
  const focused = async () => {
    const { workspaces } = await server.call('workspace.list', {});
    const { panes } = await server.call('pane.list', {});
    return {
      workspace: workspaces.filter((w) => w.focused).map((w) => w.workspace_id),
      pane: panes.filter((p) => p.focused).map((p) => p.pane_id),
    };
  };

  it('stable ids survive renumbering and are accepted by every id param', async () => {
    const w1 = await create();
    const w2 = await create();
    // A workspace counts its own panes: w2's first is w2:p1, its second w2:p2 (docs/protocol.md §3).
    const { pane: split } = await server.call('pane.split', { target_pane_id: `${w2.stable_id}:p1`, direction: 'right' });
    assert.equal(split.pane_id, '2-2');
    assert.equal(split.stable_id, 'w2:p2');
    await server.call('workspace.close', { workspace_id: w1.stable_id });
    const { pane: moved } = await server.call('pane.get', { pane_id: split.stable_id });
    assert.equal(moved.pane_id, '1-2', 'compact id renumbered');
    assert.equal(moved.stable_id, split.stable_id);
    assert.equal((await server.call('workspace.get', { workspace_id: w2.stable_id })).workspace.workspace_id, '1');
    const { read } = await server.call('pane.read', { pane_id: split.stable_id, source: 'recent' });
    assert.equal(read.stable_id, split.stable_id);
    assert.equal(read.pane_id, '1-2');
    await assert.rejects(server.call('workspace.get', { workspace_id: w1.stable_id }), /workspace_not_found/);
    await assert.rejects(server.call('pane.get', { pane_id: 'w1:p1' }), /pane_not_found/);
    await assert.rejects(server.call('pane.get', { pane_id: `w9:p${split.stable_id.split(':p')[1]}` }), /pane_not_found/);
  });

  it('unknown, zero, negative and garbage ids are *_not_found naming the id as sent', async () => {
    await create();
    for (const id of ['0', '-1', '7', 'abc', 'w99', '1-']) {
      await assert.rejects(server.call('workspace.get', { workspace_id: id }), (error: HerdrError) => {
        assert.equal(error.code, 'workspace_not_found');
        assert.equal(error.response.error.message, `workspace ${id} not found`);
        return true;
      });
    }
    for (const id of ['1-99', '1-0', '0-1', '2-1', 'x', 'w1:p99']) {
      await assert.rejects(server.call('pane.get', { pane_id: id }), (error: HerdrError) => {
        assert.equal(error.code, 'pane_not_found');
        assert.equal(error.response.error.message, `pane ${id} not found`);
        return true;
      });
    }
  });

  it('the first workspace becomes active; later ones only with focus:true', async () => {
    await create(false);
    assert.deepEqual(await focused(), { workspace: ['1'], pane: ['1-1'] });
    await create(false);
    assert.deepEqual(await focused(), { workspace: ['1'], pane: ['1-1'] });
    await create(true);
    assert.deepEqual(await focused(), { workspace: ['3'], pane: ['3-1'] });
    await server.call('workspace.focus', { workspace_id: '2' });
    assert.deepEqual(await focused(), { workspace: ['2'], pane: ['2-1'] });
  });

  it('split focuses the target first, and the new pane only with focus:true', async () => {
    await create();
    await server.call('pane.split', { target_pane_id: '1-1', direction: 'right', focus: true });
    assert.deepEqual((await focused()).pane, ['1-2']);
    await server.call('pane.split', { target_pane_id: '1-1', direction: 'down' });
    assert.deepEqual((await focused()).pane, ['1-1']);
    const { panes } = await server.call('pane.list', { workspace_id: '1' });
    assert.deepEqual(panes.map((p) => p.pane_id), ['1-1', '1-3', '1-2']);
  });

  it('closing the focused pane focuses the next in layout order, or the previous if it was last', async () => {
    await create();
    await server.call('pane.split', { target_pane_id: '1-1', direction: 'right' }); // 1-1, 1-2
    await server.call('pane.split', { target_pane_id: '1-2', direction: 'down', focus: true }); // 1-1, 1-2, 1-3
    await server.call('pane.split', { target_pane_id: '1-1', direction: 'down', focus: false }); // 1-1, 1-4, 1-2, 1-3
    await server.call('workspace.focus', { workspace_id: '1' });
    await server.call('pane.split', { target_pane_id: '1-4', direction: 'right' }); // focus 1-4
    // layout: 1-1, 1-4, 1-5, 1-2, 1-3
    await server.call('pane.close', { pane_id: '1-4' });
    // renumbered: old 1-5 → 1-4; next in layout after the closed one was old 1-5
    assert.deepEqual((await focused()).pane, ['1-4']);
    await server.call('pane.split', { target_pane_id: '1-3', direction: 'right', focus: true }); // last in layout, 1-5
    await server.call('pane.close', { pane_id: '1-5' });
    assert.deepEqual((await focused()).pane, ['1-3'], 'the previous pane when the closed one was last');
  });

  it('closing an inactive workspace keeps the active one; closing the active one activates its successor', async () => {
    await create();
    await create();
    await create();
    await server.call('workspace.focus', { workspace_id: '3' });
    await server.call('workspace.close', { workspace_id: '1' });
    assert.deepEqual((await focused()).workspace, ['2'], 'old 3 is now 2 and still active');
    await server.call('workspace.focus', { workspace_id: '1' });
    await server.call('workspace.close', { workspace_id: '1' });
    assert.deepEqual((await focused()).workspace, ['1'], 'the workspace now at that position');
    await create();
    await server.call('workspace.focus', { workspace_id: '2' });
    await server.call('workspace.close', { workspace_id: '2' });
    assert.deepEqual((await focused()).workspace, ['1'], 'the new last one');
    await server.call('workspace.close', { workspace_id: '1' });
    assert.deepEqual(await focused(), { workspace: [], pane: [] });
  });

  it('closing the only pane closes its workspace', async () => {
    await create();
    await server.call('pane.close', { pane_id: '1-1' });
    assert.deepEqual((await server.call('workspace.list', {})).workspaces, []);
  });

  it('labels: git root name, ~, basename, rename; following cd', async () => {
    const repo = join(server.dir, 'myrepo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    mkdirSync(join(server.dir, 'plain'));
    const label = async (id: string) => (await server.call('workspace.get', { workspace_id: id })).workspace.label;

    const inRepo = await server.call('workspace.create', { cwd: join(repo, 'src', 'deep') });
    assert.equal(inRepo.workspace.label, 'myrepo');
    const plain = await server.call('workspace.create', { cwd: join(server.dir, 'plain') });
    assert.equal(plain.workspace.label, 'plain');
    const home = await server.call('workspace.create', { cwd: homedir() });
    assert.equal(home.workspace.label, '~');
    const root = await server.call('workspace.create', { cwd: '/' });
    assert.equal(root.workspace.label, '/');
    const named = await server.call('workspace.create', { cwd: '/', label: 'fixed' });
    assert.equal(named.workspace.label, 'fixed');

    await server.call('pane.send_input', { pane_id: '2-1', text: `cd ${repo}` });
    await eventually(async () => (await label('2')) === 'myrepo', 'label to follow cd');
    await server.call('workspace.rename', { workspace_id: '2', label: '' });
    assert.equal(await label('2'), '');
    await server.call('pane.send_input', { pane_id: '2-1', text: 'cd /' });
    await readUntil(server, '2-1', (t) => /cd \/\n[#$] $/.test(t) || /cd \/\n.*\n?$/.test(t));
    assert.equal(await label('2'), '', 'a rename is kept forever');
  });

  it('cwd is in the first response; split starts in the target pane\'s current directory', async () => {
    const sub = join(server.dir, 'sub');
    mkdirSync(sub);
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const { pane } = await server.call('pane.get', { pane_id: '1-1' });
    assert.equal(pane.cwd, realpathSync(server.dir));
    assert.equal(workspace.pane_count, 1);
    await server.call('pane.send_input', { pane_id: '1-1', text: 'cd sub' });
    await eventually(async () => (await server.call('pane.get', { pane_id: '1-1' })).pane.cwd === sub, 'cwd to follow cd');
    const { pane: child } = await server.call('pane.split', { target_pane_id: '1-1', direction: 'down' });
    assert.equal(child.cwd, sub);
    const { pane: explicit } = await server.call('pane.split', { target_pane_id: '1-1', direction: 'down', cwd: '/' });
    assert.equal(explicit.cwd, '/');
  });

  it('a bad cwd or command fails the create/split and changes nothing', async () => {
    await assert.rejects(server.call('workspace.create', { cwd: '/no/such/dir' }), /workspace_create_failed.*\/no\/such\/dir/);
    await assert.rejects(server.call('workspace.create', { cwd: server.dir, command: ['no-such-program-xyz'] }), /workspace_create_failed.*no-such-program-xyz/);
    assert.deepEqual((await server.call('workspace.list', {})).workspaces, []);
    await create();
    await assert.rejects(server.call('pane.split', { target_pane_id: '1-1', direction: 'right', cwd: '/etc/passwd' }), /pane_split_failed/);
    assert.equal((await server.call('pane.list', {})).panes.length, 1);
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    assert.equal(workspace.workspace_id, '2', 'failed creates used no position');
  });

  it('a pane whose process exits is removed, renumbering the others', async () => {
    await create();
    await server.call('pane.split', { target_pane_id: '1-1', direction: 'right', command: ['/bin/sh', '-c', 'sleep 0.3; exit 3'] });
    await server.call('pane.split', { target_pane_id: '1-1', direction: 'right' });
    assert.equal((await server.call('pane.list', {})).panes.length, 3);
    await eventually(async () => (await server.call('pane.list', {})).panes.length === 2, 'the exited pane to go');
    const { panes } = await server.call('pane.list', {});
    assert.deepEqual(panes.map((p) => p.pane_id).sort(), ['1-1', '1-2']);
    await server.call('pane.send_input', { pane_id: '1-1', text: 'exit' });
    await eventually(async () => (await server.call('workspace.get', { workspace_id: '1' })).workspace.pane_count === 1, 'shell exit');
  });
});
