/**
 * herdr's current protocol on the wire (issue 38; docs/protocol.md §15.4): every method herdr
 * defines is sent to a real server's current socket the way herdr's clients write it, and the
 * answer is checked against herdr's wire shape (test/helpers/herdr-wire/shapes.ts, our zod of
 * the facts of herdr's published schema); every event kind herdr defines is triggered by an
 * operation and its line checked the same way, and so is `events.wait`'s answer for the kinds
 * herdr's EventMatch names. The tables are keyed by herdr's own lists (names.ts): a method or
 * event of herdr's without a case fails here, and so does a case herdr does not define.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { EventClient } from './helpers/events.js';
import {
  HERDR_EVENT_KINDS,
  HERDR_METHODS,
  HERDR_SUBSCRIPTION_EVENT_KINDS,
  HERDR_SUBSCRIPTION_KINDS,
  HERDR_WAIT_MATCH_EVENTS,
  type HerdrEventKind,
  type HerdrMethod,
  type HerdrSubscriptionKind,
} from './helpers/herdr-wire/names.js';
import { type ResultType, SUBSCRIPTION_EVENT_DATA, eventEnvelope } from './helpers/herdr-wire/shapes.js';
import { type Answer, type Opened, Wire, answerOn, assertShape, gitRepository, gitWorktree } from './helpers/herdr-wire/wire.js';
import { REPO_ROOT, type TestServer, eventually, readUntil, startServer, tempDir } from './helpers/server.js';

const FAKE_BIN = join(REPO_ROOT, 'test', 'fixtures', 'bin');
const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');
const PLUGIN = join(REPO_ROOT, 'test', 'fixtures', 'plugins', 'notes');
const PLUGIN_ID = 'test.notes';

const sorted = (items: Iterable<string>) => [...items].sort();

/**
 * A server whose panes find the fake agents first, with a HOME of its own (integration.install
 * writes there), as a herdr client would find it.
 */
async function wireServer(): Promise<TestServer> {
  const home = tempDir('herdr-wire-home-');
  mkdirSync(join(home, '.config'), { recursive: true });
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'PI_CODING_AGENT_DIR', 'XDG_CONFIG_HOME'].includes(name)) env[name] = value;
  }
  return startServer({
    baseEnv: { ...env, PS1: '$ ', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PATH: `${FAKE_BIN}:${process.env.PATH ?? ''}`, FAKE_AGENT_WORK_MS: '200' },
  });
}

/** What a method's case shares: a shell workspace, an agent, a git repository. */
interface Fixture {
  base: Opened;
  agentName: string;
  agentPane: string;
  repo: string;
}

/** Sends the case's own method with `params` (to the current socket, or `socketPath`): the answer as it came. */
type Ask = (params: unknown, socketPath?: string) => Promise<Answer>;

type MethodCase =
  /** Answered with herdr's result `answers`: `run` makes what it needs and returns the answer to check. */
  | { answers: ResultType; run: (w: Wire, ask: Ask, f: Fixture) => Promise<Answer> }
  /** herdr's methods for a screen it draws (docs/protocol.md §5.5): `unsupported` once params pass herdr's shape. */
  | { unsupported: (f: Fixture) => { params: object; malformed: unknown } };

const ensurePlugin = (w: Wire) => w.ok('plugin.link', { path: PLUGIN, enabled: true }, 'plugin_linked');

/** Every method of herdr's current protocol: a request as herdr's clients send it, and the result it must answer. */
const METHOD_CASES: Record<HerdrMethod, MethodCase> = {
  ping: {
    answers: 'pong',
    run: async (_w, ask) => {
      const answer = await ask({});
      assert.equal(answer.result?.protocol, 22, 'the current socket speaks protocol 22');
      return answer;
    },
  },
  'session.snapshot': { answers: 'session_snapshot', run: (_w, ask) => ask({}) },
  'server.reload_config': { answers: 'config_reload', run: (_w, ask) => ask({}) },
  'server.agent_manifests': { answers: 'agent_manifest_status', run: (_w, ask) => ask({}) },
  'server.reload_agent_manifests': { answers: 'agent_manifest_reload', run: (_w, ask) => ask({}) },
  'notification.show': { answers: 'notification_show', run: (_w, ask) => ask({ title: 'wire', body: 'checked', position: 'top-left', sound: 'done' }) },

  'workspace.create': { answers: 'workspace_created', run: (w, ask) => ask({ cwd: w.server.dir, env: { WIRE: '1' }, focus: false, label: 'created' }) },
  'workspace.list': { answers: 'workspace_list', run: (_w, ask) => ask({}) },
  'workspace.get': { answers: 'workspace_info', run: (_w, ask, f) => ask({ workspace_id: f.base.workspace }) },
  'workspace.focus': { answers: 'workspace_info', run: async (w, ask) => ask({ workspace_id: (await w.workspace('focus')).workspace }) },
  'workspace.rename': { answers: 'workspace_info', run: async (w, ask) => ask({ workspace_id: (await w.workspace()).workspace, label: 'renamed' }) },
  'workspace.move': { answers: 'workspace_list', run: async (w, ask) => ask({ workspace_id: (await w.workspace('moved')).workspace, insert_index: 0 }) },
  'workspace.move_block': {
    answers: 'workspace_list',
    run: async (w, ask, f) => ask({ workspace_ids: [(await w.workspace('block')).workspace], before_workspace_id: f.base.workspace }),
  },
  'workspace.report_metadata': {
    answers: 'ok',
    run: async (w, ask) => {
      const { workspace } = await w.workspace('metadata');
      const answer = await ask({ workspace_id: workspace, source: 'wire', tokens: { build: 'green', gone: null }, seq: 1, ttl_ms: 600_000 });
      w.check('workspace_info', await w.send('workspace.get', { workspace_id: workspace }), 'workspace.get after the report');
      return answer;
    },
  },
  'workspace.close': { answers: 'ok', run: async (w, ask) => ask({ workspace_id: (await w.workspace('closing')).workspace }) },

  'worktree.list': { answers: 'worktree_list', run: (_w, ask, f) => ask({ cwd: f.repo }) },
  'worktree.create': {
    answers: 'worktree_created',
    run: (w, ask, f) => ask({ cwd: f.repo, branch: 'wire-create', path: join(w.server.dir, 'wt-create'), label: 'made', focus: false }),
  },
  'worktree.open': {
    answers: 'worktree_opened',
    run: async (w, ask, f) => {
      const path = join(w.server.dir, 'wt-open');
      gitWorktree(f.repo, 'wire-open', path);
      return ask({ cwd: f.repo, path, focus: false });
    },
  },
  'worktree.remove': {
    answers: 'worktree_removed',
    run: async (w, ask, f) => {
      const made = await w.ok('worktree.create', { cwd: f.repo, branch: 'wire-remove', path: join(w.server.dir, 'wt-remove') }, 'worktree_created');
      return ask({ workspace_id: made.workspace.workspace_id, force: false });
    },
  },

  'tab.create': { answers: 'tab_created', run: (w, ask, f) => ask({ workspace_id: f.base.workspace, cwd: w.server.dir, env: { WIRE: '1' }, focus: false, label: 'made' }) },
  'tab.list': { answers: 'tab_list', run: (_w, ask, f) => ask({ workspace_id: f.base.workspace }) },
  'tab.get': { answers: 'tab_info', run: (_w, ask, f) => ask({ tab_id: f.base.tab }) },
  'tab.focus': { answers: 'tab_info', run: async (w, ask) => ask({ tab_id: (await w.tab((await w.workspace('tabs')).workspace)).tab }) },
  'tab.rename': { answers: 'tab_info', run: async (w, ask) => ask({ tab_id: (await w.workspace()).tab, label: 'renamed' }) },
  'tab.move': { answers: 'tab_list', run: async (w, ask) => ask({ tab_id: (await w.tab((await w.workspace('tabs')).workspace)).tab, insert_index: 0 }) },
  'tab.close': { answers: 'ok', run: async (w, ask) => ask({ tab_id: (await w.tab((await w.workspace('tabs')).workspace)).tab }) },

  'agent.list': { answers: 'agent_list', run: (_w, ask) => ask({}) },
  'agent.get': { answers: 'agent_info', run: (_w, ask, f) => ask({ target: f.agentName }) },
  'agent.read': { answers: 'pane_read', run: (_w, ask, f) => ask({ target: f.agentName, source: 'recent', lines: 10, format: 'text', strip_ansi: true }) },
  'agent.explain': { answers: 'agent_explain', run: (_w, ask, f) => ask({ target: f.agentPane }) },
  'agent.send_keys': { answers: 'ok', run: (_w, ask, f) => ask({ target: f.agentName, keys: ['Enter'] }) },
  'agent.rename': { answers: 'agent_info', run: async (w, ask) => ask({ target: await w.agent('wire-rename', FAKE_AGENT), name: 'wire-renamed' }) },
  'agent.focus': { answers: 'agent_info', run: (_w, ask, f) => ask({ target: f.agentName }) },
  'agent.start': {
    answers: 'agent_started',
    // herdr's form: a known kind typed into an idle shell pane (the fake `pi` on the server's PATH).
    run: async (w, ask) => ask({ kind: 'pi', name: 'wire-pi', pane_id: (await w.shell('agent')).pane, args: [], timeout_ms: 15_000 }),
  },
  'agent.prompt': { answers: 'agent_prompted', run: (_w, ask, f) => ask({ target: f.agentName, text: 'work 100 wire', wait: { until: ['idle', 'done'], timeout_ms: 15_000 } }) },
  'agent.wait': { answers: 'agent_info', run: (_w, ask, f) => ask({ target: f.agentName, until: ['idle', 'done'], timeout_ms: 15_000 }) },

  'pane.split': {
    answers: 'pane_info',
    run: (w, ask, f) => ask({ target_pane_id: f.base.pane, direction: 'down', cwd: w.server.dir, env: { WIRE: '1' }, focus: false, ratio: 0.5, right_click: 'herdr' }),
  },
  'pane.swap': {
    answers: 'pane_swap',
    run: async (w, ask) => {
      const { pane } = await w.workspace('swap');
      const other = await w.split(pane);
      w.check('pane_swap', await ask({ pane_id: pane, direction: 'right' }), 'pane.swap by direction');
      return ask({ source_pane_id: pane, target_pane_id: other });
    },
  },
  'pane.move': {
    answers: 'pane_move',
    run: async (w, ask) => {
      const { workspace, tab, pane } = await w.workspace('move');
      const other = await w.split(pane);
      const toTab = await ask({ pane_id: other, destination: { type: 'new_tab', workspace_id: workspace, label: 'moved' }, focus: false });
      w.check('pane_move', toTab, 'pane.move to a new tab');
      const moved = toTab.result.move_result.pane.pane_id as string;
      const back = await ask({ pane_id: moved, destination: { type: 'tab', tab_id: tab, target_pane_id: pane, split: 'down', ratio: 0.5 } });
      w.check('pane_move', back, 'pane.move into a tab');
      return ask({ pane_id: back.result.move_result.pane.pane_id, destination: { type: 'new_workspace', label: 'moved', tab_label: 'moved' } });
    },
  },
  'pane.zoom': {
    answers: 'pane_zoom',
    run: async (w, ask) => {
      const { pane } = await w.workspace('zoom');
      await w.split(pane);
      return ask({ pane_id: pane, mode: 'toggle' });
    },
  },
  'pane.layout': { answers: 'pane_layout', run: (_w, ask, f) => ask({ pane_id: f.base.pane }) },
  'pane.process_info': { answers: 'pane_process_info', run: (_w, ask, f) => ask({ pane_id: f.base.pane }) },
  'layout.export': {
    answers: 'layout_export',
    run: async (w, ask, f) => {
      w.check('layout_export', await ask({ pane_id: f.base.pane }), 'layout.export of a pane\'s tab');
      w.check('layout_export', await ask({}), 'layout.export of the active tab');
      return ask({ tab_id: f.base.tab });
    },
  },
  'layout.apply': {
    answers: 'layout_apply',
    run: async (w, ask) => {
      const root = {
        type: 'split',
        direction: 'right',
        ratio: 0.5,
        first: { type: 'pane', cwd: w.server.dir, label: 'left' },
        second: { type: 'pane', command: ['/bin/sh'], env: { WIRE: '1' } },
      };
      const { workspace, tab } = await w.workspace('apply');
      w.check('layout_apply', await ask({ root, workspace_id: workspace, tab_label: 'applied', focus: false }), 'layout.apply into a workspace');
      w.check('layout_apply', await ask({ root: { type: 'pane' } }), 'layout.apply into the active workspace');
      return ask({ root, tab_id: tab, focus: false });
    },
  },
  'layout.set_split_ratio': {
    answers: 'layout_split_ratio_set',
    run: async (w, ask) => {
      const { pane, tab } = await w.workspace('ratio');
      await w.split(pane);
      w.check('layout_split_ratio_set', await ask({ pane_id: pane, path: [], ratio: 0.3 }), 'layout.set_split_ratio by pane');
      return ask({ tab_id: tab, path: [], ratio: 0.6 });
    },
  },
  'pane.neighbor': {
    answers: 'pane_neighbor',
    run: async (w, ask) => {
      const { pane } = await w.workspace('neighbor');
      await w.split(pane);
      w.check('pane_neighbor', await ask({ pane_id: pane, direction: 'left' }), 'pane.neighbor at an edge');
      return ask({ pane_id: pane, direction: 'right' });
    },
  },
  'pane.edges': { answers: 'pane_edges', run: (_w, ask, f) => ask({ pane_id: f.base.pane }) },
  'pane.focus_direction': {
    answers: 'pane_focus_direction',
    run: async (w, ask) => {
      const { pane } = await w.workspace('focus-direction');
      await w.split(pane);
      w.check('pane_focus_direction', await ask({ pane_id: pane, direction: 'up' }), 'pane.focus_direction with no neighbour');
      return ask({ pane_id: pane, direction: 'right' });
    },
  },
  'pane.resize': {
    answers: 'pane_resize',
    run: async (w, ask) => {
      const { pane } = await w.workspace('resize');
      await w.split(pane);
      return ask({ pane_id: pane, direction: 'right', amount: 0.1 });
    },
  },
  'pane.list': {
    answers: 'pane_list',
    run: async (w, ask, f) => {
      w.check('pane_list', await ask({}), 'pane.list of every workspace');
      return ask({ workspace_id: f.base.workspace });
    },
  },
  'pane.current': { answers: 'pane_current', run: (_w, ask, f) => ask({ caller_pane_id: f.base.pane }) },
  'pane.get': { answers: 'pane_info', run: (_w, ask, f) => ask({ pane_id: f.base.pane }) },
  'pane.focus': { answers: 'pane_info', run: (_w, ask, f) => ask({ pane_id: f.base.pane }) },
  'pane.input.set': { answers: 'ok', run: async (w, ask) => ask({ pane_id: (await w.workspace('input')).pane, right_click: 'pane' }) },
  'pane.rename': { answers: 'pane_info', run: async (w, ask) => ask({ pane_id: (await w.workspace('rename')).pane, label: 'renamed' }) },
  'pane.send_text': { answers: 'ok', run: (_w, ask, f) => ask({ pane_id: f.base.pane, text: 'echo wire-text' }) },
  'pane.send_keys': { answers: 'ok', run: (_w, ask, f) => ask({ pane_id: f.base.pane, keys: ['Enter'] }) },
  'pane.send_input': { answers: 'ok', run: (_w, ask, f) => ask({ pane_id: f.base.pane, text: 'echo wire-input', keys: ['Enter'] }) },
  'pane.read': {
    answers: 'pane_read',
    run: async (w, ask, f) => {
      for (const source of ['visible', 'recent', 'recent_unwrapped', 'detection']) {
        const answer = await ask({ pane_id: f.base.pane, source, lines: 20, format: 'text', strip_ansi: true });
        w.check('pane_read', answer, `pane.read of ${source}`);
        assert.equal(answer.result.read.source, source);
      }
      return ask({ pane_id: f.base.pane, source: 'recent', format: 'ansi', strip_ansi: false });
    },
  },
  'pane.report_agent': {
    answers: 'ok',
    run: async (w, ask) => {
      const { pane } = await w.workspace('report');
      const answer = await ask({ pane_id: pane, source: 'wire', agent: 'wirebot', state: 'blocked', message: 'why?', seq: 1, agent_session_id: 's-1', agent_session_path: null });
      // The report reaches the pane's detector first; pane.get shows it a moment later.
      const got = await eventually(async () => {
        const answered = await w.send('pane.get', { pane_id: pane });
        return answered.result?.pane?.agent === 'wirebot' ? answered : undefined;
      }, 'the reported agent on the pane');
      w.check('pane_info', got, 'pane.get after the report');
      return answer;
    },
  },
  'pane.report_agent_session': {
    answers: 'ok',
    run: async (w, ask) => {
      const { pane } = await w.workspace('session');
      await w.ok('pane.report_agent', { pane_id: pane, source: 'wire', agent: 'wirebot', state: 'idle' }, 'ok');
      const answer = await ask({ pane_id: pane, source: 'wire', agent: 'wirebot', agent_session_id: 's-2', agent_session_path: '/tmp/s-2.jsonl', session_start_source: 'startup', seq: 2 });
      // herdr's AgentSessionInfo {source, agent, kind, value} is what a current client reads back.
      const got = await eventually(async () => {
        const answered = await w.send('pane.get', { pane_id: pane });
        return answered.result?.pane?.agent_session ? answered : undefined;
      }, 'the session on the pane');
      w.check('pane_info', got, 'pane.get after the session report');
      return answer;
    },
  },
  'pane.report_metadata': {
    answers: 'ok',
    run: async (w, ask) => {
      const { pane } = await w.workspace('metadata');
      const answer = await ask({
        pane_id: pane, source: 'wire', agent: null, applies_to_source: null, tokens: { branch: 'main', gone: null }, title: 'Fixing', display_agent: 'Bot',
        state_labels: { working: 'busy' }, clear_title: false, clear_display_agent: false, clear_state_labels: false, seq: 1, ttl_ms: 600_000,
      });
      w.check('pane_info', await w.send('pane.get', { pane_id: pane }), 'pane.get after the report');
      return answer;
    },
  },
  'pane.clear_agent_authority': { answers: 'ok', run: async (w, ask) => ask({ pane_id: (await w.workspace('authority')).pane, source: 'wire', seq: null }) },
  'pane.release_agent': {
    answers: 'ok',
    run: async (w, ask) => {
      const { pane } = await w.workspace('release');
      await w.ok('pane.report_agent', { pane_id: pane, source: 'wire', agent: 'wirebot', state: 'working', seq: 1 }, 'ok');
      return ask({ pane_id: pane, source: 'wire', agent: 'wirebot', seq: 2 });
    },
  },
  'pane.close': { answers: 'ok', run: async (w, ask) => ask({ pane_id: await w.split((await w.workspace('close')).pane) }) },
  'pane.wait_for_output': {
    answers: 'output_matched',
    run: async (w, ask) => {
      const { pane } = await w.shell('wait');
      await w.ok('pane.send_input', { pane_id: pane, text: 'echo wire-""waited', keys: ['Enter'] }, 'ok');
      return ask({ pane_id: pane, source: 'recent', match: { type: 'regex', value: '^wire-waited$' }, lines: 50, strip_ansi: true, timeout_ms: 15_000 });
    },
  },
  'events.subscribe': {
    answers: 'subscription_started',
    run: async (w, _ask, f) => {
      const events = await EventClient.subscribe(w.socketPath, { subscriptions: subscriptionsFor(f.base.pane, f.agentPane) }, 'herdr-wire:events.subscribe:1');
      events.close();
      assert.equal(events.ack.result?.skipped, undefined, `every kind of herdr's is known: ${JSON.stringify(events.ack)}`);
      return events.ack;
    },
  },
  'events.wait': {
    answers: 'wait_matched',
    // herdr's own server waits only for this kind (its EventMatch lists more; see the event tests).
    run: async (w, ask, f) => {
      const waiting = ask({ match_event: { event: 'pane_agent_status_changed', pane_id: f.agentPane, agent_status: 'working' }, timeout_ms: 15_000 });
      waiting.catch(() => undefined); // awaited below
      await w.waitsRegistered(1);
      await w.ok('agent.prompt', { target: f.agentName, text: 'work 300 waited' }, 'agent_prompted');
      const answer = await waiting;
      assert.equal(answer.result?.event?.event, 'pane_agent_status_changed', JSON.stringify(answer));
      return answer;
    },
  },
  'integration.install': { answers: 'integration_install', run: (_w, ask) => ask({ target: 'pi' }) },
  'integration.uninstall': {
    answers: 'integration_uninstall',
    run: async (w, ask) => {
      await w.ok('integration.install', { target: 'claude' }, 'integration_install');
      return ask({ target: 'claude' });
    },
  },
  'pane.scroll': {
    answers: 'pane_scroll',
    run: async (w, ask) => {
      const { pane } = await w.shell('scroll');
      await w.ok('pane.send_input', { pane_id: pane, text: 'seq 1 200', keys: ['Enter'] }, 'ok');
      await readUntil(w.server, pane, (text) => /^200$/m.test(text));
      return ask({ pane_id: pane, direction: 'up', lines: 3 });
    },
  },
  'pane.selection.read': {
    answers: 'pane_selection',
    run: (_w, ask, f) => ask({ pane_id: f.base.pane, start: { row: 0, col: 0 }, end: { row: 1, col: 4 }, mode: 'stream' }),
  },
  'integration.list': { answers: 'integration_list', run: (_w, ask) => ask({}) },

  'plugin.link': { answers: 'plugin_linked', run: (_w, ask) => ask({ path: PLUGIN, enabled: true, source: null }) },
  'plugin.list': {
    answers: 'plugin_list',
    run: async (w, ask) => {
      await ensurePlugin(w);
      return ask({});
    },
  },
  'plugin.disable': {
    answers: 'plugin_disabled',
    run: async (w, ask) => {
      await ensurePlugin(w);
      return ask({ plugin_id: PLUGIN_ID });
    },
  },
  'plugin.enable': {
    answers: 'plugin_enabled',
    run: async (w, ask) => {
      await ensurePlugin(w);
      return ask({ plugin_id: PLUGIN_ID });
    },
  },
  'plugin.action.list': {
    answers: 'plugin_action_list',
    run: async (w, ask) => {
      await ensurePlugin(w);
      return ask({ plugin_id: PLUGIN_ID });
    },
  },
  'plugin.action.invoke': {
    answers: 'plugin_action_invoked',
    run: async (w, ask) => {
      await ensurePlugin(w);
      return ask({ action_id: 'write-note', plugin_id: PLUGIN_ID, context: { selected_text: 'wire', invocation_source: 'api' } });
    },
  },
  'plugin.log.list': {
    answers: 'plugin_log_list',
    run: async (w, ask) => {
      await ensurePlugin(w);
      const invoked = await w.ok('plugin.action.invoke', { action_id: `${PLUGIN_ID}.fail` }, 'plugin_action_invoked');
      await eventually(async () => {
        const { logs } = await w.ok('plugin.log.list', { plugin_id: PLUGIN_ID }, 'plugin_log_list');
        return (logs as Array<{ log_id: string; status: string }>).some((log) => log.log_id === invoked.log.log_id && log.status !== 'running');
      }, 'the action to end');
      return ask({ plugin_id: PLUGIN_ID, limit: 20 });
    },
  },
  'plugin.pane.open': {
    answers: 'plugin_pane_opened',
    run: async (w, ask) => {
      await ensurePlugin(w);
      return ask({ plugin_id: PLUGIN_ID, entrypoint: 'board', placement: 'split', target_pane_id: (await w.workspace('plugin')).pane, direction: 'right', focus: false, env: { WIRE: '1' } });
    },
  },
  'plugin.pane.focus': {
    answers: 'plugin_pane_focused',
    run: async (w, ask) => {
      await ensurePlugin(w);
      const opened = await w.ok('plugin.pane.open', { plugin_id: PLUGIN_ID, entrypoint: 'board', target_pane_id: (await w.workspace('plugin')).pane }, 'plugin_pane_opened');
      return ask({ pane_id: opened.plugin_pane.pane.pane_id });
    },
  },
  'plugin.pane.close': {
    answers: 'plugin_pane_closed',
    run: async (w, ask) => {
      await ensurePlugin(w);
      const opened = await w.ok('plugin.pane.open', { plugin_id: PLUGIN_ID, entrypoint: 'board', target_pane_id: (await w.workspace('plugin')).pane }, 'plugin_pane_opened');
      return ask({ pane_id: opened.plugin_pane.pane.pane_id });
    },
  },
  'plugin.unlink': {
    answers: 'plugin_unlinked',
    run: async (w, ask) => {
      await ensurePlugin(w);
      return ask({ plugin_id: PLUGIN_ID });
    },
  },

  'client.window_title.set': { unsupported: () => ({ params: { title: 'wire' }, malformed: {} }) },
  'client.window_title.clear': { unsupported: () => ({ params: {}, malformed: [] }) },
  'popup.close': { unsupported: () => ({ params: {}, malformed: 'close' }) },
  'agent.view.set': {
    unsupported: () => ({
      params: { source: 'wire', label: 'blocked first', filter: { op: 'in', field: 'status', values: ['blocked'] }, sort: [{ field: 'attention', order: 'desc' }] },
      malformed: { source: 'wire', filter: { op: 'eq', field: 'colour', value: 1 } },
    }),
  },
  'agent.view.clear': { unsupported: () => ({ params: { source: 'wire' }, malformed: { source: 7 } }) },
  'pane.graphics.info': { unsupported: (f) => ({ params: { pane_id: f.base.pane }, malformed: {} }) },
  'pane.graphics.set': {
    unsupported: (f) => ({
      params: { pane_id: f.base.pane, format: 'png', image_width: 2, image_height: 2, data_base64: '', layer_id: 'wire', placement: { viewport_col: 0, viewport_row: 0, grid_cols: 2, grid_rows: 1 }, z_index: 0 },
      malformed: { pane_id: f.base.pane, format: 'gif', image_width: 2, image_height: 2 },
    }),
  },
  'pane.graphics.clear': { unsupported: (f) => ({ params: { pane_id: f.base.pane, layer_id: null }, malformed: { layer_id: 'wire' } }) },
  'server.live_handoff': { unsupported: () => ({ params: { import_exe: '/usr/bin/herdr', expected_protocol: 22, expected_version: null }, malformed: { expected_protocol: -1 } }) },

  'server.stop': {
    answers: 'ok',
    // Last, on a server of its own: the answer comes, then the server goes.
    run: async (_w, ask) => {
      const other = await startServer();
      try {
        const answer = await ask({}, other.currentSocketPath);
        assert.notEqual(await other.waitExit(10_000), undefined, 'the server stopped');
        return answer;
      } finally {
        await other.stop();
      }
    },
  },
};

/** One `events.subscribe` list of every kind herdr defines, the pane-bound ones on the panes given. */
function subscriptionsFor(shellPane: string, agentPane: string): object[] {
  return HERDR_SUBSCRIPTION_KINDS.map((type) => {
    if (type === 'pane.output_matched') return { type, pane_id: shellPane, source: 'recent', lines: 50, match: { type: 'substring', value: 'wire-match' }, strip_ansi: true };
    if (type === 'pane.agent_status_changed') return { type, pane_id: agentPane, agent_status: null };
    if (type === 'pane.scroll_changed') return { type, pane_id: shellPane };
    return { type };
  });
}

describe('herdr\'s methods on the current socket', () => {
  let server: TestServer;
  let w: Wire;
  let fixture: Fixture;
  before(async () => {
    server = await wireServer();
    w = new Wire(server);
    const base = await w.shell('base');
    const agentName = 'wire-agent';
    const agentPane = await w.agent(agentName, FAKE_AGENT);
    fixture = { base, agentName, agentPane, repo: gitRepository(server.dir, 'repo') };
  });
  after(() => server?.stop());

  it('has a case for every method herdr defines, and none it does not', () => {
    assert.deepEqual(sorted(Object.keys(METHOD_CASES)), sorted(HERDR_METHODS));
  });

  it('docs/protocol.md §15.4 says of each what it is here: implemented, or unsupported as the case expects', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'protocol.md'), 'utf8');
    const start = doc.indexOf('\n### 15.4 ');
    assert.ok(start >= 0, 'docs/protocol.md has §15.4');
    const rows = doc.slice(start, doc.indexOf('\n## ', start)).split('\n').filter((line) => line.startsWith('| `'));
    const said = new Map(rows.map((row) => [/^\| `([^`]+)`/.exec(row)?.[1] ?? '', row.split(' | ')[1] ?? ''] as const));
    assert.deepEqual(sorted(said.keys()), sorted(HERDR_METHODS));
    for (const [method, entry] of Object.entries(METHOD_CASES)) {
      const expected = 'unsupported' in entry ? /^`unsupported`: \S/ : /^implemented/;
      assert.match(said.get(method) ?? '', expected, method);
    }
  });

  for (const [method, entry] of Object.entries(METHOD_CASES) as Array<[HerdrMethod, MethodCase]>) {
    it(method, async () => {
      let asked = 0;
      const ask: Ask = (params, socketPath = w.socketPath) => answerOn(socketPath, { id: `herdr-wire:${method}:${++asked}`, method, params });
      if ('unsupported' in entry) {
        const { params, malformed } = entry.unsupported(fixture);
        // Params are checked against herdr's shape first, then the method is refused, saying why.
        w.checkError('invalid_request', await ask(malformed), `${method} with params herdr refuses`);
        const answer = await ask(params);
        w.checkError('unsupported', answer, method);
        assert.match(answer.error.message, new RegExp(`^${method.replace(/\./g, '\\.')} is not supported: .+`));
        return;
      }
      const answer = await entry.run(w, ask, fixture);
      assert.match(String(answer.id), new RegExp(`^herdr-wire:${method.replace(/\./g, '\\.')}:`), 'the answer checked is to the method itself');
      w.check(entry.answers, answer, method);
    });
  }
});

/** What an event's trigger shares: a shell with history, an agent, a git repository. */
interface EventFixture {
  shell: Opened;
  agentName: string;
  agentPane: string;
  repo: string;
}

interface Fired {
  /** The operation that makes the event. */
  fire: () => Promise<unknown>;
  /** For a kind herdr's EventMatch names: the fields `events.wait` is asked to match on (besides `event`). */
  match?: Record<string, unknown>;
}

/** Every subscription kind herdr defines: what makes its event. */
const EVENT_TRIGGERS: Record<HerdrSubscriptionKind, (w: Wire, f: EventFixture) => Promise<Fired>> = {
  'workspace.created': async (w) => ({ fire: () => w.workspace('created'), match: {} }),
  // herdr: a workspace opened on a checkout becomes that worktree's when worktree.open finds it.
  'workspace.updated': async (w, f) => {
    const path = join(w.server.dir, 'wt-updated');
    gitWorktree(f.repo, 'wire-updated', path);
    const { workspace } = await w.workspace('plain', path);
    return { fire: () => w.send('worktree.open', { cwd: f.repo, path }), match: { workspace_id: workspace } };
  },
  'workspace.metadata_updated': async (w) => {
    const { workspace } = await w.workspace('metadata');
    return { fire: () => w.send('workspace.report_metadata', { workspace_id: workspace, source: 'wire', tokens: { build: 'green' } }) };
  },
  'workspace.renamed': async (w) => {
    const { workspace } = await w.workspace('rename');
    return { fire: () => w.send('workspace.rename', { workspace_id: workspace, label: 'renamed' }), match: { workspace_id: workspace, label: 'renamed' } };
  },
  'workspace.moved': async (w) => {
    const { workspace } = await w.workspace('move');
    return { fire: () => w.send('workspace.move', { workspace_id: workspace, insert_index: 0 }), match: { workspace_id: workspace } };
  },
  'workspace.reordered': async (w, f) => {
    const { workspace } = await w.workspace('block');
    return { fire: () => w.send('workspace.move_block', { workspace_ids: [workspace], before_workspace_id: f.shell.workspace }) };
  },
  'workspace.closed': async (w) => {
    const { workspace } = await w.workspace('close');
    return { fire: () => w.send('workspace.close', { workspace_id: workspace }), match: { workspace_id: workspace } };
  },
  'workspace.focused': async (w) => {
    const { workspace } = await w.workspace('focus');
    return { fire: () => w.send('workspace.focus', { workspace_id: workspace }), match: { workspace_id: workspace } };
  },
  'worktree.created': async (w, f) => ({
    fire: () => w.send('worktree.create', { cwd: f.repo, branch: 'wire-ev-create', path: join(w.server.dir, 'wt-ev-create') }),
  }),
  'worktree.opened': async (w, f) => {
    const path = join(w.server.dir, 'wt-ev-open');
    gitWorktree(f.repo, 'wire-ev-open', path);
    return { fire: () => w.send('worktree.open', { cwd: f.repo, path }) };
  },
  'worktree.removed': async (w, f) => {
    const made = await w.ok('worktree.create', { cwd: f.repo, branch: 'wire-ev-remove', path: join(w.server.dir, 'wt-ev-remove') }, 'worktree_created');
    return { fire: () => w.send('worktree.remove', { workspace_id: made.workspace.workspace_id }) };
  },
  'tab.created': async (w) => {
    const { workspace } = await w.workspace('tab');
    return { fire: () => w.tab(workspace), match: { workspace_id: workspace } };
  },
  'tab.closed': async (w) => {
    const { tab } = await w.tab((await w.workspace('tab')).workspace);
    return { fire: () => w.send('tab.close', { tab_id: tab }), match: { tab_id: tab } };
  },
  'tab.focused': async (w) => {
    const { tab } = await w.tab((await w.workspace('tab')).workspace);
    return { fire: () => w.send('tab.focus', { tab_id: tab }), match: { tab_id: tab } };
  },
  'tab.renamed': async (w) => {
    const { tab } = await w.workspace('tab');
    return { fire: () => w.send('tab.rename', { tab_id: tab, label: 'renamed' }), match: { tab_id: tab, label: 'renamed' } };
  },
  'tab.moved': async (w) => {
    const { tab } = await w.tab((await w.workspace('tab')).workspace);
    return { fire: () => w.send('tab.move', { tab_id: tab, insert_index: 0 }), match: { tab_id: tab } };
  },
  'pane.created': async (w) => {
    const { workspace, pane } = await w.workspace('split');
    return { fire: () => w.split(pane), match: { workspace_id: workspace } };
  },
  'pane.closed': async (w) => {
    const other = await w.split((await w.workspace('close')).pane);
    return { fire: () => w.send('pane.close', { pane_id: other }), match: { pane_id: other } };
  },
  'pane.updated': async (w) => {
    const { pane } = await w.workspace('update');
    return { fire: () => w.send('pane.report_metadata', { pane_id: pane, source: 'wire', title: 'Updated' }) };
  },
  'pane.focused': async (w) => {
    const other = await w.split((await w.workspace('focus')).pane);
    return { fire: () => w.send('pane.focus', { pane_id: other }), match: { pane_id: other } };
  },
  'pane.moved': async (w) => {
    const { workspace, pane } = await w.workspace('move');
    const other = await w.split(pane);
    return { fire: () => w.send('pane.move', { pane_id: other, destination: { type: 'new_tab', workspace_id: workspace } }), match: { pane_id: other } };
  },
  'pane.exited': async (w) => {
    const { pane } = await w.shell('exit');
    return { fire: () => w.send('pane.send_input', { pane_id: pane, text: 'exit 3', keys: ['Enter'] }), match: { pane_id: pane } };
  },
  'pane.agent_detected': async (w) => {
    const { pane } = await w.workspace('detect');
    return { fire: () => w.send('pane.report_agent', { pane_id: pane, source: 'wire', agent: 'claude', state: 'idle' }), match: { pane_id: pane, agent: 'claude' } };
  },
  'pane.output_matched': async (w, f) => ({ fire: () => w.send('pane.send_input', { pane_id: f.shell.pane, text: 'echo wire-""match', keys: ['Enter'] }) }),
  'pane.agent_status_changed': async (w, f) => ({
    fire: () => w.send('agent.prompt', { target: f.agentName, text: 'work 300 status' }),
    match: { pane_id: f.agentPane, agent_status: 'working' },
  }),
  'pane.scroll_changed': async (w, f) => ({ fire: () => w.send('pane.scroll', { pane_id: f.shell.pane, direction: 'up', lines: 3 }) }),
  'layout.updated': async (w) => {
    const { pane } = await w.workspace('layout');
    return { fire: () => w.split(pane) };
  },
};

/** herdr's envelope kinds no subscription kind carries, and how each is checked. */
const ENVELOPE_ONLY = {
  // The `events.wait` answer for pane.agent_status_changed (checked with that kind above).
  pane_agent_status_changed: 'events.wait',
  // herdr hands it to plugins' hooks only; its own events.wait answers unsupported_event_wait_match, and so does this server.
  pane_output_changed: 'unsupported_event_wait_match',
} as const satisfies Partial<Record<HerdrEventKind, string>>;

const isDotted = (kind: HerdrSubscriptionKind) => (HERDR_SUBSCRIPTION_EVENT_KINDS as readonly string[]).includes(kind);
/** The `event` of a kind's lines: herdr's envelope name, or the dotted name of its subscription-only lines. */
const lineName = (kind: HerdrSubscriptionKind) => (isDotted(kind) ? kind : kind.replace('.', '_'));
/** The name herdr's EventMatch gives a kind, if it names it. */
const waitName = (kind: HerdrSubscriptionKind) => {
  const name = kind.replace('.', '_');
  return (HERDR_WAIT_MATCH_EVENTS as readonly string[]).includes(name) ? (name as HerdrEventKind) : undefined;
};

function lineSchema(kind: HerdrSubscriptionKind): z.ZodType {
  if (isDotted(kind)) return z.looseObject({ event: z.literal(kind), data: SUBSCRIPTION_EVENT_DATA[kind as keyof typeof SUBSCRIPTION_EVENT_DATA] });
  return eventEnvelope(lineName(kind) as HerdrEventKind);
}

describe('herdr\'s events on the current socket', () => {
  let server: TestServer;
  let w: Wire;
  let fixture: EventFixture;
  let events: EventClient;
  before(async () => {
    server = await wireServer();
    w = new Wire(server);
    const shell = await w.shell('watched');
    await w.ok('pane.send_input', { pane_id: shell.pane, text: 'seq 1 200', keys: ['Enter'] }, 'ok');
    await readUntil(server, shell.pane, (text) => /^200$/m.test(text));
    const agentName = 'wire-events';
    const agentPane = await w.agent(agentName, FAKE_AGENT);
    fixture = { shell, agentName, agentPane, repo: gitRepository(server.dir, 'repo') };
    // As a dashboard does: every kind herdr defines, in one request.
    events = await EventClient.subscribe(w.socketPath, { subscriptions: subscriptionsFor(shell.pane, agentPane) });
  });
  after(async () => {
    events?.close();
    await server?.stop();
  });

  it('has a trigger for every subscription kind herdr defines, and covers every envelope kind and wait match', () => {
    assert.deepEqual(sorted(Object.keys(EVENT_TRIGGERS)), sorted(HERDR_SUBSCRIPTION_KINDS));
    assert.deepEqual(sorted(Object.keys(SUBSCRIPTION_EVENT_DATA)), sorted(HERDR_SUBSCRIPTION_EVENT_KINDS));
    const enveloped = HERDR_SUBSCRIPTION_KINDS.filter((kind) => !isDotted(kind)).map(lineName);
    assert.deepEqual(sorted([...enveloped, ...Object.keys(ENVELOPE_ONLY)]), sorted(HERDR_EVENT_KINDS));
    const waited = HERDR_SUBSCRIPTION_KINDS.map(waitName).filter((name) => name !== undefined);
    assert.deepEqual(sorted([...waited, 'pane_output_changed']), sorted(HERDR_WAIT_MATCH_EVENTS));
  });

  it('takes herdr\'s whole list in one events.subscribe, leaving nothing out', () => {
    w.check('subscription_started', events.ack, 'events.subscribe of every kind');
    assert.equal(events.ack.result.skipped, undefined, JSON.stringify(events.ack));
  });

  for (const [kind, trigger] of Object.entries(EVENT_TRIGGERS) as Array<[HerdrSubscriptionKind, (w: Wire, f: EventFixture) => Promise<Fired>]>) {
    const name = lineName(kind);
    const waited = waitName(kind);
    it(`${kind}: ${name}${waited ? `, and events.wait for ${waited}` : ''}`, async () => {
      const { fire, match } = await trigger(w, fixture);
      let waiting: Promise<Answer> | undefined;
      if (waited) {
        assert.ok(match, `${kind} names what events.wait matches on`);
        waiting = w.send('events.wait', { match_event: { event: waited, ...match }, timeout_ms: 15_000 });
        waiting.catch(() => undefined); // awaited below; when the line never comes, that is the failure to report
        await w.waitsRegistered(1);
      }
      const from = events.lines.length;
      await fire();
      const line = await eventually(() => events.lines.slice(from).find((seen) => seen.event === name), `a ${name} line after the trigger`, 15_000);
      assertShape(lineSchema(kind), line, `the ${name} line`);
      if (waiting) {
        const answer = await waiting;
        w.check('wait_matched', answer, `events.wait for ${waited}`);
        assertShape(eventEnvelope(waited as HerdrEventKind), answer.result.event, `events.wait's ${waited} envelope`);
      }
    });
  }

  it('pane_output_changed: events.wait answers unsupported_event_wait_match, as herdr\'s own server does', async () => {
    const answer = await w.send('events.wait', { match_event: { event: 'pane_output_changed', pane_id: fixture.shell.pane, min_revision: null }, timeout_ms: 1_000 });
    w.checkError(ENVELOPE_ONLY.pane_output_changed, answer, 'events.wait for pane_output_changed');
  });

  it('every line the subscription saw is herdr\'s shape', () => {
    const known = new Map(HERDR_SUBSCRIPTION_KINDS.map((kind) => [lineName(kind), kind] as const));
    for (const [index, line] of events.lines.slice(1).entries()) {
      const kind = known.get(String(line.event));
      assert.ok(kind, `line ${index} is an event herdr defines: ${JSON.stringify(line).slice(0, 300)}`);
      assertShape(lineSchema(kind), line, `line ${index} (${line.event})`);
    }
  });
});
