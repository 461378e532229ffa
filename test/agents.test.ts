/** docs/protocol.md §10 end to end: fake agents first on PATH, detection, events, aggregate, CLI (§12 cases 3, 4, 8). */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, type TestServer, eventually, herdrCli, newWorkspace, startServer } from './helpers/server.js';

const FAKE_AGENTS = join(REPO_ROOT, 'test', 'fixtures', 'bin');

async function withAgents(run: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startServer({ env: { PATH: `${FAKE_AGENTS}:${process.env.PATH}` } });
  try {
    await run(server);
  } finally {
    await server.stop();
  }
}

const paneState = async (server: TestServer, paneId: string) => {
  const { pane } = await server.call('pane.get', { pane_id: paneId });
  return { agent: pane.agent, state: pane.agent_state };
};

describe('agent detection', () => {
  it('case 3: pane_agent_detected with agent "pi", and without agent after it leaves', () =>
    withAgents(async (server) => {
      const { paneId } = await newWorkspace(server);
      const stream = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_detected' }] });
      await server.call('pane.send_input', { pane_id: paneId, text: 'pi' });
      const [detected] = await stream.until((e) => e.length >= 1, 'pi to be detected');
      assert.deepEqual(detected?.data, { type: 'pane_agent_detected', pane_id: paneId, workspace_id: '1', agent: 'pi' });
      const events = await stream.until((e) => e.length >= 2, 'pi to leave (after its 3 s linger)', 15_000);
      assert.deepEqual(events[1]?.data, { type: 'pane_agent_detected', pane_id: paneId, workspace_id: '1' });
      assert.deepEqual(await paneState(server, paneId), { agent: undefined, state: 'unknown' });
      stream.close();
    }));

  it('case 4: after the output match, the very next line is idle with agent "pi"', () =>
    withAgents(async (server) => {
      const { paneId } = await newWorkspace(server);
      const stream = await EventClient.subscribe(server.socketPath, {
        subscriptions: [
          { type: 'pane.output_matched', pane_id: paneId, source: 'recent', match: { type: 'substring', value: 'hello from socket' } },
          { type: 'pane.agent_state_changed', pane_id: paneId, state: 'idle' },
        ],
      });
      await server.call('pane.send_input', { pane_id: paneId, text: 'echo hello from socket' });
      await stream.until((e) => e.length >= 1, 'the output match');
      await server.call('pane.send_input', { pane_id: paneId, text: 'pi' });
      const events = await stream.until((e) => e.length >= 2, 'pi to finish', 15_000);
      assert.equal(events[0]?.event, 'pane.output_matched');
      assert.deepEqual(events[1], { event: 'pane.agent_state_changed', data: { pane_id: paneId, workspace_id: '1', state: 'idle', agent_status: 'done', agent: 'pi' }, seq: events[1]?.seq });
      stream.close();
    }));

  it('case 8: pane run pi, then wait agent-state idle exits 0 with agent pi', () =>
    withAgents(async (server) => {
      // The caller's PATH finds them: a pane the CLI creates gets it (docs/protocol.md §11).
      const herdr = herdrCli(server, { PATH: `${FAKE_AGENTS}:${process.env.PATH}` });
      await herdr('workspace', 'create', '--cwd', server.dir);
      await herdr('pane', 'run', '1-1', 'pi');
      const { stdout } = await herdr('wait', 'agent-state', '1-1', '--state', 'idle', '--timeout', '5000');
      const event = JSON.parse(stdout);
      assert.equal(event.event, 'pane.agent_state_changed');
      assert.equal(event.data.state, 'idle');
      assert.equal(event.data.agent, 'pi');
    }));

  it('a node script named codex is codex: working, then blocked on [y/N]; the workspace shows blocked', () =>
    withAgents(async (server) => {
      const { paneId } = await newWorkspace(server);
      const stream = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_state_changed', pane_id: paneId }] });
      await server.call('pane.send_input', { pane_id: paneId, text: 'codex' });
      const events = await stream.until((e) => e.some((x) => (x.data as { state: string }).state === 'blocked'), 'codex to ask');
      assert.deepEqual(events.map((e) => (e.data as { state: string }).state), ['working', 'blocked']);
      assert.deepEqual(await paneState(server, paneId), { agent: 'codex', state: 'blocked' });
      assert.equal((await server.call('workspace.get', { workspace_id: '1' })).workspace.agent_state, 'blocked');
      stream.close();
    }));

  it('claude: working while it thinks, then blocked on its permission prompt', () =>
    withAgents(async (server) => {
      const { paneId } = await newWorkspace(server);
      const stream = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_state_changed', pane_id: paneId }] });
      await server.call('pane.send_input', { pane_id: paneId, text: 'claude' });
      const events = await stream.until((e) => e.some((x) => (x.data as { state: string }).state === 'blocked'), 'claude to ask');
      assert.deepEqual(events.map((e) => (e.data as { state: string }).state), ['working', 'blocked']);
      assert.deepEqual(await paneState(server, paneId), { agent: 'claude', state: 'blocked' });
      stream.close();
    }));

  it('aggregate: an agent that finished in an inactive workspace is unseen and outranks working until focused', () =>
    withAgents(async (server) => {
      await newWorkspace(server, { focus: true });
      const { paneId: working } = await newWorkspace(server);
      const { pane } = await server.call('pane.split', { target_pane_id: working, direction: 'right' });
      await server.call('pane.send_input', { pane_id: working, text: 'amp' });
      await eventually(async () => (await paneState(server, working)).state === 'working', 'amp to work');
      await server.call('pane.send_input', { pane_id: pane.pane_id, text: 'pi' });
      await eventually(async () => (await paneState(server, pane.pane_id)).state === 'idle', 'pi to finish', 15_000);
      const workspace = async () => (await server.call('workspace.get', { workspace_id: '2' })).workspace.agent_state;
      assert.equal(await workspace(), 'idle', 'idle and unseen outranks working');
      await server.call('workspace.focus', { workspace_id: '2' });
      assert.equal(await workspace(), 'working', 'once seen, working outranks idle');
    }));
});
