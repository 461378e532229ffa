/**
 * Conformance with the clients people run against herdr's current protocol, written by
 * us from their documented behaviour (docs/protocol.md §15): the call sequences of a web
 * dashboard, a typed SDK and a CLI wrapper (an MCP server or autopilot shelling out to
 * `herdr`), each against a real server on the socket such clients are pointed at.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { HerdrClient } from '../src/client/client.js';
import { EventClient } from './helpers/events.js';
import { HERDR_BIN, REPO_ROOT, type TestServer, eventually, promptShown, startServer } from './helpers/server.js';

const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');
const PROTOCOL_BUILT_FOR = 22;

/** What a typed SDK for protocol 22 does before its first real call: ping, compare, refuse on a mismatch. */
async function connectLikeAnSdk(socketPath: string): Promise<HerdrClient> {
  const client = new HerdrClient({ socketPath });
  const pong = await client.ping();
  if (pong.protocol !== PROTOCOL_BUILT_FOR) {
    client.close();
    throw new Error(`incompatible herdr protocol: expected ${PROTOCOL_BUILT_FOR}, got ${pong.protocol}`);
  }
  assert.equal(typeof pong.capabilities, 'object', 'capabilities are read as a map of flags');
  return client;
}

interface Pane {
  pane_id: string;
  workspace_id: string;
  agent_status: string;
}

describe('clients of herdr\'s current protocol', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ env: { FAKE_AGENT_WORK_MS: '200' } });
  });
  after(() => server.stop());

  it('a dashboard: session.snapshot, then events.subscribe since its seq, keeps a view equal to a fresh snapshot', async () => {
    const sdk = await connectLikeAnSdk(server.currentSocketPath);
    try {
      await sdk.workspace.create({ cwd: server.dir, label: 'before' });
      const { snapshot } = await sdk.session.snapshot();
      const view = new Map<string, Pane>(snapshot.panes.map((pane) => [pane.pane_id, pane as Pane]));
      // Something happens between the snapshot and the subscription: `since` must bring it.
      const between = await sdk.workspace.create({ cwd: server.dir, label: 'between' });
      assert.equal(between.type, 'workspace_created');
      const events = await EventClient.subscribe(server.currentSocketPath, {
        since: snapshot.seq,
        subscriptions: [{ type: 'pane.created' }, { type: 'pane.closed' }, { type: 'pane.agent_status_changed' }],
      });
      try {
        const workspace = between.type === 'workspace_created' ? between.workspace.workspace_id : '';
        const root = between.type === 'workspace_created' ? between.root_pane.pane_id : '';
        await sdk.pane.split({ target_pane_id: root, direction: 'right', cwd: server.dir });
        const first = snapshot.panes[0]?.pane_id ?? '';
        await sdk.pane.close({ pane_id: first });
        await events.until((lines) => lines.filter((line) => line.event === 'pane_created').length === 2 && lines.some((line) => line.event === 'pane_closed'), 'the changes');
        for (const line of events.events) {
          const data = line.data as { pane?: Pane; pane_id?: string; agent_status?: string };
          if (line.event === 'pane_created' && data.pane) view.set(data.pane.pane_id, data.pane);
          if (line.event === 'pane_closed' && data.pane_id) view.delete(data.pane_id);
        }
        const fresh = (await sdk.session.snapshot()).snapshot;
        assert.deepEqual([...view.keys()].sort(), fresh.panes.map((pane) => pane.pane_id).sort());
        assert.ok([...view.keys()].every((id) => /^w\d+:p\d+$/.test(id)), 'stable ids, which a dashboard keys its tiles by');
        assert.ok(fresh.tabs.some((tab) => tab.workspace_id === workspace));
        await sdk.workspace.close({ workspace_id: workspace });
      } finally {
        events.close();
      }
    } finally {
      sdk.close();
    }
  });

  it('a typed SDK: ping and check, then create, read, wait, close; the same SDK refuses the 0.2.0 socket', async () => {
    await assert.rejects(connectLikeAnSdk(server.socketPath), /expected 22, got 0/);
    const sdk = await connectLikeAnSdk(server.currentSocketPath);
    try {
      const created = await sdk.workspace.create({ cwd: server.dir });
      assert.equal(created.type, 'workspace_created');
      if (created.type !== 'workspace_created') return;
      const pane = created.root_pane.pane_id;
      assert.equal(created.tab.tab_id, created.root_pane.tab_id);
      await promptShown(server, pane);
      await sdk.pane.sendInput({ pane_id: pane, text: 'echo sdk-$((20 + 2))', keys: ['Enter'] });
      const matched = await sdk.pane.waitForOutput({ pane_id: pane, source: 'recent', match: { type: 'substring', value: 'sdk-22' }, timeout_ms: 10_000 });
      assert.equal(matched.pane_id, pane);
      const { read } = await sdk.pane.read({ pane_id: pane, source: 'recent', lines: 20 });
      assert.equal(read.pane_id, pane);
      assert.match(read.text, /^sdk-22$/m);

      // An agent in a new tab, waited for with herdr's own wait kind.
      const tab = await sdk.tab.create({ workspace_id: created.workspace.workspace_id, cwd: server.dir, command: [FAKE_AGENT], focus: true });
      const agentPane = tab.root_pane.pane_id;
      await eventually(async () => (await sdk.pane.get({ pane_id: agentPane })).pane.agent_status === 'idle', 'the fake agent idle');
      const working = sdk.events.wait({ match_event: { event: 'pane_agent_status_changed', pane_id: agentPane, agent_status: 'working' }, timeout_ms: 10_000 });
      await eventually(async () => (await sdk.server.stats()).waits === 1, 'the wait to be open');
      await sdk.pane.sendInput({ pane_id: agentPane, text: 'work 200 from the sdk', keys: ['Enter'] });
      const waited = await working;
      assert.equal(waited.type, 'wait_matched');
      assert.deepEqual(
        { event: waited.event.event, pane: (waited.event.data as { pane_id?: string }).pane_id },
        { event: 'pane_agent_status_changed', pane: agentPane },
      );
      assert.deepEqual((await sdk.workspace.close({ workspace_id: created.workspace.workspace_id })).type, 'ok');
    } finally {
      sdk.close();
    }
  });

  it('a CLI wrapper: status, workspace create, agent start/prompt/wait/read, tab list, pane run and wait-output, by herdr\'s argv', async () => {
    const herdr = async (...args: string[]) => {
      const { stdout } = await promisify(execFile)(process.execPath, [HERDR_BIN, ...args], {
        cwd: server.dir,
        env: { ...process.env, HERDR_SOCKET_PATH: server.currentSocketPath },
      });
      return stdout;
    };
    const status = JSON.parse(await herdr('status', '--json')) as { server: { running: boolean; protocol: number; compatible: boolean } };
    assert.deepEqual([status.server.running, status.server.protocol, status.server.compatible], [true, 22, true]);

    const created = JSON.parse(await herdr('workspace', 'create', '--cwd', server.dir, '--label', 'wrapped')) as { id: string; result: { type: string; root_pane: { pane_id: string }; workspace: { workspace_id: string } } };
    assert.equal(created.id, 'cli:workspace:create');
    assert.equal(created.result.type, 'workspace_created');
    const ws = created.result.workspace.workspace_id;

    const started = JSON.parse(await herdr('agent', 'start', 'wrapped', '--cwd', server.dir, '--', FAKE_AGENT)) as { result: { agent: { name: string; pane_id: string } } };
    assert.equal(started.result.agent.name, 'wrapped');
    assert.match(started.result.agent.pane_id, /^w\d+:p\d+$/);
    const prompted = JSON.parse(await herdr('agent', 'prompt', 'wrapped', 'work 200 from a wrapper')) as { result: { type: string } };
    assert.equal(prompted.result.type, 'agent_prompted', 'without --wait: the answer once the text is typed');
    // `done`: the turn finished and nobody looked yet; it cannot be the idle from before the prompt.
    const waited = JSON.parse(await herdr('agent', 'wait', 'wrapped', '--until', 'done', '--timeout', '10000')) as { result: { agent: { agent_status: string } } };
    assert.equal(waited.result.agent.agent_status, 'done');
    assert.match(await herdr('agent', 'read', 'wrapped', '--source', 'recent'), /answer: from a wrapper \(1\)/);

    const tabs = JSON.parse(await herdr('tab', 'list', '--workspace', ws)) as { result: { type: string; tabs: Array<{ tab_id: string }> } };
    assert.equal(tabs.result.type, 'tab_list');
    assert.deepEqual(tabs.result.tabs.map((tab) => tab.tab_id), [`${ws}:t1`]);

    const pane = created.result.root_pane.pane_id;
    await promptShown(server, pane);
    assert.equal(await herdr('pane', 'run', pane, 'echo wrapped-$((40 + 2))'), '', 'pane run prints nothing');
    const output = JSON.parse(await herdr('pane', 'wait-output', pane, '--match', 'wrapped-42', '--timeout', '10000')) as { result: { type: string; pane_id: string } };
    assert.deepEqual([output.result.type, output.result.pane_id], ['output_matched', pane]);
    assert.match(await herdr('pane', 'read', pane, '--source', 'recent', '--lines', '10'), /^wrapped-42$/m);
    await herdr('workspace', 'close', ws);
    await herdr('pane', 'close', started.result.agent.pane_id);
  });
});
