/**
 * docs/protocol.md §13, the agent API, end to end: real agents-to-be (a fake agent that
 * tells its state with OSC 7501, the fake `pi` and `claude` the detector knows) started,
 * prompted, waited on and read over the real socket and the CLI, with each error and the
 * races a fleet meets (an agent that exits mid-wait, a pane closed mid-wait, two clients
 * prompting one agent).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HerdrError } from '../src/client/client.js';
import type { AgentInfo } from '../src/protocol/objects.js';
import { EventClient } from './helpers/events.js';
import { CliTerminal } from './helpers/terminal.js';
import { HERDR_BIN, REPO_ROOT, type TestServer, codeOf, eventually, herdrCli, newWorkspace, promptShown, readUntil, startServer, statsUntil } from './helpers/server.js';

const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');
const FAKE_BIN = join(REPO_ROOT, 'test', 'fixtures', 'bin');

const failsWith = (code: string, text?: RegExp) => (error: unknown) =>
  error instanceof HerdrError && error.code === code && (text === undefined || text.test(error.message));

describe('the agent API', () => {
  let server: TestServer;
  let cli: ReturnType<typeof herdrCli>;
  before(async () => {
    server = await startServer({ env: { PATH: `${FAKE_BIN}:${process.env.PATH}`, FAKE_AGENT_WORK_MS: '200' } });
    cli = herdrCli(server);
  });
  after(() => server.stop());

  /** A fake agent in a new workspace, ready for input. */
  async function startFake(name?: string, extra: object = {}): Promise<AgentInfo> {
    const started = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, timeout_ms: 10_000, ...(name ? { name } : {}), ...extra });
    assert.equal(started.type, 'agent_started');
    return started.agent;
  }

  it('starts an agent in a new workspace and answers once it is ready, addressable by instance id, pane id and name', async () => {
    const agent = await startFake('alpha', { label: 'first' });
    assert.equal(agent.name, 'alpha');
    assert.equal(agent.agent, 'fake-agent');
    assert.equal(agent.agent_status, 'idle');
    assert.equal(agent.label, 'first');
    assert.equal(agent.launch_pending, undefined);
    assert.match(agent.agent_instance_id, /^[0-9a-f-]{36}$/);
    for (const target of [agent.agent_instance_id, agent.pane_id, agent.terminal_id, 'alpha']) {
      const got = await server.call('agent.get', { target });
      assert.equal(got.agent.agent_instance_id, agent.agent_instance_id, `target ${target}`);
    }
    const { agents } = await server.call('agent.list', {});
    assert.deepEqual(agents.map((a) => a.name), ['alpha']);
    const pane = await server.call('pane.get', { pane_id: agent.pane_id });
    assert.equal(pane.pane.agent_status, 'idle');
    await server.call('pane.close', { pane_id: agent.pane_id });
  });

  it('prompts and waits in one request: done until read, then idle, with the status events', async () => {
    const agent = await startFake('bravo');
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_status_changed', pane_id: agent.pane_id }] });
    try {
      const prompted = await server.call('agent.prompt', { target: 'bravo', text: 'work 300 hello there', wait: { timeout_ms: 10_000 } });
      assert.equal(prompted.type, 'agent_prompted');
      assert.equal(prompted.agent.agent_status, 'done', 'a finished turn nobody read is done');
      assert.ok(prompted.agent.state_change_seq >= agent.state_change_seq + 2, 'it went working and back');
      const workspace = await server.call('workspace.get', { workspace_id: agent.workspace_id });
      assert.equal(workspace.workspace.agent_status, 'done');
      const read = await server.call('agent.read', { target: 'bravo', source: 'recent' });
      assert.match(read.read.text, /answer: hello there \(1\)/);
      assert.equal((await server.call('agent.get', { target: 'bravo' })).agent.agent_status, 'idle', 'a read is a look');
      await events.until((lines) => lines.some((line) => (line.data as { agent_status: string }).agent_status === 'idle' && lines.length >= 3), 'working, done, then idle');
      assert.deepEqual(events.events.map((line) => (line.data as { agent_status: string }).agent_status), ['working', 'done', 'idle']);
    } finally {
      events.close();
    }
    await server.call('pane.close', { pane_id: agent.pane_id });
  });

  it('prompts without waiting, then agent.wait answers at the turn\'s end and at once when already there', async () => {
    const agent = await startFake('charlie');
    const prompted = await server.call('agent.prompt', { target: 'charlie', text: 'work 400 later' });
    assert.notEqual(prompted.agent.agent_status, 'done');
    const waited = await server.call('agent.wait', { target: 'charlie', until: ['done'], timeout_ms: 10_000 });
    assert.equal(waited.agent.agent_status, 'done');
    const again = await server.call('agent.wait', { target: agent.agent_instance_id, timeout_ms: 100 });
    assert.equal(again.agent.agent_status, 'done', 'already there: at once');
    await assert.rejects(server.call('agent.wait', { target: 'charlie', until: ['working'], timeout_ms: 200 }), failsWith('timeout'));
    await server.call('pane.close', { pane_id: agent.pane_id });
  });

  it('a prompt without a wait answers a receipt: the turn, and the status from before it named so, never taken for the result', async () => {
    const agent = await startFake('lima');
    // Its last turn finished and nobody read it: done, as the next prompt comes.
    await server.call('agent.prompt', { target: 'lima', text: 'work 50 first', wait: { timeout_ms: 10_000 } });
    const receipt = await server.call('agent.prompt', { target: 'lima', text: 'work 1500 second' });
    assert.equal(receipt.turn.state, 'sent', 'written, nothing of it seen yet');
    // herdr's field stays what herdr's clients read (the agent as the prompt was taken) and says so beside it.
    assert.deepEqual([receipt.agent.agent_status, receipt.agent_status_at_submission], ['done', 'done']);
    assert.equal(receipt.turn.outcome, undefined, 'no result in a receipt');
    // The result is the turn's, once it finished: the agent worked on it first.
    await eventually(async () => (await server.call('agent.turn.get', { turn_id: receipt.turn.turn_id })).turn.state === 'finished', 'the turn finished', 10_000);
    const finished = (await server.call('agent.turn.get', { turn_id: receipt.turn.turn_id })).turn;
    assert.ok(finished.started_at !== undefined && finished.started_at > receipt.turn.created_at, 'it started after the receipt');
    // Queued behind a running turn: the status at submission is the reason it waits.
    await server.call('agent.prompt', { target: 'lima', text: 'work 1500 third' });
    await eventually(async () => (await server.call('agent.get', { target: 'lima' })).agent.agent_status === 'working', 'lima works on the third');
    const queued = await server.call('agent.prompt', { target: 'lima', text: 'work 10 fourth' });
    assert.deepEqual([queued.turn.state, queued.turn.position, queued.agent_status_at_submission], ['queued', 0, 'working']);
    // A wait's answer is the result: no status-at-submission beside it; a keyed retry answers the turn as it is now.
    const waited = await server.call('agent.prompt', { target: 'lima', text: 'work 10 fifth', key: 'k5', wait: { timeout_ms: 20_000 } });
    assert.deepEqual([waited.turn.state, waited.agent_status_at_submission], ['finished', undefined]);
    const retried = await server.call('agent.prompt', { target: 'lima', text: 'work 10 fifth', key: 'k5' });
    assert.deepEqual([retried.turn.turn_id, retried.agent_status_at_submission], [waited.turn.turn_id, undefined]);
    // The CLI's answer on a pipe is the server's, with the receipt's status named for what it is.
    const printed = JSON.parse((await cli('agent', 'prompt', 'lima', 'work', '10', 'sixth')).stdout) as { result: { turn: { state: string }; agent: AgentInfo; agent_status_at_submission?: string } };
    assert.deepEqual([printed.result.turn.state, printed.result.agent_status_at_submission], ['sent', printed.result.agent.agent_status]);
    // At a terminal, a person reads the receipt: the turn, and no status that could pass for its outcome.
    await eventually(async () => (await server.call('agent.get', { target: 'lima' })).agent.agent_status === 'done', 'lima done with the sixth', 10_000);
    const terminal = new CliTerminal(['agent', 'prompt', 'lima', 'work', '10', 'seventh', '--socket', server.socketPath], { cwd: server.dir, env: { HERDR_PANE_ID: '' } });
    try {
      assert.equal(await terminal.exited, 0);
      await eventually(async () => /turn t\d+/.test(await terminal.screen()), 'the sentence');
      const screen = (await terminal.screen()).trim();
      assert.match(screen, /^prompt sent to lima as turn t\d+/);
      assert.doesNotMatch(screen, /\b(done|idle|finished)\b/);
    } finally {
      terminal.kill();
    }
    await server.call('pane.close', { pane_id: agent.pane_id });
  });

  it('focus and attach are looks too: a done agent focused is idle and focused, its workspace active', async () => {
    const first = await startFake('juliet');
    const second = await startFake('kilo');
    await server.call('agent.prompt', { target: 'juliet', text: 'work 100 one', wait: { timeout_ms: 10_000 } });
    await server.call('agent.prompt', { target: 'kilo', text: 'work 100 two', wait: { timeout_ms: 10_000 } });
    const focused = await server.call('agent.focus', { target: 'juliet' });
    assert.equal(focused.agent.focused, true);
    assert.equal(focused.agent.agent_status, 'idle');
    assert.equal((await server.call('workspace.get', { workspace_id: first.workspace_id })).workspace.focused, true);
    assert.equal((await server.call('agent.get', { target: 'kilo' })).agent.agent_status, 'done', 'the other one still unread');
    const stream = await EventClient.open(server.socketPath, 'pane.stream', { pane_id: second.pane_id });
    stream.close();
    assert.equal((await server.call('agent.get', { target: 'kilo' })).agent.agent_status, 'idle', 'an attach is a look');
    const ansi = await server.call('agent.read', { target: 'kilo', source: 'visible', format: 'ansi', lines: 5 });
    assert.match(ansi.read.text, /answer: two \(1\)/);
    for (const agent of [first, second]) await server.call('pane.close', { pane_id: agent.terminal_id });
  });

  it('a question blocks: the wait ends blocked, a prompt waits in the queue untyped, keys answer it, then the prompt is written', async () => {
    const agent = await startFake('delta');
    const asked = await server.call('agent.prompt', { target: 'delta', text: 'ask 200 delete the build?', wait: { timeout_ms: 10_000 } });
    assert.equal(asked.agent.agent_status, 'blocked');
    assert.equal(asked.agent.agent_message, 'Do you want to proceed?');
    const before = (await server.call('pane.read', { pane_id: agent.pane_id, source: 'recent' })).read.text;
    const queued = await server.call('agent.prompt', { target: 'delta', text: 'work 50 something else' });
    assert.deepEqual([queued.turn.state, queued.turn.position], ['queued', 0]);
    assert.equal((await server.call('pane.read', { pane_id: agent.pane_id, source: 'recent' })).read.text, before, 'nothing was typed');
    assert.deepEqual((await server.call('agent.queue.list', { target: 'delta' })).turns.map((turn) => turn.turn_id), [queued.turn.turn_id]);
    await server.call('agent.send_keys', { target: 'delta', keys: ['1', 'Enter'] });
    await readUntil(server, agent.pane_id, (text) => text.includes('you chose 1') && text.includes('answer: delete the build? (1)'));
    // Idle again: the queued prompt is written, once, after the answer.
    await readUntil(server, agent.pane_id, (text) => text.includes('answer: something else (2)'));
    await eventually(async () => (await server.call('agent.turn.get', { turn_id: queued.turn.turn_id })).turn.state === 'finished', 'the queued turn finished');
    assert.deepEqual((await server.call('agent.queue.list', { target: 'delta' })).turns, []);
    await server.call('pane.close', { pane_id: agent.pane_id });
  });

  it('a prompt that never moves the agent stalls; an agent of unknown state cannot be waited on', async () => {
    // An agent that says it is idle and never reads its input.
    const deaf = "printf '\\033]7501;state=idle:app=deaf\\033\\\\'; exec sleep 600";
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: ['/bin/sh', '-c', deaf] });
    const paneId = `${workspace.workspace_id}-1`;
    await eventually(async () => (await server.call('pane.get', { pane_id: paneId })).pane.agent === 'deaf', 'the status to name it');
    await assert.rejects(
      server.call('agent.prompt', { target: paneId, text: 'hello?', wait: { timeout_ms: 5000 }, stall_ms: 300 }),
      failsWith('agent_prompt_stalled', /stayed idle for 300 ms/),
    );
    await server.call('workspace.close', { workspace_id: workspace.workspace_id });

    // A hook that names an agent but says nothing of its state.
    const { paneId: hooked } = await newWorkspace(server);
    await server.call('pane.report_agent', { pane_id: hooked, source: 'test', agent: 'mybot', state: 'unknown' });
    await eventually(async () => (await server.call('pane.get', { pane_id: hooked })).pane.agent === 'mybot', 'the report applied');
    await assert.rejects(server.call('agent.prompt', { target: hooked, text: 'hello', wait: {} }), failsWith('agent_not_ready', /unknown/));
    await server.call('pane.close', { pane_id: hooked });
  });

  it('races: the agent exits mid-wait, its pane closes mid-wait, two clients prompt it at once', async () => {
    const exiting = await startFake('echo1');
    // Outcomes are taken at once: both waits end together, and neither may go unheard.
    const prompt = codeOf(server.call('agent.prompt', { target: 'echo1', text: 'work 5000 slow', wait: { timeout_ms: 20_000 } }));
    await eventually(async () => (await server.call('agent.get', { target: 'echo1' })).agent.agent_status === 'working', 'it works');
    const wait = codeOf(server.call('agent.wait', { target: 'echo1', until: ['blocked'] }));
    await statsUntil(server, (stats) => stats.waits >= 2, 'both waits open');
    // The pane's program is the agent: ending it ends the pane.
    await server.call('pane.send_keys', { pane_id: exiting.pane_id, keys: ['C-c'] });
    assert.deepEqual(await Promise.all([prompt, wait]), ['agent_not_running', 'agent_not_running']);

    const closing = await startFake('echo2');
    const pending = codeOf(server.call('agent.wait', { target: closing.agent_instance_id, until: ['working'], timeout_ms: 20_000 }));
    await statsUntil(server, (stats) => stats.waits >= 1, 'the wait open');
    await server.call('pane.close', { pane_id: closing.pane_id });
    assert.equal(await pending, 'agent_not_running');

    const shared = await startFake('echo3');
    const [first, second] = await Promise.all([
      server.call('agent.prompt', { target: 'echo3', text: 'work 300 one', wait: { timeout_ms: 10_000 } }),
      server.call('agent.prompt', { target: 'echo3', text: 'work 300 two', wait: { timeout_ms: 10_000 } }),
    ]);
    assert.ok([first, second].every((answer) => answer.agent.agent_status === 'done' || answer.agent.agent_status === 'idle'));
    // Both prompts reached the agent, each once, in the order written.
    const text = await readUntil(server, shared.pane_id, (t) => t.includes('answer: two (2)') || t.includes('answer: one (2)'));
    assert.equal((text.match(/answer: (one|two) \(\d\)/g) ?? []).length, 2);
    await server.call('pane.close', { pane_id: shared.pane_id });
    await statsUntil(server, (stats) => stats.waits === 0, 'no wait left behind');
  });

  it('starts a known kind typed into an idle shell pane, refuses a busy one, pins keys to the occupant', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const started = await server.call('agent.start', { name: 'pi-one', kind: 'PI', pane_id: paneId, timeout_ms: 10_000 });
    assert.deepEqual(started.argv, ['pi']);
    assert.equal(started.agent.agent, 'pi');
    assert.equal(started.agent.name, 'pi-one');
    assert.ok(['idle', 'done'].includes(started.agent.agent_status));
    await assert.rejects(server.call('agent.start', { kind: 'pi', pane_id: paneId }), failsWith('agent_pane_busy', /already hosts an agent/));
    // The fake pi exits: after the detector's linger the pane hosts no agent, and its old id names nothing.
    await eventually(async () => (await server.call('agent.list', {})).agents.every((a) => a.pane_id !== paneId), 'pi to leave', 15_000);
    await assert.rejects(server.call('agent.send_keys', { target: started.agent.agent_instance_id, keys: ['Enter'] }), failsWith('agent_not_found'));
    await assert.rejects(server.call('agent.get', { target: paneId }), failsWith('agent_not_found', /does not host an agent/));

    // The job is in front from its fork on, so once it printed, the shell is not.
    await server.call('pane.send_input', { pane_id: paneId, text: `sh -c 'echo in-""front; exec sleep 30'` });
    await readUntil(server, paneId, (text) => /^in-front$/m.test(text));
    await assert.rejects(server.call('agent.start', { kind: 'pi', pane_id: paneId }), failsWith('agent_pane_busy', /running a command/));
    await server.call('pane.close', { pane_id: paneId });
  });

  it('refuses bad starts and prompts with their own codes, and leaves nothing behind', async () => {
    const before = await server.call('server.stats', {});
    const refusals: Array<[object, string]> = [
      [{ kind: 'nethack' }, 'unsupported_agent_kind'],
      [{ kind: 'pi', command: ['pi'] }, 'invalid_request'],
      [{}, 'invalid_request'],
      [{ name: 'Bad Name', kind: 'pi' }, 'invalid_agent_name'],
      [{ kind: 'pi', args: ['--flag\nrm -rf ~'] }, 'invalid_agent_argument'],
      [{ command: ['no-such-agent-program'] }, 'agent_start_failed'],
      [{ command: [FAKE_AGENT], cwd: '/no/such/dir' }, 'agent_start_failed'],
      [{ kind: 'pi', pane_id: '1-1', cwd: '/tmp' }, 'invalid_request'],
    ];
    for (const [params, code] of refusals) {
      await assert.rejects(server.call('agent.start', params as { kind: string }), failsWith(code), JSON.stringify(params));
    }
    const after = await server.call('server.stats', {});
    assert.equal(after.panes, before.panes, 'no pane made');
    const taken = await startFake('echo');
    await assert.rejects(server.call('agent.start', { name: 'echo', command: [FAKE_AGENT] }), failsWith('agent_name_taken'));
    await assert.rejects(server.call('agent.rename', { target: taken.pane_id, name: '9lives' }), failsWith('invalid_agent_name'));
    await assert.rejects(server.call('agent.prompt', { target: 'echo', text: '   ' }), failsWith('empty_agent_prompt'));
    await assert.rejects(server.call('agent.get', { target: 'nobody' }), failsWith('agent_not_found'));
    await assert.rejects(server.call('agent.send_keys', { target: 'echo', keys: ['NoSuchKey'] }), failsWith('invalid_key'));
    const renamed = await server.call('agent.rename', { target: 'echo', name: 'foxtrot' });
    assert.equal(renamed.agent.name, 'foxtrot');
    assert.equal((await server.call('agent.rename', { target: 'foxtrot', name: null })).agent.name, undefined);
    await server.call('pane.close', { pane_id: taken.pane_id });
  });

  it('a start that never gets ready times out and leaves the pane as it is, not pending', async () => {
    await assert.rejects(
      server.call('agent.start', { name: 'sleeper', command: ['sleep', '30'], timeout_ms: 400 }),
      failsWith('timeout', /not ready for input within 400 ms/),
    );
    const panes = (await server.call('pane.list', {})).panes;
    assert.ok(panes.some((pane) => pane.agent === undefined), 'the pane still runs');
    assert.ok((await server.call('agent.list', {})).agents.every((a) => a.name !== 'sleeper'), 'no pending launch left');
    for (const pane of panes) await server.call('pane.close', { pane_id: pane.pane_id }).catch(() => undefined);
  });

  it('explains a state: the status that set it, or the screen rule with the lines that matched', async () => {
    const agent = await startFake('golf');
    const byStatus = await server.call('agent.explain', { target: 'golf' });
    assert.equal(byStatus.explain.decided_by, 'status');
    assert.deepEqual(byStatus.explain.status, { state: 'idle', app: 'fake-agent' });
    await server.call('pane.close', { pane_id: agent.pane_id });

    const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: ['claude'] });
    const paneId = `${workspace.workspace_id}-1`;
    await eventually(async () => (await server.call('pane.get', { pane_id: paneId })).pane.agent_state === 'blocked', 'fake claude to ask');
    const { explain } = await server.call('agent.explain', { target: paneId });
    assert.equal(explain.decided_by, 'screen');
    assert.equal(explain.detected, 'claude');
    const rule = explain.screen?.rules.find((r) => r.index === explain.screen?.matched_rule);
    assert.equal(rule?.state, 'blocked');
    assert.ok(rule?.evidence.some((line) => line.includes('Do you want to proceed?')), JSON.stringify(rule));
    await server.call('workspace.close', { workspace_id: workspace.workspace_id });
  });

  it('session.snapshot holds the whole fleet and the seq to subscribe from, missing nothing after it', async () => {
    const agent = await startFake('india');
    await server.call('pane.split', { target_pane_id: agent.pane_id, direction: 'right', label: 'beside' });
    const { snapshot } = await server.call('session.snapshot', {});
    assert.equal(snapshot.protocol, 0, "the 0.2.0 socket's dialect, as its ping says");
    assert.deepEqual(snapshot.workspaces.map((w) => w.workspace_id), ['1']);
    assert.deepEqual(snapshot.panes.map((p) => p.pane_id), ['1-1', '1-2']);
    assert.equal(snapshot.layouts[0]?.root.type, 'split');
    assert.deepEqual(snapshot.agents.map((a) => a.name), ['india']);
    assert.equal(snapshot.focused_workspace_id, '1');
    // Events after the snapshot come from `since`, and nothing before it.
    await server.call('pane.close', { pane_id: '1-2' });
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.closed' }, { type: 'pane.created' }], since: snapshot.seq });
    try {
      await events.until((lines) => lines.length >= 1, 'the close after the snapshot');
      assert.deepEqual(events.names(), ['pane_closed']);
      assert.ok((events.events[0]?.seq ?? 0) > snapshot.seq);
    } finally {
      events.close();
    }
    await server.call('pane.close', { pane_id: agent.pane_id });
  });

  it('the CLI starts an agent where the caller stands, its program found on the caller\'s PATH', async () => {
    const project = join(server.dir, 'caller-project');
    mkdirSync(project, { recursive: true });
    const agents = dirname(FAKE_AGENT);
    const run = (path: string) =>
      promisify(execFile)(process.execPath, [HERDR_BIN, 'agent', 'start', 'juliet', '--socket', server.socketPath, '--', 'fake-agent'], { cwd: project, env: { ...process.env, PATH: path } });
    // The server's PATH does not have it, the caller's does: found as the caller's shell finds it.
    assert.ok(!(process.env.PATH ?? '').split(':').includes(agents));
    await assert.rejects(run(process.env.PATH ?? ''), (error: { stderr: string }) => /agent_start_failed.*command not found/.test(error.stderr));
    const started = JSON.parse((await run(`${agents}:${process.env.PATH ?? ''}`)).stdout) as { result: { agent: AgentInfo } };
    const { pane } = await server.call('pane.get', { pane_id: started.result.agent.pane_id });
    assert.equal(pane.cwd, realpathSync(project), 'in the caller\'s directory, not the server\'s');
    assert.equal(pane.agent, 'fake-agent');
    await server.call('pane.close', { pane_id: started.result.agent.pane_id });
  });

  it('a CLI wait never hangs silently: a blocked agent is said at once, a terminal sees the wait go on, Ctrl-C leaves the turn as asked', async () => {
    const { agent } = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'kilo', timeout_ms: 10_000 });
    await server.call('agent.prompt', { target: 'kilo', text: 'ask 10 may I?', wait: { timeout_ms: 10_000 } });
    const queued = async () => (await server.call('agent.queue.list', { target: 'kilo' })).turns;
    // Blocked: said at once, nothing sent, exit 1.
    await assert.rejects(cli('agent', 'prompt', 'kilo', 'work', '10', 'later', '--wait'), (error: { code: number; stderr: string }) =>
      error.code === 1 && /waits for an answer to a question in pane w\d+:p\d+ .*answer it with `herdr inbox`; nothing was sent/.test(error.stderr),
    );
    assert.deepEqual(await queued(), []);
    // --keep-waiting: queued behind the question, said so, and it waits (here until Ctrl-C, which keeps the turn).
    const keep = spawn(process.execPath, [HERDR_BIN, 'agent', 'prompt', 'kilo', 'work', '10', 'kept', '--wait', '--keep-waiting', '--socket', server.socketPath]);
    let keepErr = '';
    keep.stderr.on('data', (chunk: Buffer) => (keepErr += chunk.toString()));
    await eventually(() => /the prompt is queued behind a question in pane/.test(keepErr), 'the blocked question said once queued', 10_000);
    keep.kill('SIGINT');
    const kept = await new Promise<number | null>((resolve) => keep.on('exit', (code) => resolve(code)));
    assert.equal(kept, 130);
    const [turn] = await queued();
    assert.ok(turn, 'the turn stayed queued');
    assert.match(keepErr, new RegExp(`stays queued as turn ${turn.turn_id}: \`herdr agent cancel ${turn.turn_id}\``));
    // --cancel-on-interrupt: the turn goes with the Ctrl-C.
    const cancel = spawn(process.execPath, [HERDR_BIN, 'agent', 'prompt', 'kilo', 'work', '10', 'dropped', '--wait', '--keep-waiting', '--cancel-on-interrupt', '--socket', server.socketPath]);
    let cancelErr = '';
    cancel.stderr.on('data', (chunk: Buffer) => (cancelErr += chunk.toString()));
    await eventually(async () => (await queued()).length === 2, 'the second prompt queued', 10_000);
    cancel.kill('SIGINT');
    assert.equal(await new Promise<number | null>((resolve) => cancel.on('exit', (code) => resolve(code))), 130);
    assert.match(cancelErr, /was taken back before it was written/);
    assert.deepEqual((await queued()).map((t) => t.turn_id), [turn.turn_id]);
    // Answered: the kept prompt runs. On a terminal the wait shows its status line while the agent works; on a pipe nothing.
    await server.call('approvals.answer', { pane_id: agent.pane_id, option: '1', question_hash: (await server.call('approvals.list', {})).approvals[0]?.question_hash ?? '' });
    await server.call('agent.wait', { target: 'kilo', until: ['done'], timeout_ms: 10_000 });
    const terminal = new CliTerminal(['agent', 'prompt', 'kilo', 'work', '2500', 'slowly', '--wait', '--socket', server.socketPath], { cwd: server.dir });
    try {
      await terminal.screenMatches(/kilo: working · its turn · \d+ s/);
      assert.equal(await terminal.exited, 0);
      assert.doesNotMatch(await terminal.screen(), /kilo: working ·/, 'the status line is gone once the answer is printed');
    } finally {
      terminal.kill();
    }
    const piped = await cli('agent', 'prompt', 'kilo', 'work', '1500', 'quietly', '--wait');
    assert.equal(piped.stderr, '');
    assert.equal(JSON.parse(piped.stdout).result.turn.outcome, 'done');
    await server.call('pane.close', { pane_id: agent.terminal_id });
  });

  it('the CLI: start, prompt --wait, list, read, wait, and usage errors', async () => {
    // Flags before `--`: what follows it is the agent's argv.
    const start = await promisify(execFile)(process.execPath, [HERDR_BIN, 'agent', 'start', 'hotel', '--socket', server.socketPath, '--cwd', server.dir, '--', FAKE_AGENT]);
    const started = JSON.parse(start.stdout) as { result: { agent: AgentInfo } };
    assert.equal(started.result.agent.name, 'hotel');
    const prompted = JSON.parse((await cli('agent', 'prompt', 'hotel', 'work', '200', 'from', 'the', 'cli', '--wait', '--timeout', '10000')).stdout);
    assert.equal(prompted.result.agent.agent_status, 'done');
    const listed = JSON.parse((await cli('agent', 'list')).stdout);
    assert.deepEqual(listed.result.agents.map((a: AgentInfo) => a.name), ['hotel']);
    assert.match((await cli('agent', 'read', 'hotel')).stdout, /answer: from the cli \(1\)/);
    const waited = JSON.parse((await cli('agent', 'wait', 'hotel', '--until', 'idle', '--timeout', '5000')).stdout);
    assert.equal(waited.result.agent.agent_status, 'idle');
    await assert.rejects(cli('agent', 'prompt', 'hotel', 'x', '--until', 'idle'), (error: { code: number; stderr: string }) => error.code === 2 && /need --wait/.test(error.stderr));
    await assert.rejects(cli('agent', 'get', 'nobody'), (error: { code: number; stderr: string }) => error.code === 1 && /agent_not_found/.test(error.stderr));
    await server.call('pane.close', { pane_id: started.result.agent.pane_id });
  });
});
