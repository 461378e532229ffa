/**
 * docs/protocol.md §10.6 end to end: a program in a real pane prints OSC 7501 status
 * (with and without the query handshake), OSC 133 (through the documented bash
 * snippet) and notification sequences; pane_info and the events follow, and
 * malformed sequences change nothing.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PaneInfo } from '../src/protocol/objects.js';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, type TestServer, eventually, markingBash, newWorkspace, promptShown, readUntil, sleep, startServer } from './helpers/server.js';

const SIGNALS = join(REPO_ROOT, 'test', 'fixtures', 'signals.py');
const b64 = (text: string) => Buffer.from(text).toString('base64');

let server: TestServer;

const paneOf = async (paneId: string): Promise<PaneInfo> => (await server.call('pane.get', { pane_id: paneId })).pane;
/** A round trip through the pane's shard: output read before it has been parsed and its facts posted. */
const settled = (paneId: string) => server.call('pane.read', { pane_id: paneId, source: 'visible', lines: 1 });

/** A pane running signals.py; `send` types one command and waits until the program did it. */
async function signalsPane(): Promise<{ paneId: string; send(line: string): Promise<void> }> {
  const { paneId } = await newWorkspace(server);
  await promptShown(server, paneId);
  await server.call('pane.send_input', { pane_id: paneId, text: `python3 ${SIGNALS}` });
  await readUntil(server, paneId, (text) => text.includes('signals ready'));
  let done = 0;
  return {
    paneId,
    send: async (line) => {
      const want = ++done;
      await server.call('pane.send_input', { pane_id: paneId, text: line });
      await readUntil(server, paneId, (text) => text.includes(`done: ${want} `), { source: 'visible' });
      await settled(paneId);
    },
  };
}

type AgentFields = Pick<PaneInfo, 'agent' | 'agent_state' | 'agent_source' | 'agent_message'>;
const agentFields = (pane: PaneInfo): AgentFields => ({
  agent: pane.agent, agent_state: pane.agent_state, agent_source: pane.agent_source, agent_message: pane.agent_message,
});
async function agentIs(paneId: string, want: AgentFields): Promise<void> {
  const expected = { agent: want.agent, agent_state: want.agent_state, agent_source: want.agent_source, agent_message: want.agent_message };
  await eventually(async () => JSON.stringify(agentFields(await paneOf(paneId))) === JSON.stringify(expected), `pane ${paneId} to be ${JSON.stringify(want)}`);
}
const nothing: AgentFields = { agent: undefined, agent_state: 'unknown', agent_source: undefined, agent_message: undefined };

describe('terminal signals', () => {
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('OSC 7501 sets state and message where no agent runs; clear, a reset and the program leaving end it', async () => {
    const { paneId, send } = await signalsPane();
    await send('osc 7501;state=working:app=mytool:progress=40');
    await agentIs(paneId, { agent: 'mytool', agent_state: 'working', agent_source: 'status' });
    await send(`oscst 7501;state=blocked:app=mytool:msg=${b64('Approve the deploy? ✓')}`);
    await agentIs(paneId, { agent: 'mytool', agent_state: 'blocked', agent_source: 'status', agent_message: 'Approve the deploy? ✓' });
    await send('osc 7501;state=done:app=mytool');
    await agentIs(paneId, { agent: 'mytool', agent_state: 'idle', agent_source: 'status' });
    await send('osc 7501;state=clear');
    await agentIs(paneId, nothing);
    await send('osc 7501;state=working');
    await agentIs(paneId, { agent: undefined, agent_state: 'working', agent_source: 'status' });
    await send('reset');
    await agentIs(paneId, nothing);
    await send('osc 7501;state=error:app=mytool');
    await agentIs(paneId, { agent: 'mytool', agent_state: 'idle', agent_source: 'status' });
    await server.call('pane.send_input', { pane_id: paneId, text: 'exit' });
    await agentIs(paneId, nothing);
  });

  it('the status query is answered with the same bytes and terminator; the program then reports', async () => {
    const { paneId, send } = await signalsPane();
    await send('query bel');
    await readUntil(server, paneId, (text) => text.includes(`answer=${Buffer.from('\x1b]7501;?\x07').toString('hex')}`));
    await agentIs(paneId, { agent: 'queried', agent_state: 'working', agent_source: 'status' });
    await send('osc 7501;state=clear');
    await send('query st');
    await readUntil(server, paneId, (text) => text.includes(`answer=${Buffer.from('\x1b]7501;?\x1b\\').toString('hex')}`));
    await agentIs(paneId, { agent: 'queried', agent_state: 'working', agent_source: 'status' });
  });

  it('malformed or oversized status sequences change nothing', async () => {
    const { paneId, send } = await signalsPane();
    for (const bad of [
      'osc 7501;state=sleeping:app=x',
      'osc 7501;app=x',
      'osc 7501;state=working:state=idle',
      'osc 7501;state=working:msg=not*base64',
      'osc 7501;state=working:msg=abc',
      'osc 7501;state=working:app=bad label',
      'osc 7501;garbage',
      'msg working 2049',
      'title 193',
      'pad 4100',
    ]) {
      await send(bad);
      assert.deepEqual(agentFields(await paneOf(paneId)), nothing, bad);
    }
    // At the limits they apply.
    await send('title 192');
    await agentIs(paneId, { agent: 'big', agent_state: 'working', agent_source: 'status' });
    await send('msg blocked 2048');
    await agentIs(paneId, { agent: 'big', agent_state: 'blocked', agent_source: 'status', agent_message: 'm'.repeat(2048) });
  });

  it('OSC 133 from the documented bash snippet: last_exit_code and pane.command_finished', async () => {
    const { paneId } = await newWorkspace(server, { command: markingBash(server.dir, 'herdr-133') });
    await promptShown(server, paneId);
    const stream = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.command_finished', pane_id: paneId }] });
    await server.call('pane.send_input', { pane_id: paneId, text: '' });
    await server.call('pane.send_input', { pane_id: paneId, text: 'false' });
    await server.call('pane.send_input', { pane_id: paneId, text: 'sh -c "exit 7"' });
    await server.call('pane.send_input', { pane_id: paneId, text: 'true' });
    const events = await stream.until((e) => e.length >= 3, 'three finished commands');
    assert.deepEqual(events.map((e) => e.data), [1, 7, 0].map((code) => ({ pane_id: paneId, workspace_id: paneId.split('-')[0], exit_code: code })));
    assert.equal((await paneOf(paneId)).last_exit_code, 0);
    await sleep(300); // the quiet period; the command below is the positive control
    assert.equal(stream.events.length, 3, 'the first prompt and the empty line reported nothing');
    // The next command is the next event: nothing else was on its way.
    await server.call('pane.send_input', { pane_id: paneId, text: 'sh -c "exit 4"' });
    const after = await stream.until((e) => e.length >= 4, 'the command after the quiet period');
    assert.deepEqual(after.slice(3).map((e) => e.data), [{ pane_id: paneId, workspace_id: paneId.split('-')[0], exit_code: 4 }]);
    stream.close();
  });

  it('BEL, OSC 9, 777 and 99 are notifications, at most 10 a second per pane; subscriptions filter by pane', async () => {
    const { paneId, send } = await signalsPane();
    const other = await signalsPane();
    const mine = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.notification', pane_id: paneId }] });
    const all = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.notification' }] });
    const ws = paneId.split('-')[0];
    await send('bel');
    await send('osc 9;Build done');
    await send('osc 9;4;1;50');
    await send('osc 777;notify;CI;All green; 12 tests');
    await send('osc 777;something-else;x');
    await send('osc 99;i=7:d=0;Hello');
    await send(`osc 99;i=7:p=body:e=1;${b64('World ✓')}`);
    await other.send('osc 9;from the other pane');
    const events = await mine.until((e) => e.length >= 4, 'four notifications');
    assert.deepEqual(events.map((e) => e.data), [
      { pane_id: paneId, workspace_id: ws, kind: 'bell' },
      { pane_id: paneId, workspace_id: ws, kind: 'osc9', body: 'Build done' },
      { pane_id: paneId, workspace_id: ws, kind: 'osc777', title: 'CI', body: 'All green; 12 tests' },
      { pane_id: paneId, workspace_id: ws, kind: 'osc99', title: 'Hello', body: 'World ✓' },
    ]);
    await all.until((e) => e.some((line) => (line.data as { body?: string }).body === 'from the other pane'), 'the other pane in the unfiltered stream');
    assert.equal(mine.events.length, 4);

    await sleep(1100); // the rate window (1 s) passes: the burst starts with a full allowance
    await send('bel 50');
    await mine.until((e) => e.length >= 14, 'the first ten bells of the burst');
    await sleep(1100); // the window passes again, and the quiet period: none of the other 40 comes late
    const bells = mine.events.slice(4);
    assert.equal(bells.length, 10, 'a burst of 50 bells is cut to 10');
    // The positive control: a bell after the window is the next event, alone.
    await send('bel');
    const last = await mine.until((e) => e.length >= 15, 'a bell after the window passed');
    assert.deepEqual(last.slice(14).map((e) => e.data), [{ pane_id: paneId, workspace_id: ws, kind: 'bell' }]);
    mine.close();
    all.close();
  });
});
