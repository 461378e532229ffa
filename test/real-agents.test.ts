/**
 * The real agent CLIs (harness/agents/agent-clis.json, installed by `npm run agents:install`),
 * each configured as a person would for a local model and driven whole turns against the
 * scripted model server on loopback (harness/model), through the socket API a client uses:
 * started and ready, prompted and done with the answer on its screen, its own permission
 * menu blocked in the inbox and answered, a prompt sent while it works queued and reaching
 * the model once after the turn, waits and rules on the real end of a turn, an interrupt,
 * its exit failing its queue, and (codex) nothing left running after its pane. The model
 * server counts what reached it; nothing reaches the network (its proxy refuses and records).
 * A CLI that is not installed skips with the reason (npm could not reach the registry).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AGENT_CLIS, type RealAgent, skipUnlessInstalled } from '../harness/agents/catalog.js';
import { prepareAgent } from '../harness/agents/homes.js';
import { ModelServer } from '../harness/model/server.js';
import type { AgentInfo } from '../src/protocol/objects.js';
import { EventClient } from './helpers/events.js';
import { type TestServer, eventually, startServer, tempDir } from './helpers/server.js';

/** How each CLI is interrupted while it works (docs/agents.md): opencode takes Esc twice, qwen puts the prompt back on the first. */
const INTERRUPT: Record<RealAgent, string[][]> = {
  claude: [['Escape']],
  codex: [['Escape']],
  opencode: [['Escape'], ['Escape']],
  pi: [['Escape']],
  qwen: [['Escape']],
  gemini: [['Escape']],
};
/** After an interrupt, what clears a prompt the CLI put back in its input box. */
const CLEAR_INPUT: Partial<Record<RealAgent, string[]>> = { qwen: ['Escape'] };
/** Arguments each is started with: claude's default mode asks a classifier on Anthropic's servers, so its own "ask" mode. */
const ARGS: Partial<Record<RealAgent, string[]>> = { claude: ['--permission-mode', 'default'] };

const LONG_ANSWER = 'This answer streams for a while, a few characters at a time, the way a model streams a long reply to a fleet, and it ends with FINISHED.';

let model: ModelServer;
let server: TestServer;
let dir: string;

before(async () => {
  model = await ModelServer.start();
  model.script('*', {
    turns: [
      { when: 'remove the cache', steps: [{ say: 'Removing it.', shell: 'rm -rf ./cache' }, { say: 'Removed the cache: GONE.' }] },
      { when: 'long answer', steps: [{ say: LONG_ANSWER, chunkChars: 4, intervalMs: 60 }] },
      { when: 'slow answer', steps: [{ say: `${LONG_ANSWER} ${LONG_ANSWER}`, chunkChars: 2, intervalMs: 100 }] },
    ],
  });
  server = await startServer();
  dir = tempDir('herdr-real-agents-');
});

after(async () => {
  await server?.stop();
  await model?.close();
});

for (const cli of AGENT_CLIS) {
  const { agent } = cli;
  describe(`${agent} ${cli.version}, the real CLI`, { skip: skipUnlessInstalled(cli) }, () => {
    const name = `real-${agent}`;
    const key = `sk-herdr-${agent}-${Date.now().toString(36)}0000`;
    const project = () => join(dir, `${agent}-project`);
    let paneId = '';

    const info = async (): Promise<AgentInfo> => (await server.call('agent.get', { target: name })).agent;
    const screen = async (): Promise<string> => (await server.call('agent.read', { target: name, source: 'visible' })).read.text;
    const prompts = () => model.prompts(key);

    it('starts, and is idle only once it takes input: its first prompt is not lost', async () => {
      const prepared = prepareAgent(agent, { model, dir, project: project(), key, args: ARGS[agent] ?? [] });
      const started = await server.call('agent.start', { command: prepared.command, cwd: project(), env: prepared.env, name, timeout_ms: 90_000 });
      paneId = started.agent.pane_id;
      assert.equal(started.agent.agent, agent);
      assert.equal(started.agent.agent_state, 'idle');
      const { explain } = await server.call('agent.explain', { target: name });
      assert.notEqual(explain.decided_by, 'nothing', JSON.stringify(explain));
      // The first prompt right away: written once it is ready, answered, seen by the model once.
      const { turn } = await server.call('agent.prompt', { target: name, text: 'Say hello to the fleet', wait: { timeout_ms: 60_000 } });
      assert.deepEqual([turn.state, turn.outcome], ['finished', 'done'], JSON.stringify(turn));
      assert.equal(model.promptCount('Say hello to the fleet', key), 1);
      assert.match(await screen(), /OK: Say hello to the fleet/);
    });

    it('a shell tool call is blocked with its own menu in the inbox, answered there, the tool runs and the turn is done', async () => {
      mkdirSync(join(project(), 'cache'), { recursive: true });
      const asked = await server.call('agent.prompt', { target: name, text: 'Please remove the cache folder', wait: { until: ['blocked'], timeout_ms: 60_000 } });
      assert.equal(asked.agent.agent_status, 'blocked');
      const { approvals } = await server.call('approvals.list', {});
      const mine = approvals.find((entry) => entry.agent_instance_id === asked.agent.agent_instance_id);
      assert.ok(mine, `in the inbox: ${JSON.stringify(approvals)}`);
      assert.notEqual(mine.menu, 'none', JSON.stringify(mine));
      assert.ok(mine.options.length >= 2, JSON.stringify(mine));
      assert.ok(mine.question, JSON.stringify(mine));
      assert.ok(existsSync(join(project(), 'cache')), 'nothing ran before the answer');
      await server.call('approvals.answer', { pane_id: mine.pane_id, option: mine.options[0]?.key ?? '1', question_hash: mine.question_hash });
      const done = await server.call('agent.wait', { target: name, until: ['done'], timeout_ms: 60_000 });
      assert.equal(done.agent.agent_status, 'done');
      assert.equal(existsSync(join(project(), 'cache')), false, 'the tool ran');
      assert.match(await screen(), /Removed the cache: GONE\./);
    });

    it('a prompt sent while it works waits in its queue and reaches the model once, after the turn; agent.wait ends on the real end', async () => {
      const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.turn_finished', pane_id: paneId }] });
      const long = await server.call('agent.prompt', { target: name, text: 'Give me a long answer please' });
      await server.call('agent.wait', { target: name, until: ['working'], timeout_ms: 30_000 });
      const queued = await server.call('agent.prompt', { target: name, text: 'Then say the queued words' });
      assert.equal(queued.turn.state, 'queued');
      // The wait ends when the answer is on the screen, after the model's last byte.
      const settled = await server.call('agent.wait', { target: name, until: ['done', 'idle'], timeout_ms: 60_000 });
      const longRequest = model.turnRequests(key).find((request) => request.newUserText?.includes('Give me a long answer'));
      assert.ok(longRequest?.lastByteAt !== undefined && longRequest.lastByteAt <= Date.now());
      assert.ok(settled.agent.agent_status === 'done' || settled.agent.agent_status === 'idle');
      const lines = await events.until((seen) => seen.filter((line) => line.event === 'pane.turn_finished').length >= 2, 'both turns to end', 60_000);
      const ended = lines.map((line) => (line.data as { turn_id: string; outcome: string }));
      assert.deepEqual(ended.map((turn) => turn.turn_id), [long.turn.turn_id, queued.turn.turn_id]);
      assert.deepEqual(ended.map((turn) => turn.outcome), ['done', 'done']);
      assert.equal(model.promptCount('Then say the queued words', key), 1);
      const order = prompts();
      assert.ok(order.findIndex((text) => text.includes('queued words')) > order.findIndex((text) => text.includes('long answer')), JSON.stringify(order));
      assert.match(await screen(), /OK: Then say the queued words/);
      events.close();
    });

    it('a rule fires on a real done', async () => {
      const { rule } = await server.call('rules.add', {
        name: `${agent}-follow-up`,
        trigger: { type: 'agent_status', agent: name, status: 'done' },
        action: { type: 'queue', agent: name, text: 'Rule follow-up after done' },
        limit: { max: 1, per_s: 3600 },
      });
      await server.call('agent.prompt', { target: name, text: 'Say the rule trigger', wait: { timeout_ms: 60_000 } });
      await model.until(() => model.promptCount('Rule follow-up after done', key) === 1, 'the rule\'s prompt', 60_000);
      await server.call('agent.wait', { target: name, until: ['done'], timeout_ms: 60_000 });
      await server.call('rules.remove', { rule_id: rule.rule_id });
      assert.equal(model.promptCount('Rule follow-up after done', key), 1);
    });

    it('an interrupt while it works brings it back idle', async () => {
      await server.call('agent.prompt', { target: name, text: 'Now a slow answer please' });
      await server.call('agent.wait', { target: name, until: ['working'], timeout_ms: 30_000 });
      await model.until(() => model.promptCount('slow answer', key) === 1, 'the slow request', 30_000);
      for (const keys of INTERRUPT[agent]) {
        await server.call('agent.send_keys', { target: name, keys });
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const back = await server.call('agent.wait', { target: name, until: ['idle', 'done'], timeout_ms: 30_000 });
      assert.ok(['idle', 'done'].includes(back.agent.agent_status));
      const clear = CLEAR_INPUT[agent];
      if (clear) await server.call('agent.send_keys', { target: name, keys: clear });
      // It still takes prompts.
      const { turn } = await server.call('agent.prompt', { target: name, text: 'Say after the interrupt', wait: { timeout_ms: 60_000 } });
      assert.equal(turn.outcome, 'done', JSON.stringify(turn));
      assert.equal(model.promptCount('Say after the interrupt', key), 1);
    });

    it('its exit ends the pane and fails the prompts still queued, unwritten', async () => {
      const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.exited', pane_id: paneId }] });
      await server.call('agent.prompt', { target: name, text: 'One more long answer please' });
      await server.call('agent.wait', { target: name, until: ['working'], timeout_ms: 30_000 });
      const stranded = await server.call('agent.prompt', { target: name, text: 'Never to be written' });
      assert.equal(stranded.turn.state, 'queued');
      // Its process group: gemini runs itself again as a child in the same group.
      const { pane } = await server.call('pane.get', { pane_id: paneId });
      process.kill(-(pane.pid ?? 0), 'SIGTERM');
      await events.until((seen) => seen.some((line) => (line.data as { type?: string }).type === 'pane_exited'), 'the pane to exit', 30_000);
      const ended = await eventually(async () => {
        const { turn } = await server.call('agent.turn.get', { turn_id: stranded.turn.turn_id });
        return turn.state === 'failed' && turn;
      }, 'the queued prompt to fail');
      assert.equal(ended.outcome, 'exited');
      assert.equal(model.promptCount('Never to be written', key), 0);
      events.close();
    });
  });
}

describe('nothing outlives its pane: codex and its daemon', { skip: skipUnlessInstalled(AGENT_CLIS.find((cli) => cli.agent === 'codex') ?? AGENT_CLIS[0]!) }, () => {
  /** Live processes whose environment holds `mark` (the pane's HERDR_PANE_INSTANCE). */
  function marked(mark: string): Array<{ pid: number; cmdline: string }> {
    return readdirSync('/proc').flatMap((entry) => {
      if (!/^\d+$/.test(entry)) return [];
      try {
        if (!readFileSync(`/proc/${entry}/environ`, 'latin1').includes(`HERDR_PANE_INSTANCE=${mark}\0`)) return [];
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return [];
        return [{ pid: Number(entry), cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ') }];
      } catch {
        return [];
      }
    });
  }

  it('closing the pane of codex ends the app-server daemon it started in a session of its own', async () => {
    const key = `sk-herdr-codex-daemon-${Date.now().toString(36)}`;
    const project = join(dir, 'codex-daemon-project');
    const prepared = prepareAgent('codex', { model, dir: join(dir, 'daemon'), project, key });
    const started = await server.call('agent.start', { command: prepared.command, cwd: project, env: prepared.env, name: 'codex-daemon', timeout_ms: 90_000 });
    await server.call('agent.prompt', { target: 'codex-daemon', text: 'Say hello to the daemon', wait: { timeout_ms: 60_000 } });
    const { pane } = await server.call('pane.get', { pane_id: started.agent.pane_id });
    const mark = /HERDR_PANE_INSTANCE=([^\0]+)/.exec(readFileSync(`/proc/${pane.pid}/environ`, 'latin1'))?.[1] ?? '';
    assert.notEqual(mark, '');
    // Its daemon runs, outside the pane's session (the control that the check below can fail).
    const daemon = await eventually(() => marked(mark).find((process) => process.cmdline.includes('app-server')), 'codex\'s app-server daemon', 30_000);
    assert.ok(daemon);
    await server.call('pane.close', { pane_id: started.agent.pane_id });
    await eventually(() => marked(mark).length === 0, `every process of the pane to end (${JSON.stringify(marked(mark))})`, 10_000);
  });
});

describe('integrations with the real CLIs: their hooks report, with the session', () => {
  for (const cli of AGENT_CLIS) {
    const { agent } = cli;
    it(`${agent}: after \`herdr integration install ${agent}\` its state comes from its hooks and its session is recorded`, { skip: skipUnlessInstalled(cli) }, async () => {
      const name = `hooked-${agent}`;
      const key = `sk-herdr-hooked-${agent}-${Date.now().toString(36)}`;
      const project = join(dir, `${agent}-hooked-project`);
      const prepared = prepareAgent(agent, { model, dir: join(dir, 'hooked'), project, key, args: ARGS[agent] ?? [] });
      const installed = await server.call('integration.install', { target: agent, home: prepared.home });
      assert.ok(installed.details.messages.length > 0);
      const started = await server.call('agent.start', { command: prepared.command, cwd: project, env: prepared.env, name, timeout_ms: 90_000, wait: false });
      if (agent === 'codex') {
        // codex asks to review hooks it has not seen: trusted through the inbox, as a person would.
        await server.call('agent.wait', { target: name, until: ['blocked'], timeout_ms: 60_000 });
        const { approvals } = await server.call('approvals.list', {});
        const review = approvals.find((entry) => entry.agent_instance_id === started.agent.agent_instance_id);
        const trust = review?.options.find((option) => /trust all/i.test(option.label));
        assert.ok(review && trust, JSON.stringify(review));
        await server.call('approvals.answer', { pane_id: review.pane_id, option: trust.key, question_hash: review.question_hash });
      }
      await server.call('agent.wait', { target: name, until: ['idle'], timeout_ms: 90_000 });
      const { turn } = await server.call('agent.prompt', { target: name, text: 'Say hello through the hooks', wait: { timeout_ms: 60_000 } });
      assert.equal(turn.outcome, 'done', JSON.stringify(turn));
      // Its hook processes report on their own time (a Node start each): the last one says idle.
      const hooked = await eventually(async () => {
        const { pane } = await server.call('pane.get', { pane_id: started.agent.pane_id });
        return pane.agent_source === 'hook' && pane.agent_session?.id !== undefined && pane.agent_state === 'idle' && pane;
      }, `${agent}'s hook to be in charge, idle, with its session`, 15_000);
      assert.equal(hooked.agent, agent);
      await server.call('pane.close', { pane_id: started.agent.pane_id });
    });
  }

  it('claude: --resume-agents brings it back in its session after a restart', { skip: skipUnlessInstalled(AGENT_CLIS.find((entry) => entry.agent === 'claude') ?? AGENT_CLIS[0]!) }, async () => {
    const root = tempDir('herdr-resume-');
    const stateDir = join(root, 'state');
    const socketPath = join(root, 'herdr.sock');
    const key = `sk-herdr-resume-claude-${Date.now().toString(36)}`;
    const project = join(root, 'project');
    const prepared = prepareAgent('claude', { model, dir: root, project, key, args: ARGS.claude ?? [] });
    const first = await startServer({ stateDir, socketPath });
    let second: TestServer | undefined;
    try {
      await first.call('integration.install', { target: 'claude', home: prepared.home });
      const started = await first.call('agent.start', { command: prepared.command, cwd: project, env: prepared.env, name: 'remembering', timeout_ms: 90_000 });
      await first.call('agent.prompt', { target: 'remembering', text: 'Remember the word PELICAN', wait: { timeout_ms: 60_000 } });
      const session = await eventually(async () => (await first.call('pane.get', { pane_id: started.agent.pane_id })).pane.agent_session?.id, 'the session id');
      const since = Date.now();
      await eventually(async () => {
        const { last_snapshot: last } = await first.call('server.stats', {});
        return last !== undefined && Date.now() - last.ms_ago > since;
      }, 'a snapshot with the session', 15_000);
      await first.stop();
      second = await startServer({ stateDir, socketPath, serverArgs: ['--resume-agents'] });
      const back = await eventually(async () => {
        const { panes } = await second!.call('pane.list', {});
        const pane = panes.find((entry) => entry.agent === 'claude' && entry.agent_state === 'idle');
        return pane;
      }, 'claude back and idle', 90_000);
      // Started again as `claude --resume <its session>`, showing its conversation.
      assert.deepEqual(readFileSync(`/proc/${back.pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(-2), ['--resume', session]);
      const { read } = await second.call('pane.read', { pane_id: back.pane_id, source: 'visible' });
      assert.match(read.text, /OK: Remember the word PELICAN/);
      // Its conversation is there: the next request carries the first prompt.
      await second.call('agent.prompt', { target: back.pane_id, text: 'What was the word?', wait: { timeout_ms: 60_000 } });
      const request = model.turnRequests(key).find((entry) => entry.newUserText?.includes('What was the word?'));
      assert.ok(request && JSON.stringify(request.body).includes('Remember the word PELICAN'), 'the resumed session sent its history');
    } finally {
      await second?.stop();
      await first.stop();
    }
  });
});
