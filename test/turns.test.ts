/**
 * Prompts as turns (docs/protocol.md §13.7) against a real server and fake agents that
 * count what they answered: a receipt at once, the turn's events in order, a queue per
 * agent written in order and only when it is idle, a client key that makes a retry
 * write nothing, cancelling a queued prompt, and a queue that fails, untyped, when its
 * agent leaves the pane.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, type TestServer, codeOf, eventually, newWorkspace, promptShown, readUntil, startServer, tempDir } from './helpers/server.js';

const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');

describe('turns: receipts, queues, keys', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer({ env: { FAKE_AGENT_WORK_MS: '50' } });
  });
  after(async () => server?.stop());

  async function startFake(name: string): Promise<{ paneId: string; stableId: string }> {
    const { agent } = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name, timeout_ms: 10_000 });
    return { paneId: agent.pane_id, stableId: agent.terminal_id };
  }

  /** Every answer the fake agent printed, in order: `answer: TEXT (N)`. */
  async function answers(paneId: string): Promise<string[]> {
    const { read } = await server.call('pane.read', { pane_id: paneId, source: 'recent', lines: 200 });
    return [...read.text.matchAll(/^answer: (.*) \((\d+)\)$/gm)].map((match) => `${match[2]}:${match[1]}`);
  }

  it('answers with a receipt at once, then prompt_accepted, turn_started and turn_finished carry its id', async () => {
    const alpha = await startFake('alpha');
    const events = await EventClient.subscribe(server.socketPath, {
      subscriptions: [{ type: 'pane.prompt_accepted', pane_id: alpha.paneId }, { type: 'pane.turn_started' }, { type: 'pane.turn_finished' }],
    });
    const began = Date.now();
    const prompted = await server.call('agent.prompt', { target: 'alpha', text: 'work 300 first' });
    assert.ok(Date.now() - began < 250, 'the receipt does not wait for the turn');
    const { turn } = prompted;
    assert.match(turn.turn_id, /^t\d+$/);
    assert.equal(turn.state, 'sent');
    assert.equal(turn.stable_id, alpha.stableId);
    assert.equal(turn.text, 'work 300 first');
    const lines = await events.until((seen) => seen.some((line) => line.event === 'pane.turn_finished'), 'the turn to finish');
    assert.deepEqual(lines.map((line) => line.event), ['pane.prompt_accepted', 'pane.turn_started', 'pane.turn_finished']);
    for (const line of lines) assert.equal((line.data as { turn_id: string }).turn_id, turn.turn_id);
    const finished = lines[2]?.data as unknown as { outcome: string; duration_ms?: number };
    assert.equal(finished.outcome, 'done');
    assert.ok((finished.duration_ms ?? 0) >= 300, `duration ${finished.duration_ms}`);
    const got = (await server.call('agent.turn.get', { turn_id: turn.turn_id })).turn;
    assert.deepEqual([got.state, got.outcome], ['finished', 'done']);
    assert.ok((got.duration_ms ?? 0) >= 300);
    events.close();
  });

  it('queues prompts to a busy agent and writes them one at a time, in order, each once', async () => {
    const bravo = await startFake('bravo');
    const first = await server.call('agent.prompt', { target: 'bravo', text: 'work 400 one' });
    await eventually(async () => (await server.call('agent.get', { target: 'bravo' })).agent.agent_status === 'working', 'bravo at work');
    const second = await server.call('agent.prompt', { target: 'bravo', text: 'work 20 two' });
    const third = await server.call('agent.prompt', { target: 'bravo', text: 'work 20 three' });
    assert.equal(first.turn.state, 'sent');
    assert.deepEqual([second.turn.state, second.turn.position, third.turn.state, third.turn.position], ['queued', 0, 'queued', 1]);
    assert.deepEqual((await server.call('agent.queue.list', { target: 'bravo' })).turns.map((turn) => turn.text), ['work 20 two', 'work 20 three']);
    // The last one's wait covers its time in the queue.
    const waited = await server.call('agent.prompt', { target: 'bravo', text: 'work 20 four', wait: { timeout_ms: 10_000 } });
    assert.deepEqual([waited.turn.state, waited.turn.outcome], ['finished', 'done']);
    assert.deepEqual(await answers(bravo.paneId), ['1:one', '2:two', '3:three', '4:four']);
  });

  it('a retry with the same client key returns the same turn and writes nothing', async () => {
    const charlie = await startFake('charlie');
    const once = await server.call('agent.prompt', { target: 'charlie', text: 'work 100 keyed', key: 'job-17' });
    const again = await server.call('agent.prompt', { target: 'charlie', text: 'work 100 keyed', key: 'job-17' });
    assert.equal(again.turn.turn_id, once.turn.turn_id);
    await server.call('agent.prompt', { target: 'charlie', text: 'work 10 after', wait: { timeout_ms: 10_000 } });
    const third = await server.call('agent.prompt', { target: 'charlie', text: 'work 100 keyed', key: 'job-17' });
    assert.equal(third.turn.turn_id, once.turn.turn_id, 'still the same turn after it finished');
    assert.deepEqual(await answers(charlie.paneId), ['1:keyed', '2:after']);
  });

  it('cancels a queued prompt, which is never written; a written one cannot be taken back', async () => {
    const delta = await startFake('delta');
    const running = await server.call('agent.prompt', { target: 'delta', text: 'work 1500 running' });
    await eventually(async () => (await server.call('agent.get', { target: 'delta' })).agent.agent_status === 'working', 'delta at work');
    const queued = await server.call('agent.prompt', { target: 'delta', text: 'work 10 never' });
    const cancelled = await server.call('agent.queue.cancel', { turn_id: queued.turn.turn_id });
    assert.deepEqual([cancelled.turn.state, cancelled.turn.outcome], ['cancelled', 'cancelled']);
    assert.equal(await codeOf(server.call('agent.queue.cancel', { turn_id: queued.turn.turn_id })), 'turn_not_queued');
    assert.equal(await codeOf(server.call('agent.queue.cancel', { turn_id: running.turn.turn_id })), 'turn_not_queued');
    assert.equal(await codeOf(server.call('agent.turn.get', { turn_id: 't999999' })), 'turn_not_found');
    // A wait on a queued prompt that is taken back ends with that.
    const waiting = codeOf(server.call('agent.prompt', { target: 'delta', text: 'work 10 taken back', wait: { timeout_ms: 10_000 } }));
    const [taken] = await eventually(async () => {
      const { turns } = await server.call('agent.queue.list', { target: 'delta' });
      return turns.length > 0 && turns;
    }, 'the prompt queued');
    await server.call('agent.queue.cancel', { turn_id: taken?.turn_id ?? '' });
    assert.equal(await waiting, 'turn_cancelled');
    await server.call('agent.wait', { target: 'delta', until: ['done'], timeout_ms: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await answers(delta.paneId), ['1:running']);
    // Positive control on the same path: a prompt left in the queue is written, and shows.
    await server.call('agent.prompt', { target: 'delta', text: 'work 10 kept', wait: { timeout_ms: 10_000 } });
    assert.deepEqual(await answers(delta.paneId), ['1:running', '2:kept']);
  });

  it('a prompt is accepted only when the agent takes it; one it never takes ends stalled with the screen lines that show where it was left', async () => {
    // `cat` echoes the line and never moves: its state comes from a hook only, and stays idle.
    const { paneId } = await newWorkspace(server, { command: ['cat'] });
    await server.call('pane.report_agent', { pane_id: paneId, source: 'test', agent: 'catbot', state: 'idle' });
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.prompt_accepted', pane_id: paneId }, { type: 'pane.turn_started', pane_id: paneId }, { type: 'pane.turn_finished', pane_id: paneId }] });
    const first = (await server.call('agent.prompt', { target: paneId, text: 'hello from the test', stall_ms: 500 })).turn;
    const lines = await events.until((seen) => seen.some((line) => line.event === 'pane.turn_finished'), 'the turn to end');
    assert.deepEqual(lines.map((line) => [line.event, (line.data as { outcome?: string }).outcome]), [['pane.turn_finished', 'stalled']]);
    const seen = (await server.call('agent.turn.get', { turn_id: first.turn_id })).turn;
    assert.ok(seen.echoed_at !== undefined && seen.sent_at !== undefined && seen.echoed_at >= seen.sent_at, JSON.stringify(seen));
    assert.equal(seen.accepted_at, undefined, 'its echo is not its acceptance');
    assert.equal(seen.started_at, undefined, 'the agent never started on it');
    assert.equal(seen.enters, 1, 'no input box is known for it: Enter is not pressed again');
    assert.ok(seen.evidence?.some((line) => line.includes('hello from the test')), `the evidence shows the text: ${JSON.stringify(seen.evidence)}`);
    // A hook that says working after the Enter is its acceptance (positive control on the same path).
    const second = (await server.call('agent.prompt', { target: paneId, text: 'second prompt here', stall_ms: 3000 })).turn;
    // Typed (the terminal's echo), then entered (cat's copy of the line): the Enter is in.
    await readUntil(server, paneId, (text) => text.split('second prompt here').length === 3);
    await server.call('pane.report_agent', { pane_id: paneId, source: 'test', agent: 'catbot', state: 'working' });
    await events.until((seen) => seen.some((line) => line.event === 'pane.prompt_accepted'), 'the second prompt accepted');
    await server.call('pane.report_agent', { pane_id: paneId, source: 'test', agent: 'catbot', state: 'idle' });
    await events.until((seen) => seen.filter((line) => line.event === 'pane.turn_finished').length === 2, 'the second turn to end');
    const took = (await server.call('agent.turn.get', { turn_id: second.turn_id })).turn;
    assert.deepEqual([took.state, took.outcome], ['finished', 'done']);
    assert.ok(took.accepted_at !== undefined);
    events.close();
    await server.call('pane.close', { pane_id: paneId });
  });

  it('an input box that let go of the prompt gives the agent the stall window to start, longer while it works on the CPU', async () => {
    const slowTaker = join(REPO_ROOT, 'test', 'fixtures', 'slow-taker', 'claude.mjs');
    const start = async (name: string, env: Record<string, string>) =>
      (await server.call('agent.start', { command: [process.execPath, slowTaker], cwd: server.dir, env, name, timeout_ms: 10_000 })).agent;
    // It takes the text and never turns working: stalled, once the window is over.
    const idler = await start('idler', {});
    const { turn: receipt } = await server.call('agent.prompt', { target: 'idler', text: 'taken but never started', stall_ms: 800 });
    const lost = await eventually(async () => {
      const { turn } = await server.call('agent.turn.get', { turn_id: receipt.turn_id });
      return turn.state === 'finished' && turn;
    }, 'the turn to end', 10_000);
    assert.equal(lost.outcome, 'stalled', JSON.stringify(lost));
    assert.ok(lost.accepted_at !== undefined && lost.finished_at !== undefined && lost.finished_at - lost.accepted_at >= 800, JSON.stringify(lost));
    assert.equal(lost.started_at, undefined);
    assert.deepEqual(lost.evidence, ['the input box let go of the prompt, but the agent never left its state']);
    // Positive control on the same path: it shows its turn 2.5 s after its box let go, working on
    // the CPU all along (a starved CLI): the 800 ms window stretches, and the turn is done.
    const worker = await start('worker', { SLOW_TAKER_BUSY_MS: '2500' });
    const { turn: slow } = await server.call('agent.prompt', { target: 'worker', text: 'taken and started late', stall_ms: 800, wait: { timeout_ms: 15_000 } });
    assert.equal(slow.outcome, 'done', JSON.stringify(slow));
    assert.ok(slow.accepted_at !== undefined && slow.started_at !== undefined && slow.started_at - slow.accepted_at >= 2000, JSON.stringify(slow));
    // By their stable ids: closing the first renumbers the second's positional one.
    await server.call('pane.close', { pane_id: idler.terminal_id });
    await server.call('pane.close', { pane_id: worker.terminal_id });
  });

  it('fails the queue of an agent that leaves its pane, untyped into the shell that is left', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    await server.call('agent.start', { command: [FAKE_AGENT], pane_id: paneId, name: 'echo', timeout_ms: 10_000 });
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.turn_finished', pane_id: paneId }] });
    const running = await server.call('agent.prompt', { target: 'echo', text: 'work 300 long' });
    await eventually(async () => (await server.call('agent.get', { target: 'echo' })).agent.agent_status === 'working', 'echo at work');
    // Queued behind it: the agent's own way out, then a line that must never reach the shell it leaves behind.
    const leaving = await server.call('agent.prompt', { target: 'echo', text: 'exit' });
    const stranded = await server.call('agent.prompt', { target: 'echo', text: 'echo SHOULD-NEVER-RUN' });
    assert.deepEqual([leaving.turn.position, stranded.turn.position], [0, 1]);
    const lines = await events.until((seen) => seen.length >= 3, 'the three turns to end', 15_000);
    const outcomes = lines.map((line) => [(line.data as { turn_id: string }).turn_id, (line.data as { outcome: string }).outcome]);
    assert.deepEqual(outcomes, [
      [running.turn.turn_id, 'done'],
      [leaving.turn.turn_id, 'exited'],
      [stranded.turn.turn_id, 'exited'],
    ]);
    assert.equal((await server.call('agent.turn.get', { turn_id: stranded.turn.turn_id })).turn.state, 'failed');
    await server.call('pane.send_text', { pane_id: paneId, text: 'echo shell-$((6*7))\r' });
    const text = await readUntil(server, paneId, (t) => /^shell-42$/m.test(t));
    assert.doesNotMatch(text, /SHOULD-NEVER-RUN/);
    events.close();
  });
});

describe('turns across a restart', () => {
  it('a queue comes back with the session: written, in order, to the agent that comes back under its name; failed where none does', async () => {
    const root = tempDir('herdr-turns-');
    const options = { stateDir: join(root, 'state'), socketPath: join(root, 'herdr.sock'), env: { FAKE_AGENT_WORK_MS: '20' } };
    try {
      let server = await startServer(options);
      const started = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'keeper', timeout_ms: 10_000 });
      await server.call('agent.prompt', { target: 'keeper', text: 'work 60000 long' });
      await eventually(async () => (await server.call('agent.get', { target: 'keeper' })).agent.agent_status === 'working', 'keeper at work');
      const two = (await server.call('agent.prompt', { target: 'keeper', text: 'work 10 two' })).turn;
      const three = (await server.call('agent.prompt', { target: 'keeper', text: 'work 10 three', key: 'job-3' })).turn;
      // An agent typed into a shell: after the restart the pane is that shell, and nothing of its queue is typed there.
      const { paneId: shellPane } = await newWorkspace(server);
      await promptShown(server, shellPane);
      await server.call('agent.start', { command: [FAKE_AGENT], pane_id: shellPane, name: 'typed', timeout_ms: 10_000 });
      await server.call('agent.prompt', { target: 'typed', text: 'work 60000 long' });
      await eventually(async () => (await server.call('agent.get', { target: 'typed' })).agent.agent_status === 'working', 'typed at work');
      const orphan = (await server.call('agent.prompt', { target: 'typed', text: 'echo SHOULD-NEVER-RUN' })).turn;
      assert.deepEqual([two.state, three.state, orphan.state], ['queued', 'queued', 'queued']);
      await server.stop();

      server = await startServer(options);
      const back = await eventually(async () => {
        const { agent } = await server.call('agent.get', { target: 'keeper' });
        return agent.agent_status !== 'unknown' && agent.launch_pending === undefined && agent;
      }, 'keeper back under its name');
      assert.equal(back.agent_instance_id, started.agent.agent_instance_id, 'the same occupant');
      const done = await server.call('agent.prompt', { target: 'keeper', text: 'work 10 four', wait: { timeout_ms: 15_000 } });
      assert.deepEqual([done.turn.state, done.turn.outcome], ['finished', 'done']);
      const { read } = await server.call('pane.read', { pane_id: started.agent.terminal_id, source: 'recent', lines: 50 });
      const answered = [...read.text.matchAll(/^answer: (\w+) \(\d+\)$/gm)].map((match) => match[1]);
      assert.deepEqual(answered, ['two', 'three', 'four'], 'the queue first, in order, each once');
      for (const turn of [two, three]) {
        const now = (await server.call('agent.turn.get', { turn_id: turn.turn_id })).turn;
        assert.deepEqual([now.state, now.outcome], ['finished', 'done'], turn.text);
      }
      // The key still names its turn: a retry writes nothing.
      const retry = await server.call('agent.prompt', { target: 'keeper', text: 'work 10 three', key: 'job-3' });
      assert.equal(retry.turn.turn_id, three.turn_id);
      assert.ok(Number(done.turn.turn_id.slice(1)) > Number(orphan.turn_id.slice(1)), 'turn ids go on from before the restart');
      const failed = (await server.call('agent.turn.get', { turn_id: orphan.turn_id })).turn;
      assert.deepEqual([failed.state, failed.outcome], ['failed', 'exited']);
      await server.call('pane.send_text', { pane_id: shellPane, text: 'echo shell-$((6*7))\r' });
      assert.doesNotMatch(await readUntil(server, shellPane, (t) => /^shell-42$/m.test(t)), /SHOULD-NEVER-RUN/);
      await server.stop();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
