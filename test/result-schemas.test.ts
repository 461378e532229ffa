/**
 * The result and event schemas (what `herdr schema` publishes) describe what
 * the server really sends: every method is called against a real server and
 * its answer must parse to itself (no field missing, mistyped or unknown);
 * every event line seen on the way must too.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { HerdrClient, type MethodName, type TypedEventLine } from '../src/index.js';
import { eventLineSchema } from '../src/protocol/events.js';
import { type PaneStreamLine, paneStreamLineSchema } from '../src/protocol/pane-stream.js';
import { METHOD_PARAMS, METHOD_RESULTS } from '../src/protocol/methods.js';
import { SCREEN_ONLY_METHOD_NAMES } from '../src/protocol/screen-only.js';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, eventually, startServer } from './helpers/server.js';

const FAKE_AGENTS = join(REPO_ROOT, 'test', 'fixtures', 'bin');
const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');

/** Parsing keeps only the fields a schema knows: an answer that comes out unchanged has no unknown ones. */
function assertDescribes(schema: z.ZodType, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  assert.ok(parsed.success, `${what}: ${parsed.success ? '' : parsed.error.message}`);
  assert.deepEqual(parsed.data, value, `${what}: fields the schema does not know`);
}

describe('result and event schemas', () => {
  it('describe every answer and every event line of a session that calls every method', async () => {
    const server = await startServer({ env: { PATH: `${FAKE_AGENTS}:${process.env.PATH}` } });
    const client = new HerdrClient({ socketPath: server.socketPath });
    const seen = new Set<MethodName>();
    const check = async <M extends MethodName>(method: M, result: Promise<unknown>) => {
      assertDescribes(METHOD_RESULTS[method], await result, method);
      seen.add(method);
    };
    const lines: TypedEventLine[] = [];
    const streamLines: PaneStreamLine[] = [];
    try {
      const subscription = await client.subscribe([
        { type: 'workspace.created' }, { type: 'workspace.closed' }, { type: 'workspace.focused' },
        { type: 'pane.created' }, { type: 'pane.closed' }, { type: 'pane.focused' }, { type: 'pane.exited' },
        { type: 'pane.agent_detected' }, { type: 'pane.agent_state_changed', initial: true }, { type: 'pane.agent_status_changed' },
        { type: 'pane.command_finished' }, { type: 'pane.notification' }, { type: 'layout.updated' },
        { type: 'tab.created' }, { type: 'tab.closed' }, { type: 'tab.focused' }, { type: 'tab.renamed' },
        { type: 'rule.fired' }, { type: 'notification.shown' },
        { type: 'pane.moved' }, { type: 'tab.moved' }, { type: 'workspace.moved' }, { type: 'workspace.reordered' }, { type: 'pane.scroll_changed' },
      ]);
      seen.add('events.subscribe'); // its ack: the next test
      const collecting = (async () => { for await (const line of subscription) lines.push(line); })();

      await check('ping', client.ping());
      const { workspace } = await client.workspace.create({ cwd: server.dir, label: 'schemas' });
      const ws = workspace.workspace_id;
      const matches = await client.subscribe([{ type: 'pane.output_matched', pane_id: `${ws}-1`, source: 'recent', match: { type: 'substring', value: 'schema-' } }]);
      const exited = client.events.wait({ match_event: { event: 'pane_exited' }, timeout_ms: 10_000 });
      exited.catch(() => undefined); // awaited below; if an earlier check fails, its lost connection is not the news
      await check('workspace.create', client.workspace.create({ cwd: server.dir, command: ['/bin/sh', '-c', 'sleep 0.3; exit 4'] }));
      await check('workspace.list', client.workspace.list());
      await check('workspace.get', client.workspace.get({ workspace_id: ws }));
      await check('workspace.focus', client.workspace.focus({ workspace_id: ws }));
      await check('workspace.rename', client.workspace.rename({ workspace_id: ws, label: 'renamed' }));
      await check('pane.list', client.pane.list());
      await check('pane.get', client.pane.get({ pane_id: `${ws}-1` }));
      await check('pane.send_text', client.pane.sendText({ pane_id: `${ws}-1`, text: 'echo schema-' }));
      await check('pane.send_keys', client.pane.sendKeys({ pane_id: `${ws}-1`, keys: ['Enter'] }));
      await check('pane.wait_for_output', client.pane.waitForOutput({ pane_id: `${ws}-1`, source: 'recent', match: { type: 'substring', value: 'schema-' }, timeout_ms: 10_000 }));
      await check('pane.read', client.pane.read({ pane_id: `${ws}-1`, source: 'recent', lines: 5 }));
      await check('pane.current', client.pane.current({ caller_pane_id: `${ws}-1` }));
      await check('pane.current', client.pane.current({}));
      await check('pane.input.set', client.call('pane.input.set', { pane_id: `${ws}-1`, right_click: 'pane' }));
      await check('pane.selection.read', client.call('pane.selection.read', { pane_id: `${ws}-1`, start: { row: -2, col: 0 }, end: { row: 1, col: 4 } }));
      await check('notification.show', client.call('notification.show', { title: 'schemas', body: 'checked', position: 'top-left', sound: 'done' }));
      await check('notification.list', client.call('notification.list', {}));
      const pane = `${ws}-1`;
      await check('pane.report_agent', client.pane.reportAgent({
        pane_id: pane, source: 'schemas', agent: 'mybot', state: 'blocked', message: 'why?', seq: 1_800_000_000_000_000_000n, agent_session_id: 's-1',
      }));
      await check('pane.report_agent_session', client.pane.reportAgentSession({
        pane_id: pane, source: 'schemas', agent: 'mybot', seq: 1_800_000_000_000_000_001n, agent_session_id: 's-1', agent_session_path: '/tmp/s-1.jsonl',
      }));
      await client.pane.sendInput({ pane_id: pane, text: String.raw`printf ']133;C]133;D;3]777;notify;title;body'` });
      await eventually(async () => {
        const { pane: info } = await client.pane.get({ pane_id: pane });
        return info.agent_session?.path !== undefined && info.last_exit_code === 3;
      }, 'the reports and the exit code');
      await check('pane.get', client.pane.get({ pane_id: pane }));
      await check('pane.release_agent', client.pane.releaseAgent({ pane_id: pane, source: 'schemas', agent: 'mybot', seq: 1_800_000_000_000_000_002n }));
      await check('pane.clear_agent_authority', client.pane.clearAgentAuthority({ pane_id: pane }));
      await check('pane.process_info', client.pane.processInfo({ pane_id: pane }));
      await check('pane.rename', client.pane.rename({ pane_id: pane, label: 'schemas' }));
      await check('pane.report_metadata', client.pane.reportMetadata({
        pane_id: pane, source: 'schemas', tokens: { branch: 'main' }, title: 'Fixing', display_agent: 'Bot', state_labels: { done: 'finished' }, seq: 1, ttl_ms: 600_000,
      }));
      await check('workspace.report_metadata', client.workspace.reportMetadata({ workspace_id: ws, source: 'schemas', tokens: { build: 'green' } }));
      await check('pane.get', client.pane.get({ pane_id: pane }));
      await check('workspace.get', client.workspace.get({ workspace_id: ws }));
      await check('pane.send_input', client.pane.sendInput({ pane_id: `${ws}-1`, text: 'pi' })); // the fake agent
      await client.waitForOutput(`${ws}-1`, 'done', { source: 'visible', timeoutMs: 10_000 });
      for await (const line of matches) {
        lines.push(line);
        break;
      }
      const started = client.agent.start({ name: 'schemas', command: [FAKE_AGENT], cwd: server.dir, timeout_ms: 10_000 });
      await check('agent.start', started);
      await check('agent.list', client.agent.list());
      await check('session.snapshot', client.session.snapshot());
      await check('agent.get', client.agent.get({ target: 'schemas' }));
      await check('agent.prompt', client.agent.prompt({ target: 'schemas', text: 'work 100 hi', wait: { timeout_ms: 10_000 } }));
      await check('agent.wait', client.agent.wait({ target: 'schemas', timeout_ms: 1000 }));
      await client.agent.prompt({ target: 'schemas', text: 'ask 50', wait: { until: ['blocked'], timeout_ms: 10_000 } });
      const inbox = client.approvals.list({});
      await check('approvals.list', inbox);
      const [waiting] = (await inbox).approvals;
      assert.ok(waiting, 'the blocked agent is in the inbox');
      // A label no menu offers: matched, skipped, nothing typed.
      await check('approvals.answer_matching', client.approvals.answerMatching({ label: 'never offered' }));
      await check('approvals.answer', client.approvals.answer({ pane_id: waiting.stable_id, option: '1', question_hash: waiting.question_hash }));
      await client.agent.wait({ target: 'schemas', until: ['done'], timeout_ms: 10_000 });
      // Turns: one written and working, one queued behind it (listed, then taken back), the first looked up.
      const working = await client.agent.prompt({ target: 'schemas', text: 'work 300 turn' });
      await client.agent.wait({ target: 'schemas', until: ['working'], timeout_ms: 10_000 });
      const behind = await client.agent.prompt({ target: 'schemas', text: 'work 10 behind' });
      await check('agent.queue.list', client.call('agent.queue.list', { target: 'schemas' }));
      await check('agent.queue.cancel', client.call('agent.queue.cancel', { turn_id: behind.turn.turn_id }));
      await client.agent.wait({ target: 'schemas', until: ['done'], timeout_ms: 10_000 });
      await check('agent.turn.get', client.call('agent.turn.get', { turn_id: working.turn.turn_id }));
      // A rule on a beat, once: its firing queues a prompt and is told as rule.fired.
      const rule = client.rules.add({ trigger: { type: 'schedule', cron: '* * * * * *' }, action: { type: 'queue', agent: 'schemas', text: 'work 10 tick' }, limit: { max: 1, per_s: 3600 } });
      await check('rules.add', rule);
      await eventually(() => lines.some((line) => line.event === 'rule.fired'), 'the rule to fire', 5_000);
      await check('rules.list', client.rules.list());
      await check('rules.remove', client.rules.remove({ rule_id: (await rule).rule.rule_id }));
      await client.agent.wait({ target: 'schemas', until: ['done'], timeout_ms: 10_000 });
      await check('agent.read', client.agent.read({ target: 'schemas', source: 'recent', lines: 5 }));
      await check('agent.rename', client.agent.rename({ target: 'schemas', name: 'schemas-two' }));
      await check('agent.send_keys', client.agent.sendKeys({ target: 'schemas-two', keys: ['Enter'] }));
      await check('agent.explain', client.agent.explain({ target: 'schemas-two' }));
      await check('agent.focus', client.agent.focus({ target: 'schemas-two' }));
      await client.workspace.focus({ workspace_id: ws });
      await check('pane.split', client.pane.split({ target_pane_id: `${ws}-1`, direction: 'right' }));
      const stream = await client.stream(`${ws}-2`);
      assertDescribes(METHOD_RESULTS['pane.stream'], stream.started, 'pane.stream');
      seen.add('pane.stream');
      const streamed = (async () => { for await (const line of stream) streamLines.push(line); })();
      await client.pane.sendInput({ pane_id: `${ws}-2`, text: 'echo streamed' });
      await client.waitForOutput(`${ws}-2`, 'streamed', { timeoutMs: 10_000 });
      await check('pane.resize', client.pane.resize({ pane_id: `${ws}-2`, cols: 40, rows: 10 }));
      await check('pane.resize', client.pane.resize({ pane_id: `${ws}-1`, direction: 'right', amount: 0.1 }));
      await check('pane.close', client.pane.close({ pane_id: `${ws}-2` }));
      await streamed;
      await check('events.wait', exited);
      await check('layout.export', client.layout.export({ workspace_id: ws }));
      await check('layout.apply', client.layout.apply({
        root: { type: 'split', direction: 'down', ratio: 0.25, first: { type: 'pane', cwd: server.dir, label: 'top', command: ['/bin/sh'], env: { A: '1' } }, second: { type: 'pane' } },
      }));
      // Layout and navigation (§5.4): a workspace of two panes, swapped, zoomed, scrolled, moved.
      const nav = (await client.workspace.create({ cwd: server.dir, label: 'nav' })).workspace.stable_id;
      const left = `${nav}:p1`;
      const right = (await client.pane.split({ target_pane_id: left, direction: 'right' })).pane.stable_id;
      await check('pane.layout', client.call('pane.layout', { pane_id: left }));
      await check('pane.edges', client.call('pane.edges', { pane_id: left }));
      await check('pane.neighbor', client.call('pane.neighbor', { pane_id: left, direction: 'right' }));
      await check('pane.neighbor', client.call('pane.neighbor', { pane_id: left, direction: 'left' }));
      await check('pane.focus', client.call('pane.focus', { pane_id: left }));
      await check('pane.focus_direction', client.call('pane.focus_direction', { pane_id: left, direction: 'right' }));
      await check('pane.focus_direction', client.call('pane.focus_direction', { pane_id: left, direction: 'up' }));
      await check('pane.swap', client.call('pane.swap', { source_pane_id: left, target_pane_id: right }));
      await check('pane.swap', client.call('pane.swap', { pane_id: left, direction: 'up' }));
      await check('pane.zoom', client.call('pane.zoom', { pane_id: left }));
      await check('pane.zoom', client.call('pane.zoom', { pane_id: left, mode: 'off' }));
      await check('layout.set_split_ratio', client.call('layout.set_split_ratio', { pane_id: left, path: [], ratio: 0.3 }));
      await check('pane.scroll', client.call('pane.scroll', { pane_id: left, direction: 'up', lines: 3 }));
      await check('layout.apply', client.layout.apply({ root: { type: 'pane' }, workspace_id: nav, tab_label: 'second' }));
      await check('tab.move', client.call('tab.move', { tab_id: `${nav}:t2`, insert_index: 0 }));
      await check('pane.move', client.call('pane.move', { pane_id: right, destination: { type: 'new_workspace', label: 'moved' } }));
      await check('pane.move', client.call('pane.move', { pane_id: left, destination: { type: 'tab', tab_id: `${nav}:t1`, split: 'down' } }));
      await check('workspace.move', client.call('workspace.move', { workspace_id: nav, insert_index: 0 }));
      await check('workspace.move_block', client.call('workspace.move_block', { workspace_ids: [nav] }));
      // worktree.*: a repository of the test's own, in the server's directory.
      const repo = join(server.dir, 'repo');
      execFileSync('git', ['init', '-q', '-b', 'main', repo]);
      execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@herdr.invalid', '-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '-m', 'init']);
      await check('worktree.list', client.worktree.list({ cwd: repo }));
      const made = client.worktree.create({ cwd: repo, branch: 'schemas', path: join(server.dir, 'worktree') });
      await check('worktree.create', made);
      await check('worktree.open', client.worktree.open({ cwd: repo, branch: 'schemas' }));
      await check('worktree.remove', client.worktree.remove({ workspace_id: (await made).workspace.stable_id }));
      // integration.*: a HOME of the test's own.
      const home = join(server.dir, 'home');
      await check('integration.install', client.integration.install({ target: 'pi', home }));
      await check('integration.list', client.integration.list({ home }));
      await check('integration.uninstall', client.integration.uninstall({ target: 'pi', home }));
      // plugin.*: the tests' own plugin (docs/protocol.md §16).
      await check('plugin.link', client.call('plugin.link', { path: join(REPO_ROOT, 'test', 'fixtures', 'plugins', 'notes') }));
      await check('plugin.list', client.call('plugin.list', {}));
      await check('plugin.disable', client.call('plugin.disable', { plugin_id: 'test.notes' }));
      await check('plugin.enable', client.call('plugin.enable', { plugin_id: 'test.notes' }));
      await check('plugin.action.list', client.call('plugin.action.list', {}));
      const invoked = client.call('plugin.action.invoke', { action_id: 'write-note', context: { selected_text: 'schemas' } });
      await check('plugin.action.invoke', invoked);
      const ran = (await invoked).log.log_id;
      await eventually(async () => (await client.call('plugin.log.list', {})).logs.some((log) => log.log_id === ran && log.status !== 'running'), 'the action to end');
      await check('plugin.log.list', client.call('plugin.log.list', { plugin_id: 'test.notes' }));
      const board = client.call('plugin.pane.open', { plugin_id: 'test.notes', entrypoint: 'board', target_pane_id: `${ws}-1` });
      await check('plugin.pane.open', board);
      await check('plugin.pane.focus', client.call('plugin.pane.focus', { pane_id: (await board).plugin_pane.pane.stable_id }));
      await check('plugin.pane.close', client.call('plugin.pane.close', { pane_id: (await board).plugin_pane.pane.stable_id }));
      await check('plugin.unlink', client.call('plugin.unlink', { plugin_id: 'test.notes' }));
      // herdr's methods for a screen it draws answer no result here, only `unsupported` (screen-only-methods.test.ts).
      for (const method of SCREEN_ONLY_METHOD_NAMES) {
        const params = method.startsWith('pane.graphics.') ? { pane_id: pane, format: 'png', image_width: 1, image_height: 1 } : method === 'client.window_title.set' ? { title: 't' } : { source: 's' };
        await assert.rejects(client.call(method, params as never), (error: { code?: string }) => error.code === 'unsupported', method);
        seen.add(method);
      }
      const made2 = client.tab.create({ workspace_id: ws, cwd: server.dir, label: 'second', focus: true });
      await check('tab.create', made2);
      const tab = (await made2).tab.tab_id;
      await check('tab.list', client.tab.list());
      await check('tab.get', client.tab.get({ tab_id: tab }));
      await check('tab.rename', client.tab.rename({ tab_id: tab, label: 'renamed' }));
      await check('tab.focus', client.tab.focus({ tab_id: `${(await client.workspace.get({ workspace_id: ws })).workspace.stable_id}:t1` }));
      await check('tab.close', client.tab.close({ tab_id: tab }));
      // The current dialect's answers (docs/protocol.md §15), on the socket beside the first.
      const current = new HerdrClient({ socketPath: server.socketPath.replace(/\.sock$/, '-current.sock') });
      try {
        await check('ping', current.ping());
        const created = current.workspace.create({ cwd: server.dir });
        await check('workspace.create', created);
        await check('session.snapshot', current.session.snapshot());
        await check('workspace.close', current.workspace.close({ workspace_id: (await created).workspace.workspace_id }));
      } finally {
        current.close();
      }
      await check('server.stats', client.server.stats());
      // The agent manifests in use (none of the user's here) and herdr's configuration reload (docs/protocol.md §10.8).
      await check('server.agent_manifests', client.server.agentManifests());
      await check('server.reload_agent_manifests', client.server.reloadAgentManifests());
      await check('server.reload_config', client.server.reloadConfig());
      await check('workspace.close', client.workspace.close({ workspace_id: ws }));
      await check('server.stop', client.server.stop());
      await collecting;
    } finally {
      client.close();
      await server.stop();
    }
    assert.deepEqual([...seen].sort(), Object.keys(METHOD_PARAMS).sort(), 'every method was called');
    const names = new Set(lines.map((line) => line.event));
    const expected = ['workspace_created', 'workspace_focused', 'pane_created', 'pane_focused', 'pane_exited', 'pane_closed', 'workspace_closed', 'pane_agent_detected', 'pane.agent_state_changed', 'pane.agent_status_changed', 'pane.output_matched', 'pane.command_finished', 'pane.notification', 'layout_updated', 'rule.fired'];
    for (const name of expected) {
      assert.ok(names.has(name as TypedEventLine['event']), `saw ${name} (saw: ${[...names].join(', ')})`);
    }
    lines.forEach((line, i) => assertDescribes(eventLineSchema, line, `event line ${i} (${line.event})`));
    assert.deepEqual([...new Set(streamLines.map((line) => line.event))], ['pane.output', 'pane.resized', 'pane.exited']);
    streamLines.forEach((line, i) => assertDescribes(paneStreamLineSchema, line, `stream line ${i} (${line.event})`));
  });

  it('describe the ack of events.subscribe', async () => {
    const server = await startServer();
    try {
      const stream = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.created' }] });
      assertDescribes(METHOD_RESULTS['events.subscribe'], stream.ack.result, 'events.subscribe');
      stream.close();
    } finally {
      await server.stop();
    }
  });
});
