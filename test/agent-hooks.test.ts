/**
 * docs/protocol.md §10.5 end to end: hook scripts written like real integrations (sh +
 * python3, Node, the CLI through HERDR_BIN_PATH) run inside a pane by a fake agent and
 * report over the real socket; the pane's state, source, message and session follow
 * the authority and seq rules.
 */
import assert from 'node:assert/strict';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PaneInfo } from '../src/protocol/objects.js';
import { EventClient } from './helpers/events.js';
import {
  REPO_ROOT,
  type TestServer,
  eventually,
  herdrCli,
  newWorkspace,
  promptShown,
  rawExchange,
  readUntil,
  startServer,
} from './helpers/server.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
const HOOK_AGENTS = join(FIXTURES, 'hook-agents');
type Hook = 'report.sh' | 'report.mjs' | 'report-cli.sh';

/** Two values a double cannot tell apart (the spacing of doubles near 1.8e18 is 256). */
const NS = 1_800_000_000_000_000_200n;

interface FakeAgent {
  paneId: string;
  /** Types one line for the agent's hook and waits until the hook has its answer. */
  say(line: string): Promise<void>;
  /** The hook's log: one line per report, `METHOD <ms>ms <answer>`. */
  log(): string[];
}

let server: TestServer;
let nextLog = 0;

async function startAgent(name: 'claude' | 'mybot', hook: Hook, source = `test:${hook}`): Promise<FakeAgent> {
  const logPath = join(server.dir, `hook-${++nextLog}.log`);
  const { paneId } = await newWorkspace(server, {
    env: {
      PATH: `${HOOK_AGENTS}:${process.env.PATH}`,
      HOOK: join(FIXTURES, 'hooks', hook),
      HOOK_AGENT: name,
      HOOK_SOURCE: source,
      HOOK_LOG: logPath,
    },
  });
  await promptShown(server, paneId);
  await server.call('pane.send_input', { pane_id: paneId, text: name });
  await readUntil(server, paneId, (text) => text.includes(`fake agent ${name} ready`));
  const log = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8').split('\n').filter(Boolean) : []);
  return {
    paneId,
    log,
    say: async (line) => {
      const before = log().length;
      await server.call('pane.send_input', { pane_id: paneId, text: line });
      await eventually(() => log().length > before, `the hook for "${line}" to be answered`);
    },
  };
}

/**
 * A round trip through the pane's shard: it handles messages in order, so every report
 * sent before has been applied (or dropped) and its outcome is in main's cache.
 */
const settled = (paneId: string) => server.call('pane.read', { pane_id: paneId, source: 'visible', lines: 1 });

const paneOf = async (paneId: string): Promise<PaneInfo> => (await server.call('pane.get', { pane_id: paneId })).pane;

/** Waits until the pane's agent fields are exactly `want` (fields absent in `want` must be absent). */
function agentIs(paneId: string, want: Pick<PaneInfo, 'agent' | 'agent_state' | 'agent_source' | 'agent_message'>): Promise<PaneInfo> {
  return eventually(async () => {
    const pane = await paneOf(paneId);
    const got = { agent: pane.agent, agent_state: pane.agent_state, agent_source: pane.agent_source, agent_message: pane.agent_message };
    const wanted = { agent: want.agent, agent_state: want.agent_state, agent_source: want.agent_source, agent_message: want.agent_message };
    return JSON.stringify(got) === JSON.stringify(wanted) && pane;
  }, `pane ${paneId} to be ${JSON.stringify(want)}`);
}

/** Every answer the hook logged was ok, and within the integrations' 500 ms budget. */
function assertAnsweredOk(agent: FakeAgent, count: number): void {
  const lines = agent.log();
  assert.equal(lines.length, count, lines.join('\n'));
  for (const line of lines) {
    const match = /^\S+ ([\d.]+)ms (.*)$/.exec(line);
    assert.ok(match, line);
    assert.ok(Number(match[1]) < 500, `answered in ${match[1]} ms: ${line}`);
    assert.deepEqual(JSON.parse(match[2] ?? '').result, { type: 'ok' }, line);
  }
}

const screenIdle = { agent: 'claude', agent_state: 'idle', agent_source: 'screen' } as const;

describe('agent hook reports', () => {
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('a python3 hook drives claude working → blocked with a message → idle, over the screen rules', async () => {
    const agent = await startAgent('claude', 'report.sh');
    await agentIs(agent.paneId, screenIdle);
    const stream = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_state_changed', pane_id: agent.paneId }] });
    await agent.say('pane.report_agent working now');
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'working', agent_source: 'hook' });
    await agent.say('pane.report_agent blocked now Allow rm -rf build?');
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'blocked', agent_source: 'hook', agent_message: 'Allow rm -rf build?' });
    await agent.say('pane.report_agent idle now');
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'idle', agent_source: 'hook' });
    const events = await stream.until((e) => e.length >= 3, 'three state changes');
    assert.deepEqual(events.map((e) => (e.data as { state: string }).state), ['working', 'blocked', 'idle']);
    assert.ok(events.every((e) => (e.data as { agent?: string }).agent === 'claude'));
    stream.close();
    assertAnsweredOk(agent, 3);
  });

  it('seqs are exact and per source: older, repeated and missing seqs are dropped (and still answered ok)', async () => {
    const agent = await startAgent('claude', 'report.mjs');
    await agentIs(agent.paneId, screenIdle);
    const stream = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_state_changed', pane_id: agent.paneId }] });
    await agent.say(`pane.report_agent working ${NS}`);
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'working', agent_source: 'hook' });
    await agent.say(`pane.report_agent blocked ${NS - 100n} older`);
    await agent.say(`pane.report_agent blocked ${NS} repeated`);
    await agent.say('pane.report_agent blocked none without a seq');
    await settled(agent.paneId);
    assert.equal((await paneOf(agent.paneId)).agent_state, 'working');
    // One more than the last: the same double, a larger integer.
    await agent.say(`pane.report_agent idle ${NS + 1n}`);
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'idle', agent_source: 'hook' });
    // Another source keeps its own record: a small seq is its first.
    await server.call('pane.report_agent', { pane_id: agent.paneId, source: 'other', agent: 'claude', state: 'blocked', seq: 5 });
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'blocked', agent_source: 'hook' });
    const states = (await stream.until((e) => e.length >= 3, 'three changes')).map((e) => (e.data as { state: string }).state);
    assert.deepEqual(states, ['working', 'idle', 'blocked'], 'no dropped report showed');
    stream.close();
    assertAnsweredOk(agent, 5);
  });

  it('a custom label from a program the detector does not know; its authority ends when it leaves the foreground', async () => {
    const agent = await startAgent('mybot', 'report.mjs');
    assert.equal((await paneOf(agent.paneId)).agent, undefined);
    const stream = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_detected' }] });
    await agent.say('pane.report_agent working now');
    await agentIs(agent.paneId, { agent: 'mybot', agent_state: 'working', agent_source: 'hook' });
    await agent.say('pane.report_agent blocked now Which branch?');
    await agentIs(agent.paneId, { agent: 'mybot', agent_state: 'blocked', agent_source: 'hook', agent_message: 'Which branch?' });
    await server.call('pane.send_input', { pane_id: agent.paneId, text: 'exit' });
    await agentIs(agent.paneId, { agent: undefined, agent_state: 'unknown', agent_source: undefined });
    const events = await stream.until((e) => e.length >= 2, 'mybot detected, then gone');
    assert.deepEqual(events.map((e) => (e.data as { agent?: string }).agent), ['mybot', undefined]);
    stream.close();
    assertAnsweredOk(agent, 2);
  });

  it('a report naming another agent than the detected one is ignored; release hands the pane back to the screen', async () => {
    const agent = await startAgent('claude', 'report.sh');
    await agentIs(agent.paneId, screenIdle);
    await agent.say('as=codex pane.report_agent working now');
    await settled(agent.paneId);
    assert.equal((await paneOf(agent.paneId)).agent_source, 'screen', 'codex is not the agent in front');
    await agent.say('pane.report_agent blocked now');
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'blocked', agent_source: 'hook' });
    await agent.say('as=codex pane.report_agent working now');
    await agent.say('pane.release_agent - now');
    await agentIs(agent.paneId, screenIdle);
    // A late report older than the release is still dropped: release keeps the seq record.
    await agent.say('pane.report_agent working 1');
    await settled(agent.paneId);
    assert.equal((await paneOf(agent.paneId)).agent_source, 'screen');
    assertAnsweredOk(agent, 5);
  });

  it('when the agent exits its authority and seq record go, after the 3 s linger', async () => {
    const agent = await startAgent('claude', 'report.sh');
    await agentIs(agent.paneId, screenIdle);
    await agent.say(`pane.report_agent blocked ${NS + 1000n} Proceed?`);
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'blocked', agent_source: 'hook', agent_message: 'Proceed?' });
    await server.call('pane.send_input', { pane_id: agent.paneId, text: 'exit' });
    await eventually(async () => (await paneOf(agent.paneId)).agent === undefined, 'claude to leave', 10_000);
    // A new run starts a fresh record: a seq below the old one counts.
    await server.call('pane.send_input', { pane_id: agent.paneId, text: 'claude' });
    await agentIs(agent.paneId, screenIdle);
    await agent.say(`pane.report_agent working ${NS}`);
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'working', agent_source: 'hook' });
  });

  it('clear_agent_authority and report_agent_session; the session is shown and leaves with the agent', async () => {
    const agent = await startAgent('claude', 'report.sh');
    await agentIs(agent.paneId, screenIdle);
    const pane = agent.paneId;
    await server.call('pane.report_agent_session', {
      pane_id: pane, source: 'test', agent: 'claude', agent_session_id: 'abc-123', agent_session_path: '/tmp/abc-123.jsonl', session_start_source: 'startup',
    });
    await eventually(async () => (await paneOf(pane)).agent_session?.id === 'abc-123', 'the session to be recorded');
    const info = await agentIs(pane, screenIdle);
    assert.deepEqual(info.agent_session, { id: 'abc-123', path: '/tmp/abc-123.jsonl' });
    await server.call('pane.report_agent', { pane_id: pane, source: 'a', agent: 'claude', state: 'working' });
    await server.call('pane.report_agent', { pane_id: pane, source: 'b', agent: 'claude', state: 'blocked' });
    await agentIs(pane, { agent: 'claude', agent_state: 'blocked', agent_source: 'hook' });
    await server.call('pane.clear_agent_authority', { pane_id: pane, source: 'b' });
    await agentIs(pane, { agent: 'claude', agent_state: 'working', agent_source: 'hook' });
    await server.call('pane.clear_agent_authority', { pane_id: pane });
    await agentIs(pane, screenIdle);
    await server.call('pane.send_input', { pane_id: pane, text: 'exit' });
    await eventually(async () => {
      const now = await paneOf(pane);
      return now.agent === undefined && now.agent_session === undefined;
    }, 'claude and its session to leave', 10_000);
  });

  it('CLI forms, and a hook that shells out to HERDR_BIN_PATH', async () => {
    const agent = await startAgent('claude', 'report-cli.sh');
    await agentIs(agent.paneId, screenIdle);
    await agent.say('x working now Running tests');
    await agentIs(agent.paneId, { agent: 'claude', agent_state: 'working', agent_source: 'hook', agent_message: 'Running tests' });
    assert.deepEqual(agent.log(), ['report_agent cli ok']);

    const herdr = herdrCli(server);
    const pane = agent.paneId;
    const seq = (n: bigint) => String(NS * 10n + n);
    await herdr('pane', 'report-agent', pane, '--source', 'cli', '--agent', 'claude', '--state', 'blocked', '--message', 'Allow?', '--seq', seq(1n));
    await agentIs(pane, { agent: 'claude', agent_state: 'blocked', agent_source: 'hook', agent_message: 'Allow?' });
    await herdr('pane', 'report-agent-session', pane, '--source', 'cli', '--agent', 'claude', '--agent-session-id', 's-1', '--seq', seq(2n));
    await eventually(async () => (await paneOf(pane)).agent_session?.id === 's-1', 'the session from the CLI');
    // An older seq from the same source is dropped, and still exits 0.
    const stale = await herdr('pane', 'release-agent', pane, '--source', 'cli', '--agent', 'claude', '--seq', seq(1n));
    assert.equal(stale.stdout, '');
    await herdr('pane', 'release-agent', pane, '--source', 'cli', '--agent', 'claude', '--seq', seq(3n));
    await agentIs(pane, { agent: 'claude', agent_state: 'working', agent_source: 'hook', agent_message: 'Running tests' });

    await assert.rejects(herdr('pane', 'report-agent', pane, '--source', 'cli', '--agent', ' ', '--state', 'idle'), (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /"code":"invalid_agent"/);
      return true;
    });
    await assert.rejects(herdr('pane', 'report-agent', pane, '--source', 'cli', '--agent', 'x', '--state', 'idle', '--seq', '-1'), { code: 2 });
    await assert.rejects(herdr('pane', 'report-agent', pane, '--source', 'cli', '--agent', 'x', '--state', 'sleepy'), { code: 2 });
  });

  it('bad reports get clear errors and change nothing; every pane knows HERDR_BIN_PATH', async () => {
    const { paneId } = await newWorkspace(server);
    const expectError = async (params: object, code: string, method = 'pane.report_agent') => {
      const response = await server.request(method, params);
      assert.equal('error' in response && response.error.code, code, JSON.stringify(response));
    };
    const base = { pane_id: paneId, source: 's', agent: 'mybot', state: 'working' };
    await expectError({ ...base, pane_id: '9-9' }, 'pane_not_found');
    await expectError({ ...base, agent: '' }, 'invalid_agent');
    await expectError({ pane_id: paneId, source: 's', agent: '   ' }, 'invalid_agent', 'pane.release_agent');
    await expectError({ ...base, state: 'done' }, 'invalid_request');
    await expectError({ ...base, seq: -1 }, 'invalid_request');
    await expectError({ ...base, seq: 1.5 }, 'invalid_request');
    await expectError({ ...base, source: '' }, 'invalid_request');
    await expectError({}, 'invalid_request');
    const line = (seq: string) => `{"id":"big","method":"pane.report_agent","params":${JSON.stringify(base).slice(0, -1)},"seq":${seq}}}`;
    const [answer] = (await rawExchange(server.socketPath, `${line('18446744073709551616')}\n`)).lines;
    assert.equal(JSON.parse(answer ?? '{}').error?.code, 'invalid_request', '2^64 is past u64');
    await settled(paneId);
    assert.equal((await paneOf(paneId)).agent, undefined, 'nothing was applied');
    const [max] = (await rawExchange(server.socketPath, `${line('18446744073709551615')}\n`)).lines;
    assert.deepEqual(JSON.parse(max ?? '{}').result, { type: 'ok' });
    await agentIs(paneId, { agent: 'mybot', agent_state: 'working', agent_source: 'hook' });

    await server.call('pane.send_input', { pane_id: paneId, text: 'echo "bin=$HERDR_BIN_PATH"' });
    const text = await readUntil(server, paneId, (t) => /^bin=\//m.test(t));
    const bin = /^bin=(.*)$/m.exec(text)?.[1] ?? '';
    accessSync(bin, constants.X_OK);
  });
});
