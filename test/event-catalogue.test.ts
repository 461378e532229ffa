/**
 * The event catalogue (docs/protocol.md §9): one entry per event kind, from which the
 * event lines, the subscription entries and the waitable names are built; herdr's whole
 * kind list subscribed on both sockets; a list from a newer herdr (kinds this server
 * lacks are skipped and named in the ack, the rest delivered); herdr's change events
 * published by the operations that exist: a rename, a metadata report (and its TTL), a
 * title, a worktree created, opened and removed, in herdr's shapes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EVENT_CATALOGUE, SUBSCRIPTION_KINDS, WAITABLE_EVENTS, eventNameOf, kindOfEvent } from '../src/protocol/event-catalogue.js';
import { HERDR_WAIT_KINDS } from '../src/protocol/event-wait.js';
import { OVERFLOW_EVENT, eventLineSchema } from '../src/protocol/events.js';
import { METHOD_PARAMS, subscriptionSchema } from '../src/protocol/methods.js';
import { EventClient } from './helpers/events.js';
import { type TestServer, eventually, oneAnswer, promptShown, sleep, startServer, tempDir } from './helpers/server.js';
import { git, gitWorks } from './helpers/git.js';
import { HERDR_EVENT_KINDS, HERDR_SUBSCRIPTION_EVENT_KINDS, HERDR_SUBSCRIPTION_KINDS } from './helpers/herdr-wire/names.js';

/**
 * herdr's line names, as its subscribers receive them: its envelope kinds but two (`pane_output_changed`
 * goes only to its plugins' hooks; an agent status change is the dotted `pane.agent_status_changed` line).
 */
const NOT_LINES = new Set(['pane_output_changed', 'pane_agent_status_changed']);
const HERDR_EVENT_NAMES = [...HERDR_EVENT_KINDS.filter((kind) => !NOT_LINES.has(kind)), ...HERDR_SUBSCRIPTION_EVENT_KINDS];

const sorted = (values: Iterable<string>) => [...values].sort();

/** herdr's whole list as its client writes it: the kinds with parameters name a pane. */
function herdrList(paneId: string): object[] {
  return HERDR_SUBSCRIPTION_KINDS.map((type) => {
    if (type === 'pane.output_matched') return { type, pane_id: paneId, source: 'recent', match: { type: 'substring', value: 'never printed 7f3a' } };
    if (type === 'pane.agent_status_changed' || type === 'pane.scroll_changed') return { type, pane_id: paneId };
    return { type };
  });
}

const dataOf = (stream: EventClient, event: string) => stream.events.filter((line) => line.event === event).map((line) => line.data as Record<string, any>);
const waitFor = (stream: EventClient, event: string, count = 1) =>
  stream.until((lines) => lines.filter((line) => line.event === event).length >= count, `${count} ${event} line(s)`);

/** Every line a subscriber got is one the line schema describes. */
function assertDescribed(stream: EventClient): void {
  for (const line of stream.events) {
    const parsed = eventLineSchema.safeParse(line);
    assert.ok(parsed.success, `${JSON.stringify(line)}: ${parsed.success ? '' : parsed.error.message}`);
  }
}

describe('the event catalogue', () => {
  it('names every event once: each line has its subscription kind, each kind its line, and herdr\'s kinds are all there', () => {
    const lines = eventLineSchema.options.map((option) => option.shape.event.value).filter((name) => name !== OVERFLOW_EVENT);
    const kinds = subscriptionSchema.options.map((option) => option.shape.type.value);
    assert.deepEqual(sorted(kinds), sorted(SUBSCRIPTION_KINDS), 'one subscription entry per catalogue entry');
    assert.deepEqual(sorted(lines), sorted(kinds.map(eventNameOf)), 'one line per subscription kind, and no line without one');
    assert.equal(new Set(lines).size, lines.length);
    for (const kind of SUBSCRIPTION_KINDS) assert.equal(kindOfEvent(eventNameOf(kind)), kind);
    for (const name of WAITABLE_EVENTS) assert.ok(lines.includes(name), `waitable ${name} has a line`);
    for (const target of Object.values(HERDR_WAIT_KINDS)) if (target !== null) assert.ok(lines.includes(target), `herdr's wait kind maps onto ${target}`);
    for (const kind of HERDR_SUBSCRIPTION_KINDS) assert.ok(kinds.includes(kind), `herdr's ${kind} is a kind here`);
    for (const name of HERDR_EVENT_NAMES) assert.ok(lines.includes(name as never), `herdr's ${name} is a line here`);
    // The lifecycle split as herdr makes it: underscores and `type` in data, or the dotted name kept.
    for (const kind of SUBSCRIPTION_KINDS) {
      const { line } = EVENT_CATALOGUE[kind];
      assert.equal(eventNameOf(kind), line === 'lifecycle' ? kind.replace('.', '_') : kind);
    }
  });

  it('checks each entry once, in the method table: a kind\'s own fields, a missing type, a kind it lacks', () => {
    const params = METHOD_PARAMS['events.subscribe'];
    const bad = params.safeParse({ subscriptions: [{ type: 'pane.created' }, { type: 'pane.output_matched', pane_id: '1-1', source: 'recent' }] });
    assert.ok(!bad.success);
    assert.deepEqual(bad.error.issues.map((issue) => issue.path.join('.')), ['subscriptions.1.match']);
    assert.ok(!params.safeParse({ subscriptions: [{ kind: 'pane.created' }] }).success);
    const newer = params.safeParse({ subscriptions: [{ type: 'pane.created' }, { type: 'pane.teleported', pane_id: 'w1:p1' }] });
    assert.ok(newer.success);
    assert.deepEqual(newer.data.subscriptions, [{ type: 'pane.created' }, { skipped: 'pane.teleported' }]);
  });
});

describe('herdr\'s event kinds on a live server', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('herdr\'s whole kind list is taken on both sockets, and its change events arrive in each dialect\'s ids', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const paneId = `${workspace.workspace_id}-1`;
    const stable = (await server.call('pane.get', { pane_id: paneId })).pane.stable_id;
    const old = await EventClient.subscribe(server.socketPath, { subscriptions: herdrList(paneId) });
    const current = await EventClient.subscribe(server.currentSocketPath, { subscriptions: herdrList(stable) });
    try {
      for (const stream of [old, current]) assert.deepEqual(stream.ack.result, { type: 'subscription_started' });

      const made = await server.call('workspace.create', { cwd: server.dir });
      const id = made.workspace.workspace_id;
      const wsStable = made.workspace.stable_id;
      await server.call('workspace.rename', { workspace_id: id, label: 'renamed once' });
      await server.call('workspace.report_metadata', { workspace_id: id, source: 'ci', tokens: { branch: 'main' } });
      await server.call('pane.report_metadata', { pane_id: `${id}-1`, source: 'ci', tokens: { build: 'green' } });
      await server.call('pane.rename', { pane_id: `${id}-1`, label: 'the build' });

      for (const [stream, ws, pane] of [[old, id, `${id}-1`], [current, wsStable, `${wsStable}:p1`]] as const) {
        await waitFor(stream, 'pane_updated', 2);
        assert.deepEqual(dataOf(stream, 'workspace_renamed'), [{ type: 'workspace_renamed', workspace_id: ws, label: 'renamed once' }]);
        const [metadata] = dataOf(stream, 'workspace_metadata_updated');
        assert.equal(metadata?.type, 'workspace_metadata_updated');
        assert.equal(metadata?.workspace.workspace_id, ws);
        assert.deepEqual(metadata?.workspace.tokens, { branch: 'main' });
        const updates = dataOf(stream, 'pane_updated');
        const tokens = updates.find((data) => data.pane.tokens !== undefined);
        const label = updates.find((data) => data.pane.label !== undefined);
        assert.equal(tokens?.pane.pane_id, pane);
        assert.deepEqual(tokens?.pane.tokens, { build: 'green' });
        assert.equal(label?.pane.label, 'the build');
        assert.ok(dataOf(stream, 'workspace_created').some((data) => data.workspace.workspace_id === ws));
        assertDescribed(stream);
      }
      // The order a client sees: the workspace's creation before what was done to it.
      const names = current.names();
      assert.ok(names.indexOf('workspace_created') < names.indexOf('workspace_renamed'));
      assert.ok(names.indexOf('workspace_renamed') < names.indexOf('workspace_metadata_updated'));
    } finally {
      old.close();
      current.close();
    }
  });

  it('a list from a newer herdr: kinds this server lacks are left out and named in the ack, the others delivered', async () => {
    for (const socket of [server.socketPath, server.currentSocketPath]) {
      const stream = await EventClient.subscribe(socket, {
        subscriptions: [{ type: 'workspace.created' }, { type: 'workspace.teleported' }, { type: 'pane.created' }, { type: 'pane.hologram_changed', pane_id: 'w1:p1' }],
      });
      try {
        assert.deepEqual(stream.ack.result, {
          type: 'subscription_started',
          skipped: [{ index: 1, type: 'workspace.teleported' }, { index: 3, type: 'pane.hologram_changed' }],
        });
        await server.call('workspace.create', { cwd: server.dir });
        await stream.until((lines) => lines.some((line) => line.event === 'workspace_created') && lines.some((line) => line.event === 'pane_created'), 'the known kinds');
        assert.equal(stream.closed, false);
      } finally {
        stream.close();
      }
    }
  });

  it('an unchanged metadata report is silent; one whose TTL runs out is published when it does', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const id = workspace.workspace_id;
    const stream = await EventClient.subscribe(server.socketPath, {
      subscriptions: [{ type: 'workspace.metadata_updated' }, { type: 'pane.updated' }, { type: 'workspace.renamed' }],
    });
    try {
      await server.call('workspace.report_metadata', { workspace_id: id, source: 'a', tokens: { branch: 'main' } });
      await server.call('workspace.report_metadata', { workspace_id: id, source: 'a', tokens: { branch: 'main' } });
      await server.call('pane.report_metadata', { pane_id: `${id}-1`, source: 'a', tokens: { k: 'v' } });
      await server.call('pane.report_metadata', { pane_id: `${id}-1`, source: 'a', tokens: { k: 'v' } });
      // A marker after the repeats: everything before it has been sent.
      await server.call('workspace.rename', { workspace_id: id, label: 'marker' });
      await waitFor(stream, 'workspace_renamed');
      assert.equal(dataOf(stream, 'workspace_metadata_updated').length, 1, 'the repeat changed nothing');
      assert.equal(dataOf(stream, 'pane_updated').length, 1, 'the repeat changed nothing');

      await server.call('workspace.report_metadata', { workspace_id: id, source: 'b', tokens: { ci: 'running' }, ttl_ms: 300 });
      await server.call('pane.report_metadata', { pane_id: `${id}-1`, source: 'b', tokens: { eta: '1m' }, ttl_ms: 300 });
      await waitFor(stream, 'workspace_metadata_updated', 3);
      await waitFor(stream, 'pane_updated', 3);
      const workspaces = dataOf(stream, 'workspace_metadata_updated').map((data) => data.workspace.tokens);
      assert.deepEqual(workspaces, [{ branch: 'main' }, { branch: 'main', ci: 'running' }, { branch: 'main' }]);
      const panes = dataOf(stream, 'pane_updated').map((data) => data.pane.tokens);
      assert.deepEqual(panes, [{ k: 'v' }, { k: 'v', eta: '1m' }, { k: 'v' }]);
      assertDescribed(stream);
    } finally {
      stream.close();
    }
  });

  it('a title a program sets is pane_updated, in stable ids on the current socket', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const paneId = `${workspace.workspace_id}-1`;
    await promptShown(server, paneId);
    const stream = await EventClient.subscribe(server.currentSocketPath, { subscriptions: [{ type: 'pane.updated' }] });
    try {
      await server.call('pane.send_input', { pane_id: paneId, text: String.raw`printf '\033]2;built-ok\007'`, keys: ['Enter'] });
      // herdr's current pane_info keeps the program's title in terminal_title (its `title` is what hooks report).
      await stream.until((lines) => lines.some((line) => (line.data as { pane?: { terminal_title?: string } }).pane?.terminal_title === 'built-ok'), 'the title');
      const pane = dataOf(stream, 'pane_updated').find((data) => data.pane.terminal_title === 'built-ok')?.pane;
      assert.equal(pane?.pane_id, `${workspace.stable_id}:p1`);
    } finally {
      stream.close();
    }
  });

  it('events.wait waits for herdr\'s workspace_renamed, with its label filter', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const pending = oneAnswer(server.currentSocketPath, {
      id: 'w',
      method: 'events.wait',
      params: { match_event: { event: 'workspace_renamed', workspace_id: workspace.stable_id, label: 'second' }, timeout_ms: 10_000 },
    });
    await eventually(async () => (await server.call('server.stats', {})).waits === 1, 'the wait to be set up');
    await server.call('workspace.rename', { workspace_id: workspace.workspace_id, label: 'first' });
    await sleep(50);
    await server.call('workspace.rename', { workspace_id: workspace.workspace_id, label: 'second' });
    const answer = await pending;
    assert.deepEqual(answer.result, {
      type: 'wait_matched',
      event: { event: 'workspace_renamed', data: { type: 'workspace_renamed', workspace_id: workspace.stable_id, label: 'second' }, seq: answer.result.event.seq },
    });
  });
});



describe('worktree events', { skip: gitWorks() ? false : 'git is not installed' }, () => {
  const root = tempDir('herdr-worktree-events-');
  let server: TestServer;
  let repo: string;
  before(async () => {
    repo = join(root, 'app');
    mkdirSync(repo, { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README'), 'hello\n');
    git(repo, 'add', 'README');
    git(repo, 'commit', '-q', '-m', 'init');
    repo = realpathSync(repo);
    server = await startServer({ socketPath: join(root, 'herdr.sock'), serverArgs: ['--worktrees-dir', join(root, 'worktrees')] });
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('worktree.create, open (of an open one, with a label) and remove publish herdr\'s worktree events after the workspace\'s own', async () => {
    const stream = await EventClient.subscribe(server.currentSocketPath, {
      subscriptions: ['workspace.created', 'workspace.closed', 'workspace.renamed', 'worktree.created', 'worktree.opened', 'worktree.removed'].map((type) => ({ type })),
    });
    const old = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'worktree.created' }, { type: 'worktree.removed' }] });
    try {
      const created = await oneAnswer(server.currentSocketPath, { id: 'c', method: 'worktree.create', params: { cwd: repo, branch: 'feature-x' } });
      const { workspace, worktree } = created.result as { workspace: { workspace_id: string }; worktree: { path: string } };
      await waitFor(stream, 'worktree_created');
      assert.deepEqual(dataOf(stream, 'worktree_created'), [{ type: 'worktree_created', workspace, worktree }]);
      assert.ok(stream.names().indexOf('workspace_created') < stream.names().indexOf('worktree_created'));
      assert.equal(worktree.path, realpathSync(worktree.path));

      const opened = await oneAnswer(server.currentSocketPath, { id: 'o', method: 'worktree.open', params: { cwd: repo, branch: 'feature-x', label: 'fx' } });
      assert.equal(opened.result.already_open, true);
      await waitFor(stream, 'worktree_opened');
      assert.deepEqual(dataOf(stream, 'workspace_renamed'), [{ type: 'workspace_renamed', workspace_id: workspace.workspace_id, label: 'fx' }]);
      const [open] = dataOf(stream, 'worktree_opened');
      assert.deepEqual(open, { type: 'worktree_opened', workspace: opened.result.workspace, worktree: opened.result.worktree, already_open: true });
      assert.equal(open?.workspace.label, 'fx');

      await oneAnswer(server.currentSocketPath, { id: 'r', method: 'worktree.remove', params: { workspace_id: workspace.workspace_id } });
      await waitFor(stream, 'worktree_removed');
      const names = stream.names();
      assert.ok(names.lastIndexOf('workspace_closed') < names.indexOf('worktree_removed'), 'the workspace closes first, as in herdr');
      const [removed] = dataOf(stream, 'worktree_removed');
      assert.equal(removed?.workspace_id, workspace.workspace_id);
      assert.equal(removed?.forced, false);
      assert.equal(removed?.workspace.label, 'fx');
      assert.equal(removed?.worktree.path, worktree.path);
      assert.equal(removed?.worktree.branch, 'feature-x');
      assert.equal(removed?.worktree.is_linked_worktree, true);
      assert.equal(removed?.worktree.open_workspace_id, undefined);
      assertDescribed(stream);

      // The 0.2.0 socket: the same events in compact ids.
      await waitFor(old, 'worktree_removed');
      assert.match(dataOf(old, 'worktree_created')[0]?.workspace.workspace_id, /^\d+$/);
      assert.match(dataOf(old, 'worktree_removed')[0]?.workspace_id, /^\d+$/);
      assertDescribed(old);
    } finally {
      stream.close();
      old.close();
    }
  });
});
