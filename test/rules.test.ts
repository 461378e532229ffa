/**
 * Event rules (docs/protocol.md §13.8) against a real server, real shells and fake agents
 * that count what they answered: an agent's `done` queues a prompt into another, a failed
 * command prompts an idle agent (and is skipped for a busy one), output starts an agent
 * once, a schedule fires within its rate limit, the loop guard stops a rule that sets
 * itself off (alone or through another rule), bad rules change nothing, rules come back
 * after a restart, and the CLI adds, lists and removes them.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RuleFired } from '../src/protocol/rules.js';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, type TestServer, codeOf, eventually, herdrCli, markingBash, newWorkspace, promptShown, readUntil, sleep, startServer, tempDir } from './helpers/server.js';

const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');

describe('event rules', () => {
  let server: TestServer;
  let firings: EventClient;

  before(async () => {
    server = await startServer({ env: { FAKE_AGENT_WORK_MS: '30' } });
    firings = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'rule.fired' }] });
  });
  after(async () => {
    firings?.close();
    await server?.stop();
  });

  async function startFake(name: string): Promise<{ paneId: string; stableId: string }> {
    const { agent } = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name, timeout_ms: 10_000 });
    return { paneId: agent.pane_id, stableId: agent.terminal_id };
  }

  /** Every answer the fake agent printed, in order. */
  async function answers(target: string): Promise<string[]> {
    const { read } = await server.call('agent.read', { target, source: 'recent', lines: 300 });
    return [...read.text.matchAll(/^answer: (.*) \(\d+\)$/gm)].map((match) => match[1] ?? '');
  }

  function firedOf(ruleId: string): RuleFired[] {
    return firings.events.filter((line) => line.event === 'rule.fired').map((line) => line.data as RuleFired).filter((data) => data.rule_id === ruleId);
  }

  function until(ruleId: string, count: number, what: string, timeoutMs = 15_000): Promise<RuleFired[]> {
    return eventually(() => firedOf(ruleId).length >= count && firedOf(ruleId), what, timeoutMs);
  }

  it('an agent that finishes queues a prompt into another: the turn keyed by the firing, the event naming the rule', async () => {
    const builder = await startFake('builder');
    await startFake('reviewer');
    const { rule } = await server.call('rules.add', {
      name: 'review-builds',
      trigger: { type: 'agent_status', status: 'done', agent: 'builder' },
      action: { type: 'queue', agent: 'reviewer', text: 'work 20 review {{agent}} {{pane_id}} {{nothing}}' },
    });
    assert.match(rule.rule_id, /^r\d+$/);
    assert.deepEqual([rule.name, rule.limit, rule.loop_guard, rule.fired], ['review-builds', { max: 60, per_s: 60 }, 5, 0]);
    await server.call('agent.prompt', { target: 'builder', text: 'work 100 build' });
    const [fired] = await until(rule.rule_id, 1, 'the rule to fire');
    assert.ok(fired);
    assert.deepEqual(
      { ...fired, turn_id: undefined, agent_instance_id: undefined, target_pane_id: undefined },
      {
        rule_id: rule.rule_id,
        name: 'review-builds',
        firing: 1,
        cause: { type: 'agent_status', pane_id: builder.stableId, workspace_id: builder.stableId.split(':')[0], agent: 'builder', agent_status: 'done' },
        action: 'queue',
        outcome: 'done',
        turn_id: undefined,
        agent_instance_id: undefined,
        target_pane_id: undefined,
      },
    );
    const { turn } = await server.call('agent.turn.get', { turn_id: fired.turn_id ?? '' });
    assert.equal(turn.key, `rule:${rule.rule_id}:1`);
    await eventually(async () => (await answers('reviewer')).length === 1, 'the reviewer to answer');
    assert.deepEqual(await answers('reviewer'), [`review builder ${builder.stableId} {{nothing}}`]);
    // Only builder sets it off: the reviewer's own `done` fired nothing.
    await sleep(300);
    assert.equal(firedOf(rule.rule_id).length, 1);
    const listed = (await server.call('rules.list', {})).rules.find((r) => r.rule_id === rule.rule_id);
    assert.deepEqual([listed?.fired, listed?.skipped, listed?.failed], [1, 0, 0]);
    assert.ok((listed?.last_fired_at ?? 0) > 0);
    // Positive control on the same path: builder's next `done` sets it off again.
    await server.call('agent.prompt', { target: 'builder', text: 'work 20 build again' });
    assert.equal((await until(rule.rule_id, 2, 'the second firing'))[1]?.cause.pane_id, builder.stableId);
    await server.call('rules.remove', { rule_id: 'review-builds' });
  });

  it('a failed command prompts an idle agent, and is skipped while the agent is busy', async () => {
    const { paneId } = await newWorkspace(server, { command: markingBash(server.dir, 'rules-133') });
    await promptShown(server, paneId);
    await startFake('fixer');
    const { rule } = await server.call('rules.add', {
      trigger: { type: 'command_finished', exit: 'failed', pane_id: paneId },
      action: { type: 'prompt', agent: 'fixer', text: 'work 400 fix exit {{exit_code}}' },
    });
    await server.call('pane.send_input', { pane_id: paneId, text: 'true', keys: ['Enter'] });
    await server.call('pane.send_input', { pane_id: paneId, text: 'sh -c "exit 3"', keys: ['Enter'] });
    const [first] = await until(rule.rule_id, 1, 'the failed command to fire the rule');
    assert.deepEqual([first?.outcome, first?.cause.exit_code, first?.action], ['done', 3, 'prompt']);
    await eventually(async () => (await server.call('agent.get', { target: 'fixer' })).agent.agent_status === 'working', 'the fixer at work');
    // While the fixer works, another failure is skipped, not queued.
    await server.call('pane.send_input', { pane_id: paneId, text: 'false', keys: ['Enter'] });
    const [, second] = await until(rule.rule_id, 2, 'the second failure');
    assert.deepEqual([second?.outcome, second?.reason, second?.cause.exit_code], ['skipped', 'agent_busy', 1]);
    await eventually(async () => (await answers('fixer')).length === 1, 'the fixer to answer');
    await sleep(200);
    assert.deepEqual(await answers('fixer'), ['fix exit 3']);
    await server.call('rules.remove', { rule_id: rule.rule_id });
  });

  it('output that comes to match starts an agent under its name, never a second while it runs', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const { rule } = await server.call('rules.add', {
      name: 'on-deploy',
      trigger: { type: 'output_matched', pane_id: paneId, match: { type: 'regex', value: '^DEPLOYED v\\d+' }, source: 'recent', lines: 2 },
      action: { type: 'start', agent: 'watcher', command: [FAKE_AGENT], cwd: server.dir },
    });
    assert.equal(rule.watching, true);
    await server.call('pane.send_input', { pane_id: paneId, text: 'printf "DEPLOYED v%s\\n" 1', keys: ['Enter'] });
    const [started] = await until(rule.rule_id, 1, 'the output to fire the rule');
    assert.deepEqual([started?.outcome, started?.cause.type, started?.cause.matched_line], ['done', 'output_matched', 'DEPLOYED v1']);
    assert.equal((await server.call('agent.get', { target: 'watcher' })).agent.terminal_id, started?.target_pane_id);
    // Out of the window, then again: the rule fires again, and starts nothing.
    await server.call('pane.send_input', { pane_id: paneId, text: 'echo; echo; echo', keys: ['Enter'] });
    await readUntil(server, paneId, (text) => !/DEPLOYED/.test(text.split('\n').slice(-3).join('\n')), { source: 'recent', lines: 3 });
    // A changing screen is looked at every 16 ms at most: the screen without a match must last longer to be seen.
    await sleep(100);
    await server.call('pane.send_input', { pane_id: paneId, text: 'printf "DEPLOYED v%s\\n" 2', keys: ['Enter'] });
    const [, again] = await until(rule.rule_id, 2, 'the second match');
    assert.deepEqual([again?.outcome, again?.reason], ['skipped', 'already_running']);
    assert.equal((await server.call('agent.list', {})).agents.filter((agent) => agent.name === 'watcher').length, 1);
    await server.call('rules.remove', { rule_id: 'on-deploy' });
  });

  it('an output rule on an agent that is not there yet watches its pane from when it shows up, and follows it to a new pane', async () => {
    const { rule } = await server.call('rules.add', {
      trigger: { type: 'output_matched', agent: 'later', match: { type: 'regex', value: '^answer: MARK-\\d+' } },
      action: { type: 'queue', agent: 'nobody', text: '{{matched_line}}' },
    });
    const watching = async () => (await server.call('rules.list', {})).rules.find((r) => r.rule_id === rule.rule_id)?.watching;
    assert.equal(await watching(), false, 'nothing to watch yet');
    const first = await startFake('later');
    await eventually(watching, 'the rule watching the agent\'s pane');
    await server.call('agent.prompt', { target: 'later', text: 'work 10 MARK-1' });
    const [one] = await until(rule.rule_id, 1, 'the match in the first pane');
    assert.deepEqual([one?.cause.pane_id, one?.cause.matched_line], [first.stableId, 'answer: MARK-1 (1)']);
    await server.call('pane.close', { pane_id: first.paneId });
    await eventually(async () => (await watching()) === false, 'its pane gone');
    const second = await startFake('later');
    await eventually(watching, 'the rule following the agent to its new pane');
    await server.call('agent.prompt', { target: 'later', text: 'work 10 MARK-2' });
    const [, two] = await until(rule.rule_id, 2, 'the match in the second pane');
    assert.deepEqual([two?.cause.pane_id, two?.cause.matched_line], [second.stableId, 'answer: MARK-2 (1)']);
    await server.call('rules.remove', { rule_id: rule.rule_id });
  });

  it('a schedule fires on its cron beat, no more than its rate limit allows', async () => {
    await startFake('ticker');
    const { rule } = await server.call('rules.add', {
      trigger: { type: 'schedule', cron: '* * * * * *' },
      action: { type: 'queue', agent: 'ticker', text: 'work 10 tick {{rule_id}}' },
      limit: { max: 2, per_s: 3600 },
    });
    assert.ok((rule.next_run_at ?? 0) > Date.now() - 1000, 'the next run is said');
    const fired = await until(rule.rule_id, 4, 'four beats', 10_000);
    await server.call('rules.remove', { rule_id: rule.rule_id });
    assert.deepEqual(fired.slice(0, 4).map((f) => [f.cause.type, f.outcome, f.reason]), [
      ['schedule', 'done', undefined],
      ['schedule', 'done', undefined],
      ['schedule', 'skipped', 'rate_limited'],
      ['schedule', 'skipped', 'rate_limited'],
    ]);
    await eventually(async () => (await answers('ticker')).length === 2, 'two ticks answered');
    assert.deepEqual(await answers('ticker'), [`tick ${rule.rule_id}`, `tick ${rule.rule_id}`]);
  });

  it('the loop guard stops a rule that sets itself off, alone or through another rule', async () => {
    await startFake('looper');
    const { rule } = await server.call('rules.add', {
      trigger: { type: 'agent_status', status: 'done', agent: 'looper' },
      action: { type: 'queue', agent: 'looper', text: 'work 10 again' },
      loop_guard: 3,
    });
    await server.call('agent.prompt', { target: 'looper', text: 'work 10 first' });
    // The client's turn fires it once; three more firings are its own doing, the fifth is refused.
    const fired = await until(rule.rule_id, 5, 'the loop to be stopped');
    assert.deepEqual(fired.map((f) => f.outcome), ['done', 'done', 'done', 'done', 'skipped']);
    assert.equal(fired[4]?.reason, 'loop_guard');
    await sleep(500);
    assert.equal(firedOf(rule.rule_id).length, 5, 'nothing after the guard');
    assert.deepEqual(await answers('looper'), ['first', 'again', 'again', 'again', 'again']);
    // Positive control on the same path: the next `done` of looper is heard, and refused (the
    // rule reached its pane within the minute: whoever prompted it, its events count as the loop's).
    await server.call('agent.prompt', { target: 'looper', text: 'work 10 client' });
    const more = await until(rule.rule_id, 6, 'the next done to be heard');
    assert.deepEqual(more.slice(5).map((f) => [f.outcome, f.reason]), [['skipped', 'loop_guard']]);
    await server.call('rules.remove', { rule_id: rule.rule_id });

    // Ping → pong → ping: each rule reaches its own trigger through the other.
    await startFake('ping');
    await startFake('pong');
    const toPong = (await server.call('rules.add', { trigger: { type: 'agent_status', status: 'done', agent: 'ping' }, action: { type: 'queue', agent: 'pong', text: 'work 10 pong' }, loop_guard: 2 })).rule;
    const toPing = (await server.call('rules.add', { trigger: { type: 'agent_status', status: 'done', agent: 'pong' }, action: { type: 'queue', agent: 'ping', text: 'work 10 ping' }, loop_guard: 2 })).rule;
    await server.call('agent.prompt', { target: 'ping', text: 'work 10 serve' });
    await eventually(() => [toPong, toPing].some((r) => firedOf(r.rule_id).some((f) => f.reason === 'loop_guard')), 'the ping-pong to be stopped');
    await sleep(500);
    const total = firedOf(toPong.rule_id).length + firedOf(toPing.rule_id).length;
    assert.ok(total <= 8, `${total} firings: at most one not its own doing, 2 self-caused and a refusal for each`);
    await sleep(300);
    assert.equal(firedOf(toPong.rule_id).length + firedOf(toPing.rule_id).length, total, 'the loop has stopped');
    // Positive control on the same path: a client's turn to ping is heard again (and refused as the loop's).
    await server.call('agent.prompt', { target: 'ping', text: 'work 10 serve again' });
    await eventually(() => firedOf(toPong.rule_id).length + firedOf(toPing.rule_id).length > total, 'ping\'s next done to be heard');
    for (const r of [toPong, toPing]) await server.call('rules.remove', { rule_id: r.rule_id });
  });

  it('refuses bad rules with a clear error and adds nothing', async () => {
    const before = (await server.call('rules.list', {})).rules.length;
    const action = { type: 'queue', agent: 'nobody', text: 'x' } as const;
    const { paneId } = await newWorkspace(server);
    const cases: Array<[object, string, RegExp]> = [
      [{ trigger: { type: 'schedule', cron: '61 * * * *' }, action }, 'invalid_rule', /does not parse/],
      [{ trigger: { type: 'schedule', cron: '* * * * *', timezone: 'Mars/Olympus' }, action }, 'invalid_rule', /no time zone Mars\/Olympus/],
      [{ trigger: { type: 'output_matched', pane_id: paneId, match: { type: 'regex', value: '((' } }, action }, 'invalid_regex', /invalid regex/],
      [{ trigger: { type: 'output_matched', match: { type: 'substring', value: 'x' } }, action }, 'invalid_rule', /pane_id or its agent/],
      [{ trigger: { type: 'output_matched', pane_id: '99-9', match: { type: 'substring', value: 'x' } }, action }, 'invalid_rule', /no pane 99-9 to watch/],
      [{ trigger: { type: 'agent_status', status: 'unknown' }, action }, 'invalid_request', /status/],
      [{ trigger: { type: 'agent_status', status: 'done' }, action: { type: 'shell', command: 'rm -rf /' } }, 'invalid_request', /action/],
      [{ trigger: { type: 'agent_status', status: 'done' }, action, limit: { max: 0, per_s: 1 } }, 'invalid_request', /limit/],
    ];
    for (const [params, code, message] of cases) {
      const answer = await server.request('rules.add', params);
      const error = 'error' in answer ? answer.error : undefined;
      assert.equal(error?.code, code, JSON.stringify(params));
      assert.match(error?.message ?? '', message);
    }
    await server.call('rules.add', { name: 'once', trigger: { type: 'agent_status', status: 'done' }, action });
    assert.equal(await codeOf(server.call('rules.add', { name: 'once', trigger: { type: 'agent_status', status: 'idle' }, action })), 'invalid_rule');
    assert.equal(await codeOf(server.call('rules.remove', { rule_id: 'r999' })), 'rule_not_found');
    await server.call('rules.remove', { rule_id: 'once' });
    assert.equal(await codeOf(server.call('rules.remove', { rule_id: 'once' })), 'rule_not_found');
    assert.equal((await server.call('rules.list', {})).rules.length, before);
    // A client that adds rules in a loop meets a limit, and the server keeps what it had.
    const added: string[] = [];
    for (let batch = 0; before + added.length < 1000; batch++) {
      const count = Math.min(100, 1000 - before - added.length);
      const rules = await Promise.all(Array.from({ length: count }, () => server.call('rules.add', { trigger: { type: 'agent_status', status: 'done' }, action })));
      added.push(...rules.map(({ rule }) => rule.rule_id));
    }
    const refused = await server.request('rules.add', { trigger: { type: 'agent_status', status: 'done' }, action });
    assert.deepEqual('error' in refused && [refused.error.code, /1000 rules already/.test(refused.error.message)], ['invalid_rule', true]);
    for (const id of added) await server.call('rules.remove', { rule_id: id });
    assert.equal((await server.call('rules.list', {})).rules.length, before);
  });

  it('the CLI adds, lists and removes rules', async () => {
    const herdr = herdrCli(server);
    const added = await herdr('rules', 'add', '--name', 'cli-rule', '--on-agent', 'blocked', '--agent', 'builder', '--queue', 'reviewer', '--text', 'look at {{agent}}', '--max', '3', '--per', '60', '--loop-guard', '2');
    assert.match(added.stdout, /^r\d+\s+cli-rule\s+agent builder blocked\s+queue → reviewer\s+0\/0\/0$/m);
    const schedule = await herdr('rules', 'add', '--every', '0 9 * * 1-5', '--timezone', 'Europe/Berlin', '--start', 'standup', '--kind', 'claude', '--json');
    const scheduled = JSON.parse(schedule.stdout) as { rule_id: string; trigger: object; action: object };
    assert.deepEqual(scheduled.trigger, { type: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' });
    assert.deepEqual(scheduled.action, { type: 'start', agent: 'standup', kind: 'claude' });
    const listed = await herdr('rules', 'list');
    assert.match(listed.stdout, /cli-rule\s+agent builder blocked\s+queue → reviewer/);
    assert.match(listed.stdout, new RegExp(`${scheduled.rule_id}\\s+-\\s+every "0 9 \\* \\* 1-5" Europe/Berlin\\s+start standup \\(claude\\)`));
    const failed = await herdr('rules', 'add', '--every', 'whenever', '--queue', 'x', '--text', 'y').then(
      () => undefined,
      (error: { stderr: string; code: number }) => error,
    );
    assert.equal(failed?.code, 1);
    assert.match(failed?.stderr ?? '', /"code":"invalid_rule","message":"the schedule whenever does not parse/);
    const spec = { name: 'spec-rule', trigger: { type: 'schedule', cron: '0 0 1 1 *' }, action: { type: 'queue', agent: 'x', text: 'y' }, loop_guard: 2 };
    const fromSpec = JSON.parse((await herdr('rules', 'add', '--spec', JSON.stringify(spec), '--json')).stdout) as { name: string; loop_guard: number; trigger: object };
    assert.deepEqual([fromSpec.name, fromSpec.loop_guard, fromSpec.trigger], ['spec-rule', 2, spec.trigger]);
    const mixed = await herdr('rules', 'add', '--spec', '{}', '--queue', 'x').then(() => undefined, (error: { stderr: string; code: number }) => error);
    assert.deepEqual([mixed?.code, /--spec is the whole rule/.test(mixed?.stderr ?? '')], [2, true]);
    await herdr('rules', 'remove', 'spec-rule');
    await herdr('rules', 'remove', 'cli-rule');
    await herdr('rules', 'remove', scheduled.rule_id);
    assert.doesNotMatch((await herdr('rules', 'list')).stdout, /cli-rule/);
  });
});

describe('event rules across a restart', () => {
  it('come back with their ids, and the next rule gets a new one', async () => {
    const root = tempDir('herdr-rules-');
    const options = { stateDir: join(root, 'state'), socketPath: join(root, 'herdr.sock') };
    try {
      let server = await startServer(options);
      const { paneId } = await newWorkspace(server);
      const kept = (await server.call('rules.add', { name: 'kept', trigger: { type: 'agent_status', status: 'blocked', kind: 'claude' }, action: { type: 'queue', agent: 'lead', text: 'blocked: {{pane_id}}' } })).rule;
      const watching = (await server.call('rules.add', { trigger: { type: 'output_matched', pane_id: paneId, match: { type: 'substring', value: 'PANIC' } }, action: { type: 'start', agent: 'medic', command: [FAKE_AGENT] } })).rule;
      const gone = (await server.call('rules.add', { trigger: { type: 'schedule', cron: '0 0 1 1 *' }, action: { type: 'queue', agent: 'x', text: 'y' } })).rule;
      await server.call('rules.remove', { rule_id: gone.rule_id });
      await server.stop();
      server = await startServer(options);
      const { rules } = await server.call('rules.list', {});
      assert.deepEqual(rules.map((r) => [r.rule_id, r.name, r.trigger.type, r.fired]), [[kept.rule_id, 'kept', 'agent_status', 0], [watching.rule_id, undefined, 'output_matched', 0]]);
      assert.deepEqual(rules[0]?.action, kept.action);
      assert.equal(rules[1]?.watching, true, 'the restored pane is watched again');
      const next = (await server.call('rules.add', { trigger: { type: 'agent_status', status: 'done' }, action: { type: 'queue', agent: 'x', text: 'y' } })).rule;
      assert.equal(next.rule_id, `r${Number(gone.rule_id.slice(1)) + 1}`);
      // The restored output rule fires.
      await promptShown(server, paneId);
      await server.call('pane.send_input', { pane_id: paneId, text: 'echo PANIC', keys: ['Enter'] });
      await eventually(async () => (await server.call('rules.list', {})).rules.find((r) => r.rule_id === watching.rule_id)?.fired === 1, 'the restored rule to fire');
      await server.stop();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
