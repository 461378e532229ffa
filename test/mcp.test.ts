/**
 * `herdr mcp` (docs/mcp.md) end to end: the SDK's own Client over a real stdio
 * transport, spawning `node bin/herdr.js mcp --socket …` against a real server,
 * with the fake agent (bench/fixtures/agents/fake-agent) as the fleet.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../src/protocol/version.js';
import { type TestSshd, sshdMissing, startSshd } from '../harness/sshd.js';
import { HERDR_BIN, REPO_ROOT, type TestServer, eventually, markingBash, startServer, tempDir } from './helpers/server.js';

const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');

type ToolAnswer = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: Array<{ type: string; text?: string }>;
  _meta?: Record<string, unknown>;
};

/** What a structured answer holds, typed loosely for the asserts. */
interface AgentOut {
  agent_instance_id: string;
  name?: string;
  status: string;
  question?: string;
  pane: string;
  workspace: string;
}

describe('herdr mcp', () => {
  let server: TestServer;
  let client: Client;
  let transport: StdioClientTransport;
  const transportErrors: Error[] = [];
  let mcpStderr = '';
  const updates: string[] = [];
  const messages: Array<{ level: string; data: unknown }> = [];
  let listChanges = 0;

  before(async () => {
    server = await startServer({ env: { FAKE_AGENT_WORK_MS: '200' }, serverArgs: ['--worktrees-dir', join(tempDir('herdr-mcp-worktrees-'), 'worktrees')] });
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [HERDR_BIN, 'mcp', '--socket', server.socketPath],
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (mcpStderr += chunk.toString()));
    client = new Client({ name: 'herdr-test', version: '1.0.0' });
    client.onerror = (error) => transportErrors.push(error);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updates.push(notification.params.uri));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void messages.push(notification.params));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanges++);
    await client.connect(transport);
  });
  after(async () => {
    await client.close();
    await server.stop();
  });

  async function tool(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    return (await client.callTool({ name, arguments: args })) as ToolAnswer;
  }
  /** A tool's structured answer; a tool error fails the test with its text. */
  async function ok<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const answer = await tool(name, args);
    assert.ok(!answer.isError, `${name} failed: ${answer.content.map((c) => c.text).join('\n')}`);
    assert.ok(answer.structuredContent, `${name} has structured content`);
    assert.ok(answer.content.some((c) => c.type === 'text' && (c.text ?? '').length > 0), `${name} has a text too`);
    return answer.structuredContent as T;
  }
  function errorText(answer: ToolAnswer): string {
    assert.equal(answer.isError, true, `expected a tool error, got ${JSON.stringify(answer.structuredContent)}`);
    return answer.content.map((c) => c.text).join('\n');
  }
  async function startFake(name: string): Promise<AgentOut> {
    const { agent } = await ok<{ agent: AgentOut }>('start_agent', { command: [FAKE_AGENT], cwd: server.dir, name, timeout_ms: 10_000 });
    return agent;
  }

  it('introduces itself: name, version, instructions, every tool with input and output schemas', async () => {
    assert.deepEqual(client.getServerVersion(), { name: 'herdr', version: VERSION });
    assert.match(client.getInstructions() ?? '', /wait_agents/);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['add_rule', 'answer_approval', 'approvals', 'close', 'fleet', 'prompt_agent', 'read_pane', 'remove_rule', 'rules', 'run_command', 'send_keys', 'start_agent', 'wait_agents']);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.equal(t.outputSchema?.type, 'object', t.name);
      assert.ok((t.description ?? '').length > 40, `${t.name} is described`);
    }
    // The method table's own constraints, not a second copy: agent.prompt's text bound, agent.start's command.
    const prompt = tools.find((t) => t.name === 'prompt_agent');
    assert.deepEqual(prompt?.inputSchema.required, ['target', 'text']);
  });

  it('declares every tool property with a type and a description a generic client can fill', async () => {
    const { tools } = await client.listTools();
    const problems: string[] = [];
    type Schema = { type?: unknown; enum?: unknown; const?: unknown; anyOf?: Schema[]; oneOf?: Schema[]; description?: string; properties?: Record<string, Schema>; items?: Schema };
    const members = (schema: Schema) => [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
    const typed = (schema: Schema): boolean =>
      schema.type !== undefined || schema.enum !== undefined || schema.const !== undefined || (members(schema).length > 0 && members(schema).every((member) => typed(member) && member.type !== 'null'));
    const walk = (schema: Schema, at: string, isProperty: boolean) => {
      // A constant (a union member's `type`) says what it is by itself.
      if (isProperty && !schema.description && schema.const === undefined) problems.push(`${at}: no description`);
      if (!typed(schema)) problems.push(`${at}: no type (${JSON.stringify(schema).slice(0, 80)})`);
      for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${at}.${name}`, true);
      for (const member of members(schema)) walk(member, at, false);
      if (schema.items) walk(schema.items, `${at}[]`, false);
    };
    for (const t of tools) walk(t.inputSchema as Schema, t.name, false);
    assert.deepEqual(problems, []);
    // What the Inspector and a model send: numbers as numbers, wait as true.
    const charlie = await startFake('charlie');
    const { agent, turn } = await ok<{ agent: AgentOut; turn: { state: string; outcome?: string } }>('prompt_agent', { target: 'charlie', text: 'work 50', wait: true });
    assert.deepEqual([agent.status, turn.state, turn.outcome], ['done', 'finished', 'done']);
    // Without a wait the answer is a receipt: its text never gives the status from before the prompt as the result.
    const receipt = await tool('prompt_agent', { target: 'charlie', text: 'work 50' });
    const structured = receipt.structuredContent as { agent: AgentOut; turn: { turn_id: string; state: string }; agent_status_at_submission?: string };
    assert.deepEqual([structured.turn.state, structured.agent_status_at_submission], ['sent', 'done']);
    assert.equal(receipt.content[0]?.text, `charlie: prompt sent as turn ${structured.turn.turn_id}; no result yet (before it, charlie was done)`);
    await ok('wait_agents', { targets: ['charlie'], until: ['working'], timeout_ms: 10_000 });
    const read = await ok<{ text: string }>('read_pane', { target: 'charlie', lines: 3 });
    assert.ok(read.text.trimEnd().split('\n').length <= 3, read.text);
    await ok('close', { pane_id: charlie.pane });
  });

  it('starts an agent, lists it in the fleet by stable ids, prompts it and waits for the turn in one call', async () => {
    const alpha = await startFake('alpha');
    assert.equal(alpha.name, 'alpha');
    assert.equal(alpha.status, 'idle');
    assert.match(alpha.pane, /^w\d+:p\d+$/);
    assert.equal(alpha.pane.split(':')[0], alpha.workspace);
    const fleet = await ok<{ agents: AgentOut[]; panes: Array<{ pane: string; agent_name?: string }>; blocked: number }>('fleet', {});
    assert.deepEqual(fleet.agents.map((a) => a.name), ['alpha']);
    assert.equal(fleet.panes.find((p) => p.pane === alpha.pane)?.agent_name, 'alpha');
    assert.equal(fleet.blocked, 0);
    const { agent } = await ok<{ agent: AgentOut }>('prompt_agent', { target: 'alpha', text: 'work 100', wait: { timeout_ms: 10_000 } });
    assert.equal(agent.status, 'done');
    const read = await ok<{ pane: string; text: string }>('read_pane', { target: 'alpha', lines: 20 });
    assert.equal(read.pane, alpha.pane);
    assert.match(read.text, /Working on: work 100\nanswer: .*\(1\)/);
    // By its pane id too, and the screen only.
    const screen = await ok<{ text: string; source: string }>('read_pane', { target: alpha.pane, source: 'visible' });
    assert.equal(screen.source, 'visible');
    assert.match(screen.text, /fake agent ready/);
  });

  it('sees a blocked agent first with its question, answers its menu with send_keys and waits for it', async () => {
    const { agent } = await ok<{ agent: AgentOut }>('prompt_agent', { target: 'alpha', text: 'ask 100', wait: { timeout_ms: 10_000 } });
    assert.equal(agent.status, 'blocked');
    assert.equal(agent.question, 'Do you want to proceed?');
    await startFake('bravo');
    const fleet = await ok<{ agents: AgentOut[]; blocked: number }>('fleet', {});
    assert.equal(fleet.blocked, 1);
    assert.equal(fleet.agents[0]?.name, 'alpha', 'the blocked agent comes first');
    // A prompt to it waits in its queue, typed only once it is idle again.
    const queued = await ok<{ turn: { turn_id: string; state: string; position?: number } }>('prompt_agent', { target: 'alpha', text: 'work 1' });
    assert.deepEqual([queued.turn.state, queued.turn.position], ['queued', 0]);
    const sent = await ok<{ sent: number; to: string }>('send_keys', { target: 'alpha', keys: ['1', 'Enter'] });
    assert.deepEqual(sent, { sent: 2, to: 'agent' });
    const waited = await ok<{ outcome: string; target: string; agent: AgentOut }>('wait_agents', { targets: ['alpha'], until: ['done'], timeout_ms: 10_000 });
    assert.equal(waited.outcome, 'status');
    assert.equal(waited.agent.status, 'done');
    assert.match((await ok<{ text: string }>('read_pane', { target: 'alpha' })).text, /you chose 1/);
  });

  it('waits for the first of several agents, pushed by the server', async () => {
    await ok('prompt_agent', { target: 'bravo', text: 'work 4000' });
    await ok('prompt_agent', { target: 'alpha', text: 'work 300' });
    const began = Date.now();
    const waited = await ok<{ outcome: string; target: string; agent: AgentOut }>('wait_agents', { targets: ['bravo', 'alpha'], until: ['done', 'blocked'], timeout_ms: 10_000 });
    assert.equal(waited.outcome, 'status');
    assert.equal(waited.target, 'alpha');
    assert.ok(Date.now() - began < 3_500, 'alpha won before bravo finished');
    // The losing waits were ended with the call's connection: only this one is left, then none.
    await eventually(async () => (await server.call('server.stats', {})).waits === 0, 'no waits left on the server');
    const late = await ok<{ outcome: string; target: string }>('wait_agents', { targets: ['bravo'], until: ['done'], timeout_ms: 10_000 });
    assert.equal(late.outcome, 'status');
  });

  it('lists the agents waiting for an answer, and answers one only while its question holds', async () => {
    await ok('prompt_agent', { target: 'bravo', text: 'ask 50', wait: { until: ['blocked'], timeout_ms: 10_000 } });
    const { approvals } = await ok<{ approvals: Array<{ pane: string; name?: string; question?: string; options: Array<{ key: string; label: string }>; question_hash: string }> }>('approvals', {});
    assert.deepEqual(approvals.map((entry) => [entry.name, entry.question, entry.options.map((option) => option.label)]), [['bravo', 'Do you want to proceed?', ['Yes', 'No']]]);
    const [bravo] = approvals;
    assert.ok(bravo);
    assert.match(errorText(await tool('answer_approval', { pane: bravo.pane, option: '2', question_hash: 'ffffffffffffffff' })), /^approval_changed: /);
    const answered = await ok<{ label: string; keys: string[] }>('answer_approval', { pane: bravo.pane, option: '2', question_hash: bravo.question_hash });
    assert.deepEqual([answered.label, answered.keys], ['No', ['2', 'Enter']]);
    await ok('wait_agents', { targets: ['bravo'], until: ['done'], timeout_ms: 10_000 });
    assert.match((await ok<{ text: string }>('read_pane', { target: 'bravo' })).text, /you chose 2/);
  });

  it('adds a rule that acts on an agent\'s done, lists it with its count, and removes it', async () => {
    await startFake('hearer');
    const added = await ok<{ rule_id: string; name?: string }>('add_rule', {
      name: 'echo-back',
      trigger: { type: 'agent_status', status: 'done', agent: 'bravo' },
      action: { type: 'queue', agent: 'hearer', text: 'work 10 heard {{agent}}' },
    });
    assert.equal(added.name, 'echo-back');
    await ok('prompt_agent', { target: 'bravo', text: 'work 20 go', wait: { until: ['done'], timeout_ms: 10_000 } });
    await eventually(async () => /answer: heard bravo/.test((await ok<{ text: string }>('read_pane', { target: 'hearer' })).text), 'the rule to prompt hearer');
    const { rules } = await ok<{ rules: Array<{ rule_id: string; fired: number }> }>('rules', {});
    assert.deepEqual(rules.map((rule) => [rule.rule_id, rule.fired]), [[added.rule_id, 1]]);
    assert.match(errorText(await tool('add_rule', { trigger: { type: 'schedule', cron: 'never' }, action: { type: 'queue', agent: 'hearer', text: 'x' } })), /^invalid_rule: /);
    await ok('remove_rule', { rule: 'echo-back' });
    assert.match(errorText(await tool('remove_rule', { rule: 'echo-back' })), /^rule_not_found: /);
  });

  it('ends a wait when the agent\'s pane exits, and times out when nothing happens', async () => {
    const charlie = await startFake('charlie');
    const waiting = ok<{ outcome: string; target: string }>('wait_agents', { targets: ['charlie'], until: ['done'], timeout_ms: 10_000 });
    await eventually(async () => (await server.call('server.stats', {})).waits > 0, 'the wait is on the server');
    await server.call('pane.send_text', { pane_id: charlie.pane, text: 'exit\r' });
    assert.deepEqual(await waiting, { outcome: 'exited', target: 'charlie' });
    const timedOut = await ok<{ outcome: string }>('wait_agents', { targets: ['alpha'], until: ['working'], timeout_ms: 300 });
    assert.deepEqual(timedOut, { outcome: 'timeout' });
  });

  it('runs a shell command in a new pane and in the same pane again: output and exit code', async () => {
    const first = await ok<{ pane: string; exit_code: number; output: string; via: string; truncated: boolean }>('run_command', {
      command: "echo hello; echo 'it''s' world; (exit 3)",
      cwd: server.dir,
      timeout_ms: 10_000,
    });
    assert.equal(first.exit_code, 3);
    assert.equal(first.output, "hello\nits world");
    // The server's shell here is sh, which has no hooks for the integration: the marks are typed around it.
    assert.equal(first.via, 'marker');
    assert.equal(first.truncated, false);
    const second = await ok<{ pane: string; exit_code: number; output: string }>('run_command', { command: 'printf "a\\nb"; true # a comment', pane_id: first.pane });
    assert.equal(second.pane, first.pane);
    assert.deepEqual([second.exit_code, second.output], [0, 'a\nb']);
    // Past its timeout it goes on in the pane, and the error says where.
    assert.match(errorText(await tool('run_command', { command: 'sleep 3', pane_id: first.pane, timeout_ms: 200 })), new RegExp(`^timeout: the command is still running in ${first.pane}`));
    await ok('close', { pane_id: first.pane });
    // Not into an agent.
    assert.match(errorText(await tool('run_command', { command: 'ls', pane_id: (await startFake('delta')).pane })), /^pane_busy: /);
  });

  it('runs a command in a shell without the integration between marks that nothing draws', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: false, command: ['sh'] });
    const pane = (await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id ?? '';
    const run = await ok('run_command', { command: "echo out; echo 'it''s'; sh -c 'exit 4'", pane_id: pane, timeout_ms: 10_000 });
    assert.deepEqual(run, { pane, exit_code: 4, output: 'out\nits', truncated: false, via: 'marker' });
    // The line typed shows the printf of the marks; what they print, nobody sees.
    const { text: screen } = await ok<{ text: string }>('read_pane', { target: pane, source: 'visible' });
    assert.ok(screen.includes(`eval 'echo out; echo '\\''it'\\'''\\''s'\\''; sh -c '\\''exit 4'\\'''; printf`), screen);
    assert.deepEqual(screen.split('\n').filter((line) => /herdr|7502/.test(line) && !line.includes('printf')), []);
    assert.match(screen, /\bout\nits\n/);
    // Nor does the server take them for the shell's own: the pane still has no exit code of its shell.
    assert.equal((await server.call('pane.get', { pane_id: pane })).pane.last_exit_code, undefined);
    const exited = await ok('run_command', { command: 'echo bye; exit 6', pane_id: pane, timeout_ms: 10_000 });
    assert.deepEqual(exited, { pane, exit_code: 6, output: 'bye', truncated: false, via: 'exit' });
  });

  it('runs a command where the shell marks commands (OSC 133): the end and exit code from pane.command_finished', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: false, command: markingBash(server.dir, 'mcp-133') });
    const pane = (await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id ?? '';
    // One command first, so that the pane has reported an exit code.
    await server.call('pane.send_input', { pane_id: pane, text: 'true', keys: ['Enter'] });
    await eventually(async () => (await server.call('pane.get', { pane_id: pane })).pane.last_exit_code === 0, 'the shell reported an exit code');
    const run = await ok<{ exit_code: number; output: string; via: string }>('run_command', { command: 'echo out; echo more; sh -c "exit 5"', pane_id: pane, timeout_ms: 10_000 });
    assert.deepEqual(run, { pane, exit_code: 5, output: 'out\nmore', truncated: false, via: 'osc133' });
    await server.call('workspace.close', { workspace_id: workspace.stable_id });
  });

  it('starts an agent in a new git worktree of the repository at cwd', async () => {
    const repo = join(server.dir, 'app');
    mkdirSync(repo);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=herdr test', '-c', 'user.email=test@herdr.invalid', '-c', 'commit.gpgsign=false', '-C', repo, ...args], { stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README'), 'hello\n');
    git('add', 'README');
    git('commit', '-q', '-m', 'init');
    const started = await ok<{ agent: AgentOut & { cwd?: string }; worktree: string; argv: string[] }>('start_agent', {
      command: [FAKE_AGENT],
      cwd: realpathSync(repo),
      name: 'foxtrot',
      worktree: { branch: 'feature-x' },
      timeout_ms: 10_000,
    });
    assert.equal(started.agent.status, 'idle');
    assert.ok(existsSync(join(started.worktree, 'README')), `${started.worktree} is a checkout`);
    const { workspaces } = await server.call('workspace.list', {});
    const workspace = workspaces.find((w) => w.stable_id === started.agent.workspace);
    assert.equal(workspace?.worktree?.checkout_path, started.worktree);
    // A pane without an agent takes keys as a pane.
    const shell = await ok<{ pane: string }>('run_command', { command: 'true', cwd: server.dir });
    assert.deepEqual(await ok('send_keys', { target: shell.pane, keys: ['e', 'c', 'h', 'o', 'Space', 'k', 'Enter'] }), { sent: 7, to: 'pane' });
    await ok('close', { workspace_id: started.agent.workspace });
    await ok('close', { pane_id: shell.pane });
  });

  it('refuses a wrong argument by its schema, before the server sees it', async () => {
    const before = await server.call('server.stats', {});
    const panes = (await server.call('pane.list', {})).panes.length;
    for (const [name, args] of [
      ['read_pane', { target: 'alpha', lines: 'ten' }],
      ['start_agent', { command: [], cwd: server.dir }],
      ['close', { pane_id: 'w1:p1', workspace_id: 'w1' }],
      ['close', {}],
      ['send_keys', { target: 'alpha' }],
      ['run_command', { command: 'echo a\necho b' }],
      ['wait_agents', { targets: [] }],
    ] as const) {
      assert.match(errorText(await tool(name, args)), /validation/i, `${name} ${JSON.stringify(args)}`);
    }
    assert.equal((await server.call('pane.list', {})).panes.length, panes, 'nothing made or closed');
    assert.equal((await server.call('server.stats', {})).workspaces, before.workspaces);
  });

  it('answers a server error as a tool error with our code, and closes panes and workspaces', async () => {
    const notFound = await tool('prompt_agent', { target: 'nosuch', text: 'hi' });
    assert.match(errorText(notFound), /^agent_not_found: /);
    assert.equal((notFound._meta?.['herdr/error'] as { code?: string } | undefined)?.code, 'agent_not_found');
    const { agent } = await ok<{ agent: AgentOut }>('prompt_agent', { target: 'delta', text: 'work 1' });
    assert.deepEqual(await ok('close', { pane_id: agent.pane }), { closed: agent.pane });
    assert.match(errorText(await tool('read_pane', { target: agent.pane })), /not_found: /);
    const alpha = (await ok<{ agents: AgentOut[] }>('fleet', {})).agents.find((a) => a.name === 'alpha');
    assert.ok(alpha);
    await ok('close', { workspace_id: alpha.workspace });
    assert.equal((await ok<{ agents: AgentOut[] }>('fleet', {})).agents.some((a) => a.name === 'alpha'), false);
  });

  it('lists each pane\'s screen as a resource, and a subscription to one sees its updates, at most 4 a second', async () => {
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    assert.deepEqual(templates.map((t) => t.uriTemplate), ['herdr://pane/{pane}/screen']);
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: false });
    const pane = (await server.call('pane.list', { workspace_id: workspace.stable_id })).panes[0]?.stable_id ?? '';
    const uri = `herdr://pane/${pane}/screen`;
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === uri && r.mimeType === 'text/plain'), `${uri} is listed`);
    assert.ok(resources.some((r) => r.uri === 'herdr://agents'));
    await client.subscribeResource({ uri });
    const seen = updates.length;
    await server.call('pane.send_input', { pane_id: pane, text: 'echo mcp-$((6*7))', keys: ['Enter'] });
    await eventually(() => updates.slice(seen).includes(uri), 'an update of the screen');
    await eventually(async () => {
      const { contents } = await client.readResource({ uri });
      const first = contents[0];
      return first && 'text' in first && first.text.includes('mcp-42');
    }, 'the screen shows the output');
    // A flood of output for ~1.5 s is told as a handful of updates, not one per write.
    const before = updates.filter((u) => u === uri).length;
    const began = Date.now();
    await server.call('pane.send_input', { pane_id: pane, text: 'i=0; while [ $i -lt 300 ]; do echo line $i; i=$((i+1)); sleep 0.005; done; echo flood-done', keys: ['Enter'] });
    await server.call('pane.wait_for_output', { pane_id: pane, source: 'recent', match: { type: 'regex', value: '^flood-done$' }, timeout_ms: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    const told = updates.filter((u) => u === uri).length - before;
    const allowed = Math.ceil((Date.now() - began) / 250) + 2;
    assert.ok(told >= 2 && told <= allowed, `${told} updates in ${Date.now() - began} ms (at most ${allowed})`);
    // Unsubscribed: no more updates.
    await client.unsubscribeResource({ uri });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const quiet = updates.length;
    await server.call('pane.send_input', { pane_id: pane, text: 'echo unseen', keys: ['Enter'] });
    await server.call('pane.wait_for_output', { pane_id: pane, source: 'recent', match: { type: 'regex', value: '^unseen$' }, timeout_ms: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(updates.length, quiet);
    // Subscribed again (the positive control on the same path), its output is told once more…
    await client.subscribeResource({ uri });
    await server.call('pane.send_input', { pane_id: pane, text: 'echo seen-again', keys: ['Enter'] });
    await eventually(() => updates.length > quiet, 'an update after subscribing again');
    // …and so is the pane's end, and the list changes.
    const lists = listChanges;
    const seenNow = updates.length;
    await server.call('workspace.close', { workspace_id: workspace.stable_id });
    await eventually(() => updates.slice(seenNow).includes(uri), 'an update when the pane goes');
    await eventually(() => listChanges > lists, 'resources/list_changed');
    await assert.rejects(client.subscribeResource({ uri }), /cannot watch/);
  });

  it('tells when an agent turns blocked: a log message with its question, and herdr://agents updated', async () => {
    await client.subscribeResource({ uri: 'herdr://agents' });
    const echo = await startFake('echo');
    const seenUpdates = updates.length;
    const seenMessages = messages.length;
    await ok('prompt_agent', { target: 'echo', text: 'ask 100' });
    const message = await eventually(() => messages.slice(seenMessages).find((m) => (m.data as { event?: string }).event === 'agent_blocked'), 'the blocked message');
    assert.equal(message.level, 'warning');
    assert.deepEqual(
      { name: (message.data as AgentOut).name, pane: (message.data as AgentOut).pane, question: (message.data as AgentOut).question },
      { name: 'echo', pane: echo.pane, question: 'Do you want to proceed?' },
    );
    await eventually(() => updates.slice(seenUpdates).includes('herdr://agents'), 'herdr://agents updated');
    const { contents } = await client.readResource({ uri: 'herdr://agents' });
    const agents = JSON.parse(contents[0] && 'text' in contents[0] ? contents[0].text : '[]') as AgentOut[];
    assert.equal(agents[0]?.name, 'echo', 'blocked first');
    await ok('close', { pane_id: echo.pane });
  });

  it('wrote nothing but protocol frames on stdout, and logs on stderr', () => {
    assert.deepEqual(transportErrors, []);
    assert.match(mcpStderr, /herdr mcp: serving/);
  });
});

describe('herdr mcp without a server', () => {
  it('answers a tool call with the tool error unreachable, and goes on', async () => {
    const client = new Client({ name: 'herdr-test-none', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [HERDR_BIN, 'mcp', '--socket', '/nonexistent/herdr.sock'], stderr: 'pipe' }));
    try {
      for (let i = 0; i < 2; i++) {
        const answer = (await client.callTool({ name: 'fleet', arguments: {} })) as ToolAnswer;
        assert.equal(answer.isError, true);
        assert.match(answer.content[0]?.text ?? '', /^unreachable: no server at \/nonexistent\/herdr.sock/);
      }
    } finally {
      await client.close();
    }
  });
});

describe('herdr mcp started before its server', () => {
  it('works once the server is there: tools at the next call, the blocked notification once its subscription is back', async () => {
    const socketPath = join(tempDir('herdr-mcp-late-'), 'herdr.sock');
    const client = new Client({ name: 'herdr-test-late', version: '1.0.0' });
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void messages.push(notification.params.data));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [HERDR_BIN, 'mcp', '--socket', socketPath], stderr: 'pipe' }));
    let server: TestServer | undefined;
    try {
      assert.equal(((await client.callTool({ name: 'fleet', arguments: {} })) as ToolAnswer).isError, true);
      server = await startServer({ socketPath });
      const fleet = (await client.callTool({ name: 'fleet', arguments: {} })) as ToolAnswer;
      assert.equal(fleet.isError, undefined, JSON.stringify(fleet.content));
      const started = (await client.callTool({ name: 'start_agent', arguments: { command: [FAKE_AGENT], cwd: server.dir, name: 'late', timeout_ms: 10_000 } })) as ToolAnswer;
      assert.equal(started.isError, undefined, JSON.stringify(started.content));
      await eventually(async () => ((await server?.call('server.stats', {}))?.subscriptions ?? 0) > 0, 'the notification subscription is back', 20_000);
      await client.callTool({ name: 'prompt_agent', arguments: { target: 'late', text: 'ask 50' } });
      await eventually(() => messages.some((data) => (data as { name?: string }).name === 'late'), 'the blocked notification');
    } finally {
      await client.close();
      await server?.stop();
    }
  });
});

describe('herdr mcp on stdio, raw', () => {
  it('answers initialize with JSON-RPC lines only and exits 0 when stdin closes', async () => {
    const child = spawn(process.execPath, [HERDR_BIN, 'mcp', '--socket', '/nonexistent/herdr.sock'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    await eventually(() => stdout.includes('\n'), 'the answer');
    child.stdin.end();
    assert.equal(await exited, 0);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const answer = JSON.parse(lines[0] ?? '') as { id: number; result: { serverInfo: { name: string } } };
    assert.equal(answer.id, 1);
    assert.equal(answer.result.serverInfo.name, 'herdr');
  });
});

describe('herdr mcp with --host: the local server and one over ssh', { skip: sshdMissing() }, () => {
  let local: TestServer;
  let remote: TestServer;
  let sshd: TestSshd;
  let client: Client;

  before(async () => {
    local = await startServer();
    remote = await startServer();
    sshd = await startSshd(remote.socketPath);
    client = new Client({ name: 'herdr-test-hosts', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [HERDR_BIN, 'mcp', '--socket', local.socketPath, '--host', sshd.host, '--ssh-command', sshd.sshCommand],
        stderr: 'pipe',
      }),
    );
  });
  after(async () => {
    await client?.close();
    sshd?.stop();
    await remote?.stop();
    await local?.stop();
  });

  async function ok<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
    assert.ok(!answer.isError, `${name} failed: ${answer.content.map((c) => c.text).join('\n')}`);
    return answer.structuredContent as T;
  }

  it('runs on either server, lists both with remote ids host-qualified, and takes those ids back', async () => {
    const here = await ok<{ pane: string; output: string }>('run_command', { command: 'echo here', cwd: local.dir, timeout_ms: 10_000 });
    assert.match(here.pane, /^w\d+:p\d+$/);
    assert.equal(here.output, 'here');
    const there = await ok<{ pane: string; output: string }>('run_command', { command: 'echo there', cwd: remote.dir, host: sshd.host, timeout_ms: 10_000 });
    assert.match(there.pane, new RegExp(`^${sshd.host}/w\\d+:p\\d+$`));
    assert.equal(there.output, 'there');
    assert.equal((await remote.call('pane.list', {})).panes.length, 1, 'it ran on the remote server');
    const fleet = await ok<{ panes: Array<{ pane: string; workspace: string }> }>('fleet', {});
    assert.deepEqual(fleet.panes.map((p) => p.pane).sort(), [here.pane, there.pane].sort());
    assert.match((await ok<{ text: string }>('read_pane', { target: there.pane })).text, /^there$/m);
    await ok('close', { pane_id: there.pane });
    assert.equal((await remote.call('pane.list', {})).panes.length, 0);
    assert.equal((await local.call('pane.list', {})).panes.length, 1);
  });
});

describe('herdr mcp where its client started it', () => {
  it('starts agents and commands without cwd where herdr mcp runs, found on its PATH', async () => {
    const server = await startServer();
    const project = realpathSync(tempDir('herdr-mcp-caller-'));
    const agents = join(REPO_ROOT, 'bench', 'fixtures', 'agents');
    // An MCP client starts `herdr mcp` in the user's project, with the user's PATH.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [HERDR_BIN, 'mcp', '--socket', server.socketPath],
      cwd: project,
      env: { ...(process.env as Record<string, string>), PATH: `${agents}:${process.env.PATH ?? ''}` },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'herdr-test-caller', version: '1.0.0' });
    try {
      await client.connect(transport);
      const call = async (name: string, args: Record<string, unknown>) => {
        const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
        assert.ok(!answer.isError, `${name} failed: ${answer.content.map((c) => c.text).join('\n')}`);
        return answer.structuredContent as Record<string, unknown>;
      };
      const ran = await call('run_command', { command: 'pwd', timeout_ms: 10_000 });
      assert.equal(ran.output, project, 'the command ran where herdr mcp runs, not in the server\'s directory');
      // The next command goes to the same scratch shell; new_pane asks for another.
      assert.equal((await call('run_command', { command: 'echo again', timeout_ms: 10_000 })).pane, ran.pane);
      const fresh = await call('run_command', { command: 'echo fresh', new_pane: true, timeout_ms: 10_000 });
      assert.notEqual(fresh.pane, ran.pane);
      // A shell that left the directory, or whose command is still running, is not lent again.
      await call('run_command', { command: 'cd /', pane_id: ran.pane, timeout_ms: 10_000 });
      const timedOut = (await client.callTool({ name: 'run_command', arguments: { command: 'sleep 5', pane_id: fresh.pane, timeout_ms: 200 } })) as ToolAnswer;
      assert.equal(timedOut.isError, true);
      const elsewhere = await call('run_command', { command: 'pwd', timeout_ms: 10_000 });
      assert.equal(elsewhere.output, project);
      assert.ok(![ran.pane, fresh.pane].includes(elsewhere.pane as string), `${String(elsewhere.pane)} is a third shell`);
      assert.equal((await server.call('workspace.list', {})).workspaces.length, 3);
      const started = (await call('start_agent', { command: ['fake-agent'], name: 'caller', timeout_ms: 10_000 })) as { agent: { pane: string } };
      const { pane } = await server.call('pane.get', { pane_id: started.agent.pane });
      assert.deepEqual([pane.cwd, pane.agent], [project, 'fake-agent']);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});

describe('herdr mcp run_command in a bash scratch shell, as a person watching the pane sees it', () => {
  let server: TestServer;
  let client: Client;
  type Run = { pane: string; exit_code: number | null; output: string; via: string; truncated: boolean };
  type ToolCall = (name: string, args: Record<string, unknown>) => Promise<ToolAnswer>;
  let tool: ToolCall;
  const ok = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const answer = await tool(name, args);
    assert.ok(!answer.isError, `${name} failed: ${answer.content.map((c) => c.text).join('\n')}`);
    return answer.structuredContent as T;
  };

  before(async () => {
    server = await startServer({ shell: 'bash' });
    client = new Client({ name: 'herdr-test-bash', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [HERDR_BIN, 'mcp', '--socket', server.socketPath], stderr: 'pipe' }));
    tool = async (name, args) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
  });
  after(async () => {
    await client.close();
    await server.stop();
  });

  it('types the command as it is, and the screen shows it and its output: no wrapper, no marks, no set-up', async () => {
    const first = await ok<Run>('run_command', { command: "echo hello; echo 'it''s' world; (exit 3)", cwd: server.dir, timeout_ms: 10_000 });
    // The scratch shell was given the shell integration: it reports the end and the exit code itself.
    assert.deepEqual(first, { pane: first.pane, exit_code: 3, output: 'hello\nits world', truncated: false, via: 'osc133' });
    const second = await ok<Run>('run_command', { command: 'printf "a\\nb"; true # a comment', cwd: server.dir, timeout_ms: 10_000 });
    assert.deepEqual([second.pane, second.exit_code, second.output], [first.pane, 0, 'a\nb']);
    // A line the shell cannot parse gets no C from it: its error is the output, its D the exit code.
    const unparsed = await ok<Run>('run_command', { command: 'fi', cwd: server.dir, timeout_ms: 10_000 });
    assert.deepEqual([unparsed.exit_code, unparsed.output], [2, "bash: syntax error near unexpected token `fi'"]);
    const { text: screen } = await ok<{ text: string }>('read_pane', { target: first.pane, lines: 200 });
    assert.doesNotMatch(screen, /7502|herdr-(start|end)|herdr;|__herdr|PROMPT_COMMAND|HISTCMD|eval /);
    const lines = screen.trimEnd().split('\n');
    // Each command line is the prompt and the command as it was given, followed by its output.
    const typed = (command: string) => lines.findIndex((line) => line.endsWith(command));
    const at = [typed("echo hello; echo 'it''s' world; (exit 3)"), typed('printf "a\\nb"; true # a comment'), typed('fi')];
    assert.ok(at.every((index) => index >= 0), screen);
    assert.equal(at[0], 0, `the screen begins with the first command:\n${screen}`);
    assert.deepEqual(lines.slice((at[0] ?? 0) + 1, at[1]), ['hello', 'its world']);
    // printf's output has no newline at its end: the next prompt follows the b on its line.
    assert.equal(lines[(at[1] ?? 0) + 1], 'a');
    assert.equal(at[2], (at[1] ?? 0) + 2);
    assert.ok(lines[at[2] ?? 0]?.startsWith('b'), screen);
    assert.equal(lines[(at[2] ?? 0) + 1], "bash: syntax error near unexpected token `fi'");
    // And nothing of it in the shell's history either: the set-up line was taken out.
    const history = await ok<Run>('run_command', { command: 'history', cwd: server.dir, timeout_ms: 10_000 });
    assert.doesNotMatch(history.output, /__herdr|PROMPT_COMMAND/);
    assert.match(history.output, /echo hello; echo 'it''s' world; \(exit 3\)/);
    // More output than `lines`: its end, said to be cut.
    const long = await ok<Run>('run_command', { command: 'seq 1 3000', cwd: server.dir, lines: 3, timeout_ms: 10_000 });
    assert.deepEqual([long.output, long.truncated], ['2998\n2999\n3000', true]);
  });

  it('answers `exit N` as exit code N, and gives the next command a new scratch shell', async () => {
    const before = await ok<Run>('run_command', { command: 'echo before', cwd: server.dir, timeout_ms: 10_000 });
    const exited = await tool('run_command', { command: 'echo hi; exit 3', cwd: server.dir, timeout_ms: 10_000 });
    const run = exited.structuredContent as Run;
    assert.deepEqual([run.pane, run.exit_code, run.via], [before.pane, 3, 'exit']);
    // Its output (bash's own `exit` as it left follows when the pane's last bytes were read before its end).
    assert.match(run.output, /^hi(\nexit)?$/);
    assert.ok((exited.content[0]?.text ?? '').startsWith(`exit 3 in ${before.pane} (the command ended the shell; ${before.pane} is gone)\nhi`), exited.content[0]?.text);
    await assert.rejects(server.call('pane.get', { pane_id: before.pane }), /not found/);
    const after = await ok<Run>('run_command', { command: 'echo after', cwd: server.dir, timeout_ms: 10_000 });
    assert.notEqual(after.pane, before.pane);
    assert.deepEqual([after.exit_code, after.output, after.via], [0, 'after', 'osc133']);
  });
});
