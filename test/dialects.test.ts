/**
 * docs/protocol.md §15: one server, two dialects. The socket a client connects to, or
 * its request's `protocol`, decides what it is answered in: herdr 0.2.0's (compact ids,
 * `workspace_info` from workspace.create, no protocol number) or herdr's current one
 * (stable ids everywhere, `workspace_created`, protocol 22). Both see the same server.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventClient } from './helpers/events.js';
import { type TestServer, eventually, oneAnswer, promptShown, rawExchange, readUntil, startServer } from './helpers/server.js';

/** One request on a fresh connection to `socket`, with extra envelope keys; the answer line. */
const ask = (socket: string, method: string, params: object = {}, envelope: object = {}) => oneAnswer(socket, { id: 'd', method, params, ...envelope });

const CAPABILITIES = { live_handoff: false, detached_server_daemon: false, surface_interest: false, health_check: false, client_window_title: false, popups: false, agent_view: false, pane_graphics: false };

describe('protocol dialects', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('ping says which dialect a connection is answered in: 0 on the socket, 22 beside it', async () => {
    assert.deepEqual((await ask(server.socketPath, 'ping')).result, { type: 'pong', version: (await ask(server.socketPath, 'ping')).result.version, protocol: 0, capabilities: CAPABILITIES, dialect: '0.2.0' });
    const current = await ask(server.currentSocketPath, 'ping');
    assert.equal(current.result.protocol, 22);
    assert.equal(current.result.dialect, 'current');
    assert.deepEqual(current.result.capabilities, CAPABILITIES);
    assert.equal((await ask(server.socketPath, 'ping', {}, { protocol: 22 })).result.protocol, 22, 'a request may say it itself');
    assert.equal((await ask(server.currentSocketPath, 'ping', {}, { protocol: 0 })).result.protocol, 0);
    assert.equal((await ask(server.currentSocketPath, 'ping', {}, { protocol: 20 })).result.protocol, 22, 'herdr 0.8.2\'s number is answered in the current shapes');
  });

  it('a protocol it does not speak is refused with the request\'s id, and nothing happens', async () => {
    for (const protocol of [7, 23, '22', -1, 1.5, true]) {
      const answer = await ask(server.socketPath, 'workspace.create', { cwd: server.dir }, { protocol });
      assert.equal(answer.id, 'd');
      assert.equal(answer.error?.code, 'invalid_request', JSON.stringify(protocol));
      assert.match(answer.error.message, /is not spoken here: 0 \(herdr 0\.2\.0\) or 20, 21, 22/);
    }
    assert.deepEqual((await server.call('workspace.list', {})).workspaces, []);
    assert.equal((await ask(server.socketPath, 'ping', {}, { protocol: null })).result.protocol, 0, 'null says nothing');
  });

  it('workspace.create: workspace_info to a 0.2.0 client, workspace_created {workspace, tab, root_pane} to a current one', async () => {
    const old = await ask(server.socketPath, 'workspace.create', { cwd: server.dir });
    assert.equal(old.result.type, 'workspace_info');
    assert.deepEqual(Object.keys(old.result), ['type', 'workspace']);
    assert.equal(old.result.workspace.workspace_id, '1');

    const current = await ask(server.currentSocketPath, 'workspace.create', { cwd: server.dir, label: 'now' });
    assert.equal(current.result.type, 'workspace_created');
    const { workspace, tab, root_pane: root } = current.result;
    assert.match(workspace.workspace_id, /^w\d+$/);
    assert.equal(tab.tab_id, `${workspace.workspace_id}:t1`);
    assert.equal(tab.workspace_id, workspace.workspace_id);
    assert.match(root.pane_id, new RegExp(`^${workspace.workspace_id}:p\\d+$`));
    assert.equal(root.tab_id, tab.tab_id);
    // The same workspace, seen by both.
    const seenOld = await ask(server.socketPath, 'workspace.get', { workspace_id: workspace.workspace_id });
    assert.equal(seenOld.result.workspace.workspace_id, '2');
    assert.equal(seenOld.result.workspace.stable_id, workspace.workspace_id);
    await server.call('workspace.close', { workspace_id: old.result.workspace.stable_id });
    await server.call('workspace.close', { workspace_id: workspace.workspace_id });
  });

  it('a current client\'s ids are stable in every answer and event, so closing one pane never re-targets another', async () => {
    const events = await EventClient.subscribe(server.currentSocketPath, {
      subscriptions: [{ type: 'pane.created' }, { type: 'pane.closed' }, { type: 'workspace.created' }, { type: 'tab.created' }],
    });
    const old = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.created' }, { type: 'pane.closed' }] });
    try {
      const created = (await ask(server.currentSocketPath, 'workspace.create', { cwd: server.dir })).result;
      const ws = created.workspace.workspace_id as string;
      const first = created.root_pane.pane_id as string;
      const split = (await ask(server.currentSocketPath, 'pane.split', { target_pane_id: first, direction: 'right' })).result.pane;
      const third = (await ask(server.currentSocketPath, 'pane.split', { target_pane_id: split.pane_id, direction: 'down' })).result.pane;
      assert.match(third.pane_id, /^w\d+:p\d+$/);
      await ask(server.currentSocketPath, 'pane.close', { pane_id: split.pane_id });
      // A 0.2.0 client's `1-3` is now `1-2`; the current client's id still names the same pane.
      const again = (await ask(server.currentSocketPath, 'pane.get', { pane_id: third.pane_id })).result.pane;
      assert.equal(again.pane_id, third.pane_id);
      assert.equal((await ask(server.socketPath, 'pane.get', { pane_id: third.pane_id })).result.pane.pane_id, '1-2');

      const lines = await events.until((all) => all.some((line) => line.event === 'pane_closed'), 'pane_closed');
      const ids = lines.map((line) => {
        const data = line.data as Record<string, any>;
        return data.pane?.pane_id ?? data.pane_id ?? data.workspace?.workspace_id ?? data.tab?.tab_id;
      });
      assert.deepEqual(lines.map((line) => line.event), ['workspace_created', 'tab_created', 'pane_created', 'pane_created', 'pane_created', 'pane_closed']);
      assert.deepEqual(ids, [ws, `${ws}:t1`, first, split.pane_id, third.pane_id, split.pane_id]);
      assert.equal((lines[5]?.data as Record<string, string>).workspace_id, ws);
      const oldLines = await old.until((all) => all.some((line) => line.event === 'pane_closed'), 'the 0.2.0 subscriber\'s pane_closed');
      assert.deepEqual(oldLines.map((line) => (line.data as Record<string, any>).pane?.pane_id ?? (line.data as Record<string, any>).pane_id), ['1-1', '1-2', '1-3', '1-2']);
      assert.deepEqual(oldLines.map((line) => line.seq), lines.filter((line) => line.event.startsWith('pane_')).map((line) => line.seq), 'the same events');

      const snapshot = (await ask(server.currentSocketPath, 'session.snapshot')).result.snapshot;
      assert.equal(snapshot.protocol, 22);
      assert.equal(snapshot.focused_workspace_id, ws);
      assert.ok(snapshot.panes.every((pane: { pane_id: string; workspace_id: string }) => pane.pane_id.startsWith(`${ws}:p`) && pane.workspace_id === ws));
      assert.ok(snapshot.layouts.every((layout: { tab_id: string; workspace_id: string }) => layout.workspace_id === ws && layout.tab_id === `${ws}:t1`));
      await ask(server.currentSocketPath, 'workspace.close', { workspace_id: ws });
    } finally {
      events.close();
      old.close();
    }
  });

  it('title: the terminal\'s own to a 0.2.0 client; the reported one to a current client, the terminal\'s as terminal_title', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const pane = `${workspace.stable_id}:p${(await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id.split(':p')[1]}`;
    await promptShown(server, pane);
    await server.call('pane.send_input', { pane_id: pane, text: String.raw`printf '\033]2;built-by-osc\007'; echo set`, keys: ['Enter'] });
    await readUntil(server, pane, (text) => /^set$/m.test(text));
    await server.call('pane.report_metadata', { pane_id: pane, source: 'dialects', title: 'Fixing the build' });
    // pane.get answers from the main thread's cache, which may lag the pane by a few ms (§4).
    await eventually(async () => (await server.call('pane.get', { pane_id: pane })).pane.terminal_title === 'built-by-osc', 'the terminal title');
    const { pane: seenOld } = (await ask(server.socketPath, 'pane.get', { pane_id: pane })).result;
    const { pane: seenNew } = (await ask(server.currentSocketPath, 'pane.get', { pane_id: pane })).result;
    assert.equal(seenOld.title, 'built-by-osc');
    assert.equal(seenOld.terminal_title, 'built-by-osc');
    assert.equal(seenNew.title, 'Fixing the build');
    assert.equal(seenNew.terminal_title, 'built-by-osc');
    // A keep-alive connection that said `protocol` once is answered so from then on.
    const { lines } = await rawExchange(
      server.socketPath,
      [
        { id: 'a', method: 'pane.get', params: { pane_id: pane }, keep_alive: true, protocol: 22 },
        { id: 'b', method: 'pane.get', params: { pane_id: pane } },
      ].map((request) => `${JSON.stringify(request)}\n`).join(''),
      1500,
    );
    assert.deepEqual(lines.map((line) => JSON.parse(line).result.pane.pane_id), [pane, pane]);
    await server.call('workspace.close', { workspace_id: workspace.stable_id });
  });

  it('herdr\'s current pane.split params, on either socket: no target (the focused pane), workspace_id, ratio', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: true });
    const first = (await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id ?? '';
    const split = await ask(server.socketPath, 'pane.split', { direction: 'down', ratio: 0.25 });
    assert.equal(split.result?.pane.stable_id.split(':')[0], workspace.stable_id, 'the focused pane was split');
    const { layout } = await server.call('layout.export', { pane_id: first });
    assert.deepEqual([layout.root.type === 'split' && layout.root.ratio], [0.25]);
    const other = (await server.call('workspace.create', { cwd: server.dir })).workspace;
    const there = await ask(server.currentSocketPath, 'pane.split', { workspace_id: other.stable_id, direction: 'right' });
    assert.equal(there.result?.pane.workspace_id, other.stable_id, 'that workspace\'s focused pane, though another workspace is active');
    for (const ratio of [0, 1, 1.5, '0.5']) assert.equal((await ask(server.socketPath, 'pane.split', { direction: 'right', ratio })).error?.code, 'invalid_request', String(ratio));
    await server.call('workspace.close', { workspace_id: other.stable_id });
    await server.call('workspace.close', { workspace_id: workspace.stable_id });
  });

  it('agent_session: {id?, path?} to a 0.2.0 client, herdr\'s {source, agent, kind, value} to a current one', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const pane = (await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id ?? '';
    await server.call('pane.report_agent', { pane_id: pane, source: 'herdr:mybot', agent: 'mybot', state: 'working', agent_session_id: 's-42', agent_session_path: '/tmp/s-42.jsonl' });
    await eventually(async () => (await server.call('pane.get', { pane_id: pane })).pane.agent_session?.id === 's-42', 'the session');
    assert.deepEqual((await ask(server.socketPath, 'pane.get', { pane_id: pane })).result.pane.agent_session, { id: 's-42', path: '/tmp/s-42.jsonl' });
    assert.deepEqual((await ask(server.currentSocketPath, 'pane.get', { pane_id: pane })).result.pane.agent_session, { source: 'herdr:mybot', agent: 'mybot', kind: 'id', value: 's-42' });
    await server.call('workspace.close', { workspace_id: workspace.stable_id });
  });

  it('an error names a pane the server found as the client names panes: positions only for a 0.2.0 request that wrote one', async () => {
    const made = await ask(server.socketPath, 'workspace.create', { cwd: server.dir, label: 'errors' });
    const { workspace_id: position, stable_id: stable } = made.result.workspace as { workspace_id: string; stable_id: string };
    const answer = { option: '1', question_hash: '0123456789abcdef' };
    const messageOf = async (socket: string, paneId: string) => ((await ask(socket, 'approvals.answer', { pane_id: paneId, ...answer })).error as { code: string; message: string });
    const compact = await messageOf(server.socketPath, `${position}-1`);
    assert.equal(compact.code, 'approval_not_blocked');
    // Not "pane 1-1 is unknown, not blocked", which read as "no such pane".
    assert.equal(compact.message, `pane ${position}-1 hosts no agent, so nothing there waits for an answer: nothing was typed`);
    assert.equal((await messageOf(server.socketPath, `${stable}:p1`)).message, `pane ${stable}:p1 hosts no agent, so nothing there waits for an answer: nothing was typed`);
    assert.equal((await messageOf(server.currentSocketPath, `${position}-1`)).message, `pane ${stable}:p1 hosts no agent, so nothing there waits for an answer: nothing was typed`);
    await ask(server.socketPath, 'workspace.close', { workspace_id: stable });
  });

  it('foreground_cwd: the directory of the program in front, the pane\'s own once it is gone', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const pane = (await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id ?? '';
    await promptShown(server, pane);
    const inside = join(server.dir, 'inside');
    mkdirSync(inside);
    await server.call('pane.send_input', { pane_id: pane, text: `(cd ${inside} && exec sleep 30)`, keys: ['Enter'] });
    await eventually(async () => (await server.call('pane.get', { pane_id: pane })).pane.foreground_cwd === realpathSync(inside), 'the sleeper\'s directory', 10_000);
    assert.equal((await server.call('pane.get', { pane_id: pane })).pane.cwd, realpathSync(server.dir), 'the pane\'s own directory did not move');
    await server.call('pane.send_keys', { pane_id: pane, keys: ['C-c'] });
    await eventually(async () => (await server.call('pane.get', { pane_id: pane })).pane.foreground_cwd === realpathSync(server.dir), 'the shell in front again', 10_000);
    await server.call('workspace.close', { workspace_id: workspace.stable_id });
  });

  it('a pane knows where the current socket is; --no-current-socket listens on the one socket only', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const pane = `${workspace.stable_id}:p${(await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id.split(':p')[1]}`;
    await promptShown(server, pane);
    await server.call('pane.send_input', { pane_id: pane, text: 'echo "current=$HERDR_CURRENT_SOCKET_PATH"', keys: ['Enter'] });
    await readUntil(server, pane, (text) => text.includes(`current=${server.currentSocketPath}`));
    await server.call('workspace.close', { workspace_id: workspace.stable_id });

    const single = await startServer({ serverArgs: ['--no-current-socket'] });
    try {
      assert.ok(!existsSync(single.currentSocketPath));
      assert.equal((await ask(single.socketPath, 'ping', {}, { protocol: 22 })).result.protocol, 22, 'a request can still say it');
    } finally {
      await single.stop();
    }
    assert.ok(existsSync(server.currentSocketPath));
  });
});
