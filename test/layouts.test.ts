/**
 * `layout.export` and `layout.apply` (docs/protocol.md §5.2) on a real server
 * with real panes: a workspace's tree as data and back, 50 programs started in
 * one call each with its own directory, environment and label, all or nothing
 * when a leaf cannot start (no pane, process or event left), the limits, the
 * ratios kept across a restart, and the CLI.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HerdrClient, HerdrError } from '../src/client/client.js';
import type { ResponseEnvelope } from '../src/protocol/envelope.js';
import type { LayoutPaneNode, LayoutTreeNode } from '../src/protocol/layout-tree.js';
import { EventClient } from './helpers/events.js';
import { HERDR_BIN, type TestServer, eventually, herdrCli, readUntil, startServer, tempDir } from './helpers/server.js';

const LIFECYCLE = ['workspace.created', 'workspace.closed', 'workspace.focused', 'pane.created', 'pane.closed', 'pane.focused', 'pane.exited'].map((type) => ({ type }));

const sleeper = (): LayoutTreeNode => ({ type: 'pane', command: ['sleep', '60'] });

function split(first: LayoutTreeNode, second: LayoutTreeNode, ratio = 0.5, direction: 'right' | 'down' = 'right'): LayoutTreeNode {
  return { type: 'split', direction, ratio, first, second };
}

/** The leaves as a balanced tree, directions alternating by level (layout order = the leaves' order). */
function balanced(leaves: LayoutTreeNode[], level = 0): LayoutTreeNode {
  if (leaves.length === 1) return leaves[0] as LayoutTreeNode;
  const half = Math.ceil(leaves.length / 2);
  return split(balanced(leaves.slice(0, half), level + 1), balanced(leaves.slice(half), level + 1), 0.5, level % 2 === 0 ? 'right' : 'down');
}

/** Each leaf the first child of a split whose second child holds the rest: leaf i sits at root(.second × i).first. */
function chain(leaves: LayoutTreeNode[]): LayoutTreeNode {
  const [head, ...rest] = leaves;
  return rest.length === 0 ? (head as LayoutTreeNode) : split(head as LayoutTreeNode, chain(rest), 0.5, 'down');
}

/** The tree without pane ids: what two workspaces built alike share. */
function withoutIds(node: LayoutTreeNode): LayoutTreeNode {
  if (node.type === 'split') return { ...node, first: withoutIds(node.first), second: withoutIds(node.second) };
  const { pane_id: _id, ...rest } = node;
  return rest;
}

/** Directions, ratios and labels only: what survives a restart whatever the panes run. */
function shape(node: LayoutTreeNode): string {
  return node.type === 'split' ? `(${shape(node.first)} ${node.direction} ${node.ratio} ${shape(node.second)})` : (node.label ?? '·');
}

/** Processes whose argv is exactly `sleep <token>`, read from /proc. */
function sleepersWith(token: string): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${token}\0`) count++;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

/** The error of a raw answer, if it is one. */
async function errorOf(answer: Promise<ResponseEnvelope>): Promise<{ code: string; message: string } | undefined> {
  const envelope = await answer;
  return 'error' in envelope ? envelope.error : undefined;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HerdrError) return { code: error.code, message: error.response.error.message };
    throw error;
  }
  assert.fail('the request succeeded');
}

/** The CLI with `input` on its stdin: exit code and output. */
function cliWithInput(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HERDR_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('layouts', () => {
  let server: TestServer;
  let client: HerdrClient;
  /** A fresh directory in the server's, by its real path (as a pane reports its cwd). */
  const dir = (name: string) => {
    const path = join(server.dir, name);
    mkdirSync(path, { recursive: true });
    return realpathSync(path);
  };
  const counts = async () => ({
    panes: (await client.pane.list()).panes.length,
    workspaces: (await client.workspace.list()).workspaces.length,
    stats: (await client.server.stats()).panes,
  });

  before(async () => {
    server = await startServer();
    client = new HerdrClient({ socketPath: server.socketPath });
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  it('exports a workspace made with splits, and builds the same tree from the export', async () => {
    const [a, b, c] = [dir('a'), dir('b'), dir('c')];
    const { workspace } = await client.workspace.create({ cwd: a, label: 'by-hand' });
    const ws = workspace.workspace_id;
    await client.pane.split({ target_pane_id: `${ws}-1`, direction: 'right', cwd: b, label: 'tests', command: ['sleep', '60'], env: { ROLE: 'tests' } });
    await client.pane.split({ target_pane_id: `${ws}-1`, direction: 'down', cwd: c, label: 'logs' });
    const { layout } = await client.layout.export({ pane_id: `${ws}-2` });
    assert.deepEqual(layout, {
      workspace_id: ws,
      tab_id: `${workspace.stable_id}:t1`,
      zoomed: false,
      focused_pane_id: `${ws}-1`,
      root: split(
        split({ type: 'pane', pane_id: `${ws}-1`, cwd: a }, { type: 'pane', pane_id: `${ws}-3`, label: 'logs', cwd: c }, 0.5, 'down'),
        { type: 'pane', pane_id: `${ws}-2`, label: 'tests', cwd: b, command: ['sleep', '60'], env: { ROLE: 'tests' } },
      ),
    });

    const copy = await client.layout.apply({ root: layout.root, label: 'copy' });
    assert.deepEqual(withoutIds(copy.layout.root), withoutIds(layout.root));
    const copyId = copy.layout.workspace_id;
    assert.deepEqual((await client.layout.export({ workspace_id: copyId })).layout, copy.layout, 'the answer is what export then says');
    assert.equal((await client.workspace.get({ workspace_id: copyId })).workspace.label, 'copy');
    assert.deepEqual((await client.pane.list({ workspace_id: copyId })).panes.map((p) => [p.pane_id, p.label]), [
      [`${copyId}-1`, undefined], [`${copyId}-2`, 'logs'], [`${copyId}-3`, 'tests'],
    ], 'panes numbered in layout order');

    // Ratios other than pane.split's halves, through apply, export and apply again.
    const uneven = split(split({ type: 'pane', label: 'x' }, { type: 'pane', label: 'y' }, 0.7, 'down'), { type: 'pane', label: 'z' }, 0.3);
    const first = await client.layout.apply({ root: uneven });
    const second = await client.layout.apply({ root: (await client.layout.export({ workspace_id: first.layout.workspace_id })).layout.root });
    assert.equal(shape(second.layout.root), '((x down 0.7 y) right 0.3 z)');
    assert.deepEqual(withoutIds(second.layout.root), withoutIds(first.layout.root));
    for (const id of [second.layout.workspace_id, first.layout.workspace_id, copyId, ws]) await client.workspace.close({ workspace_id: id });
  });

  it('starts 50 programs in one call, each in its own directory with its own environment and label', async (t) => {
    const leaves = Array.from({ length: 50 }, (_, i): LayoutPaneNode => ({
      type: 'pane',
      label: `agent-${i}`,
      cwd: dir(`agent-${i}`),
      env: { AGENT_TAG: `tag-${i}` },
      command: ['sh', '-c', 'echo "ready $AGENT_TAG in $(pwd)"; exec sleep 3600'],
    }));
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: LIFECYCLE });
    const startedAt = performance.now();
    const { layout } = await client.layout.apply({ root: balanced(leaves), label: 'fleet', focus: true });
    t.diagnostic(`50 panes started in ${Math.round(performance.now() - startedAt)} ms`);
    const ws = layout.workspace_id;
    const { panes } = await client.pane.list({ workspace_id: ws });
    assert.deepEqual(panes.map((p) => [p.pane_id, p.label]), leaves.map((leaf, i) => [`${ws}-${i + 1}`, leaf.label]));
    assert.equal(layout.focused_pane_id, `${ws}-1`);
    await Promise.all(panes.map((pane, i) => readUntil(server, pane.pane_id, (text) => text.includes(`ready tag-${i} in ${leaves[i]?.cwd}`))));

    await events.until((lines) => lines.some((line) => line.event === 'pane_focused'), 'the focus events');
    assert.deepEqual(events.names(), ['workspace_created', 'workspace_focused', ...leaves.map(() => 'pane_created'), 'pane_focused']);
    const created = events.events.filter((line) => line.event === 'pane_created').map((line) => (line.data as { pane: { pane_id: string } }).pane.pane_id);
    assert.deepEqual(created, panes.map((p) => p.pane_id), 'pane_created in layout order');
    events.close();
    await client.workspace.close({ workspace_id: ws });
  });

  it('fails the whole request when one leaf of ten cannot start, leaving no pane, process or event', async () => {
    const shardPanes = async () => (await client.server.stats()).shards.reduce((sum, shard) => sum + shard.panes, 0);
    const before = await counts();
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: LIFECYCLE });
    const token = String(7000 + Math.floor(Math.random() * 1000));
    const ten = (bad: LayoutTreeNode) =>
      chain(Array.from({ length: 10 }, (_, i): LayoutTreeNode => (i === 5 ? bad : { type: 'pane', cwd: server.dir, command: ['sleep', token] })));
    const badPath = `root${'.second'.repeat(5)}.first`;

    // Checked before anything starts.
    let refused = await refusal(client.layout.apply({ root: ten({ type: 'pane', cwd: join(server.dir, 'gone') }) }));
    assert.equal(refused.code, 'layout_apply_failed');
    assert.match(refused.message, new RegExp(`^${badPath.replaceAll('.', '\\.')} cannot start: cwd .*gone does not exist`));
    refused = await refusal(client.layout.apply({ root: ten({ type: 'pane', command: ['no-such-program-here'] }) }));
    assert.equal(refused.code, 'layout_apply_failed');
    assert.match(refused.message, /cannot start: command not found or not executable: no-such-program-here/);

    // Passes the checks (an executable file) but exec fails (its interpreter is missing): the nine others had started.
    const broken = join(server.dir, 'broken-interpreter');
    writeFileSync(broken, '#!/nonexistent/interpreter\n', { mode: 0o755 });
    refused = await refusal(client.layout.apply({ root: ten({ type: 'pane', command: [broken] }) }));
    assert.equal(refused.code, 'layout_apply_failed');
    assert.match(refused.message, new RegExp(`^${badPath.replaceAll('.', '\\.')} could not start: .*the panes already started were ended`));

    assert.deepEqual(await counts(), before);
    await eventually(() => sleepersWith(token) === 0, 'the started panes\' processes to end');
    // Panes closed earlier may still be ending: the shards settle at what the registry holds.
    await eventually(async () => (await shardPanes()) === before.panes, 'the shards to hold none of them');
    // No event came: the first one is the next request's.
    const next = await client.layout.apply({ root: { type: 'pane', command: ['sleep', '60'] } });
    await events.until((lines) => lines.length > 0, 'the next request\'s event');
    assert.equal(events.events[0]?.event, 'workspace_created');
    assert.equal((events.events[0]?.data as { workspace: { workspace_id: string } }).workspace.workspace_id, next.layout.workspace_id);
    events.close();
    await client.workspace.close({ workspace_id: next.layout.workspace_id });
  });

  it('refuses a tree that is too big or malformed (invalid_layout) and targets it cannot have (invalid_target)', async () => {
    const before = await counts();
    const pane: LayoutTreeNode = { type: 'pane' };
    const deep = (splits: number): LayoutTreeNode => chain(Array.from({ length: splits + 1 }, () => pane));
    const cases: Array<[string, unknown, RegExp]> = [
      ['129 panes', balanced(Array.from({ length: 129 }, () => pane)), /at most 128 panes/],
      ['17 splits deep', deep(17), /at most 16 splits deep/],
      ['4000 splits deep', deep(4000), /at most 16 splits deep/],
      ['ratio 0', split(pane, pane, 0), /^invalid layout: root\.ratio: /],
      ['ratio 1', split(pane, pane, 1), /root\.ratio/],
      ['ratio 1.5', split(pane, split(pane, pane, 1.5)), /root\.second\.ratio/],
      ['ratio -0.25', split(pane, pane, -0.25), /root\.ratio/],
      ['ratio as text', { ...split(pane, pane), ratio: 'half' }, /root\.ratio/],
      ['an empty command', split(pane, { type: 'pane', command: [] }), /root\.second\.command: command needs at least the program/],
      ['an environment name with "="', { type: 'pane', env: { 'A=B': 'x' } }, /root\.env/],
      ['a NUL in a cwd', { type: 'pane', cwd: 'a\0b' }, /root\.cwd: must not contain a NUL byte/],
      ['a node type there is none of', { type: 'tab' }, /root/],
      ['a split without its second child', { type: 'split', direction: 'down', ratio: 0.5, first: pane }, /root\.second/],
      ['a direction there is none of', { ...split(pane, pane), direction: 'left' }, /root\.direction/],
    ];
    for (const [what, root, message] of cases) {
      const error = await errorOf(server.request('layout.apply', { root }));
      assert.equal(error?.code, 'invalid_layout', what);
      assert.match(error?.message ?? '', message, what);
    }
    assert.equal((await errorOf(server.request('layout.apply', {})))?.code, 'invalid_layout', 'no root at all');

    const targets: Array<[string, object, RegExp]> = [
      ['layout.apply', { root: pane, workspace_id: '1', tab_id: 'w1:t1' }, /tab_id .* or workspace_id .*, not both/],
      ['layout.export', { workspace_id: '1', pane_id: '1-1' }, /name one of/],
      ['layout.export', { tab_id: 'w1:t1', pane_id: '1-1' }, /name one of/],
    ];
    for (const [method, params, message] of targets) {
      const error = await errorOf(server.request(method, params));
      assert.equal(error?.code, 'invalid_target', `${method} ${JSON.stringify(params)}`);
      assert.match(error?.message ?? '', message);
    }
    assert.equal((await errorOf(server.request('layout.export', { workspace_id: 'w999' })))?.code, 'workspace_not_found');
    assert.equal((await errorOf(server.request('layout.export', { tab_id: 'w1:t99' })))?.code, 'tab_not_found');
    assert.equal((await errorOf(server.request('layout.export', { pane_id: '99-1' })))?.code, 'pane_not_found');
    assert.deepEqual(await counts(), before, 'nothing was started');

    // The limits themselves are allowed; absent fields may be sent as null (herdr's clients do).
    const deepest = await client.layout.apply({ root: chain(Array.from({ length: 17 }, sleeper)) });
    assert.equal((await client.pane.list({ workspace_id: deepest.layout.workspace_id })).panes.length, 17);
    const nulls = await server.request('layout.apply', {
      root: { type: 'pane', pane_id: null, label: null, cwd: null, command: null, env: null }, label: null, focus: null, workspace_id: null, tab_id: null,
    });
    const nullsLayout = (nulls as { result?: { layout: { workspace_id: string } } }).result?.layout;
    assert.ok(nullsLayout, JSON.stringify(nulls));
    for (const id of [nullsLayout.workspace_id, deepest.layout.workspace_id]) await client.workspace.close({ workspace_id: id });
  });

  it('reports a pane whose program exits at once only after it was created', async () => {
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: LIFECYCLE });
    const leaves: LayoutTreeNode[] = [{ type: 'pane', command: ['true'] }, ...Array.from({ length: 19 }, sleeper)];
    const { layout } = await client.layout.apply({ root: balanced(leaves) });
    const ws = layout.workspace_id;
    await events.until((lines) => lines.some((line) => line.event === 'pane_closed'), 'the quick pane to be closed');
    // Focus events aside (the new workspace is focused when none was; the exit moves its focus).
    const names = events.names().filter((name) => !name.endsWith('_focused'));
    assert.deepEqual(names, ['workspace_created', ...leaves.map(() => 'pane_created'), 'pane_exited', 'pane_closed']);
    assert.deepEqual(events.events.find((line) => line.event === 'pane_exited')?.data, { type: 'pane_exited', pane_id: `${ws}-1`, workspace_id: ws, exit_code: 0 });
    assert.equal((await client.pane.list({ workspace_id: ws })).panes.length, 19);
    events.close();
    await client.workspace.close({ workspace_id: ws });
  });

  it('keeps the tree with its ratios and labels across a restart', async () => {
    const root = tempDir('herdr-layouts-');
    const options = { stateDir: join(root, 'state'), socketPath: join(root, 'herdr.sock') };
    const tree = split({ type: 'pane', label: 'top' }, split({ type: 'pane', label: 'left' }, { type: 'pane', label: 'right' }, 0.8), 0.3, 'down');
    const first = await startServer(options);
    await first.call('layout.apply', { root: tree });
    await first.stop();
    const second = await startServer(options);
    try {
      const { layout } = await second.call('layout.export', {});
      assert.equal(shape(layout.root), '(top down 0.3 (left right 0.8 right))');
    } finally {
      await second.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('herdr layout apply builds from a file or stdin (a relative cwd from the file\'s directory); export prints what apply takes', async () => {
    const herdr = herdrCli(server);
    const folder = dir('cli');
    const web = dir('cli/web');
    const file = join(folder, 'layout.json');
    writeFileSync(file, JSON.stringify(split({ type: 'pane', label: 'web', cwd: 'web' }, { type: 'pane', label: 'here', cwd: '.' }, 0.6)));
    const applied = JSON.parse((await herdr('layout', 'apply', file, '--label', 'from-file', '--focus')).stdout) as {
      result: { type: string; layout: { workspace_id: string; root: LayoutTreeNode } };
    };
    assert.equal(applied.result.type, 'layout_apply');
    const ws = applied.result.layout.workspace_id;
    const root = applied.result.layout.root;
    assert.ok(root.type === 'split' && root.first.type === 'pane' && root.second.type === 'pane');
    assert.equal(root.first.cwd, web);
    assert.equal(root.second.cwd, folder);
    const { workspace } = await client.workspace.get({ workspace_id: ws });
    assert.deepEqual([workspace.label, workspace.focused], ['from-file', true]);

    const exported = await herdr('layout', 'export', '--workspace', ws);
    const copy = await cliWithInput(['layout', 'apply', '-', '--socket', server.socketPath], exported.stdout);
    assert.equal(copy.code, 0, copy.stderr);
    const copied = JSON.parse(copy.stdout) as { result: { layout: { workspace_id: string; root: LayoutTreeNode } } };
    assert.deepEqual(withoutIds(copied.result.layout.root), withoutIds(root));

    writeFileSync(join(folder, 'bad.json'), JSON.stringify({ type: 'pane', cwd: 'missing' }));
    await assert.rejects(herdr('layout', 'apply', join(folder, 'bad.json')), (error: { code: number; stderr: string }) =>
      error.code === 1 && JSON.parse(error.stderr).error.code === 'layout_apply_failed');
    writeFileSync(join(folder, 'broken.json'), '{"type":');
    await assert.rejects(herdr('layout', 'apply', join(folder, 'broken.json')), (error: { code: number; stderr: string }) =>
      error.code === 1 && /broken\.json is not JSON/.test(error.stderr));
    for (const id of [copied.result.layout.workspace_id, ws]) await client.workspace.close({ workspace_id: id });
  });
});
