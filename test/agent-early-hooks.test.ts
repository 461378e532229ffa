/**
 * docs/protocol.md §10.5, reports that arrive before the detector has seen their agent:
 * sent while the pane's shell is in front, they are applied at once, go with the program
 * the shell starts next, and stay in charge once the detector sees that it is the agent.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PaneInfo } from '../src/protocol/objects.js';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, type TestServer, eventually, newWorkspace, promptShown, sleep, startServer } from './helpers/server.js';

/** A fake `qwen` (and the other fake agents) first on PATH. */
const FAKE_AGENTS = join(REPO_ROOT, 'test', 'fixtures', 'bin');
/** Nanosecond-clock seqs, as integrations send them. */
let clock = 1_800_000_000_000_000_000n;
const seq = () => (clock += 1_000n);

let server: TestServer;

const paneOf = async (paneId: string): Promise<PaneInfo> => (await server.call('pane.get', { pane_id: paneId })).pane;
const agentFields = (pane: PaneInfo) => ({
  agent: pane.agent,
  agent_state: pane.agent_state,
  agent_source: pane.agent_source,
  agent_session: pane.agent_session,
});
const explain = async (paneId: string) => (await server.call('agent.explain', { target: paneId })).explain;

/** A fresh pane whose shell is in front and at its prompt. */
async function shellPane(): Promise<string> {
  const { paneId } = await newWorkspace(server);
  await promptShown(server, paneId);
  return paneId;
}

describe('hook reports before the detector has seen the agent', () => {
  before(async () => {
    server = await startServer({ env: { PATH: `${FAKE_AGENTS}:${process.env.PATH}` } });
  });
  after(() => server.stop());

  it('a report for qwen made while the shell is in front shows at once and stays in charge when qwen starts and is detected', async () => {
    const paneId = await shellPane();
    const stream = await EventClient.subscribe(server.socketPath, {
      subscriptions: [{ type: 'pane.agent_detected', pane_id: paneId }, { type: 'pane.agent_state_changed', pane_id: paneId }],
    });
    await server.call('pane.report_agent', {
      pane_id: paneId,
      source: 'herdr:qwen',
      agent: 'qwen',
      state: 'working',
      seq: seq(),
      agent_session_id: 'session-1',
    });
    const claimed = { agent: 'qwen', agent_state: 'working', agent_source: 'hook', agent_session: { id: 'session-1' } };
    await eventually(async () => JSON.stringify(agentFields(await paneOf(paneId))) === JSON.stringify(claimed), 'the early report to show');
    assert.equal((await explain(paneId)).detected, undefined, 'the shell is still in front');

    // The program that becomes qwen starts (a launcher that waits, then execs it, in one process group);
    // every look while it does, and after qwen is detected, shows the hook's claim.
    await server.call('pane.send_input', { pane_id: paneId, text: "sh -c 'sleep 1.5; exec qwen'" });
    const seen: string[] = [];
    await eventually(async () => {
      seen.push(JSON.stringify(agentFields(await paneOf(paneId))));
      return (await explain(paneId)).detected === 'qwen';
    }, 'qwen to be detected');
    await sleep(1500); // past the next 1 s process check
    seen.push(JSON.stringify(agentFields(await paneOf(paneId))));
    assert.deepEqual([...new Set(seen)], [JSON.stringify(claimed)]);
    const why = await explain(paneId);
    assert.equal(why.decided_by, 'hook');
    assert.deepEqual(why.hook, { source: 'herdr:qwen', agent: 'qwen', state: 'working' });

    // The claim is now the detected agent's: the same source's next report applies.
    await server.call('pane.report_agent', { pane_id: paneId, source: 'herdr:qwen', agent: 'qwen', state: 'blocked', seq: seq(), message: 'Allow ls?' });
    await eventually(async () => (await paneOf(paneId)).agent_state === 'blocked', 'the follow-up report');

    // One detection (qwen, from the report) and no state change but the ones reported.
    const events = stream.events;
    assert.deepEqual(events.filter((e) => e.event === 'pane_agent_detected').map((e) => (e.data as { agent?: string }).agent), ['qwen']);
    assert.deepEqual(events.filter((e) => e.event === 'pane.agent_state_changed').map((e) => (e.data as { state: string }).state), ['working', 'blocked']);
    stream.close();

    // qwen leaves: after its linger the claim and session go with it.
    await server.call('pane.send_keys', { pane_id: paneId, keys: ['C-c'] });
    await eventually(async () => (await paneOf(paneId)).agent === undefined, 'qwen to leave', 10_000);
    assert.deepEqual(agentFields(await paneOf(paneId)), { agent: undefined, agent_state: 'unknown', agent_source: undefined, agent_session: undefined });
  });

  it('a session report for qwen made before it starts names the agent at once; the screen rules take the state once it is detected', async () => {
    const paneId = await shellPane();
    await server.call('pane.report_agent_session', { pane_id: paneId, source: 'herdr:qwen', agent: 'qwen', seq: seq(), agent_session_id: 'session-2' });
    await eventually(async () => {
      const pane = await paneOf(paneId);
      return pane.agent === 'qwen' && pane.agent_state === 'unknown' && pane.agent_session?.id === 'session-2';
    }, 'the session to name the agent');
    await server.call('pane.send_input', { pane_id: paneId, text: 'qwen' });
    await eventually(async () => {
      const fields = agentFields(await paneOf(paneId));
      return JSON.stringify(fields) === JSON.stringify({ agent: 'qwen', agent_state: 'idle', agent_source: 'screen', agent_session: { id: 'session-2' } });
    }, 'qwen idle by its screen, with the session');
    await server.call('pane.send_keys', { pane_id: paneId, keys: ['C-c'] });
  });

  it('a label the detector does not know goes with the next program, and ends when the shell is back in front', async () => {
    const paneId = await shellPane();
    await server.call('pane.report_agent', { pane_id: paneId, source: 'my-hook', agent: 'mybot', state: 'working', seq: seq() });
    await eventually(async () => (await paneOf(paneId)).agent === 'mybot', 'the early label to show');
    await server.call('pane.send_input', { pane_id: paneId, text: 'sleep 3' });
    await eventually(async () => (await explain(paneId)).foreground_pgid !== undefined && (await paneOf(paneId)).pid !== (await explain(paneId)).foreground_pgid, 'sleep in front');
    await sleep(1200); // a process check sees sleep in front
    assert.equal((await paneOf(paneId)).agent, 'mybot', 'the claim went with the program');
    await eventually(async () => (await paneOf(paneId)).agent === undefined, 'the claim to end with the program', 10_000);
    assert.equal((await paneOf(paneId)).agent_state, 'unknown');
  });

  it('a report made while the last agent lingers after leaving is for the next one, not dropped', async () => {
    const paneId = await shellPane();
    await server.call('pane.send_input', { pane_id: paneId, text: 'amp' });
    await eventually(async () => (await paneOf(paneId)).agent === 'amp', 'amp to be detected');
    await server.call('pane.send_keys', { pane_id: paneId, keys: ['C-c'] });
    await eventually(async () => (await explain(paneId)).foreground_pgid === (await paneOf(paneId)).pid, 'the shell back in front');
    assert.equal((await explain(paneId)).detected, 'amp', 'amp lingers');
    await server.call('pane.report_agent', { pane_id: paneId, source: 'herdr:qwen', agent: 'qwen', state: 'idle', seq: seq() });
    await eventually(async () => (await paneOf(paneId)).agent === 'qwen', 'the report to show over the lingering amp');
    await sleep(3500); // amp's linger ends
    assert.deepEqual(agentFields(await paneOf(paneId)), { agent: 'qwen', agent_state: 'idle', agent_source: 'hook', agent_session: undefined });
    await server.call('pane.send_input', { pane_id: paneId, text: 'qwen' });
    await eventually(async () => (await explain(paneId)).detected === 'qwen', 'qwen to be detected');
    assert.equal((await paneOf(paneId)).agent_source, 'hook');
    await server.call('pane.send_keys', { pane_id: paneId, keys: ['C-c'] });
  });

  it('a report for another agent than the one starting ends when the detector sees which agent it is', async () => {
    const paneId = await shellPane();
    await server.call('pane.report_agent', { pane_id: paneId, source: 'herdr:claude', agent: 'claude', state: 'blocked', seq: seq() });
    await eventually(async () => (await paneOf(paneId)).agent === 'claude', 'the early claim to show');
    await server.call('pane.send_input', { pane_id: paneId, text: 'qwen' });
    await eventually(async () => {
      const pane = await paneOf(paneId);
      return pane.agent === 'qwen' && pane.agent_source === 'screen';
    }, 'qwen by its screen');
    await server.call('pane.send_keys', { pane_id: paneId, keys: ['C-c'] });
  });
});
