/**
 * docs/protocol.md §5.1 end to end: what runs in a pane (real shells, real
 * commands, read from /proc), the pane's label, and reported metadata (seq,
 * TTL, limits, never a state change), over the socket and through the CLI.
 */
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MethodInput } from '../src/protocol/methods.js';
import type { ProcessInfo } from '../src/protocol/methods/pane-details.js';
import {
  type TestServer,
  codeOf,
  eventually,
  herdrCli,
  newWorkspace,
  promptShown,
  startServer,
} from './helpers/server.js';

describe('pane details', () => {
  let server: TestServer;
  let shellPane: string;
  let shellWorkspace: string;
  before(async () => {
    server = await startServer();
    ({ paneId: shellPane, workspaceId: shellWorkspace } = await newWorkspace(server));
    await promptShown(server, shellPane);
  });
  after(() => server.stop());

  const processInfo = async (paneId?: string) =>
    (await server.call('pane.process_info', paneId === undefined ? {} : { pane_id: paneId })).process_info;
  const paneGet = async (paneId: string) => (await server.call('pane.get', { pane_id: paneId })).pane;

  /** Types a command and waits until its processes are the terminal's foreground group. */
  const runInForeground = (paneId: string, command: string, names: string[]) =>
    server.call('pane.send_input', { pane_id: paneId, text: command }).then(() =>
      eventually(async () => {
        const info = await processInfo(paneId);
        // A process caught mid-exec has its new name but no argv yet: wait until each shows both.
        const shown = (name: string) => info.foreground_processes.some((p) => p.name === name && p.argv !== undefined);
        return info.foreground_process_group_id !== info.shell_pid && names.every(shown) ? info : undefined;
      }, `${names.join(', ')} in the foreground`),
    );

  it('process_info of a shell at its prompt: the shell is the foreground group', async () => {
    const pane = await paneGet(shellPane);
    const info = await processInfo(shellPane);
    assert.equal(info.pane_id, shellPane);
    assert.equal(info.stable_id, pane.stable_id);
    assert.equal(info.shell_pid, pane.pid);
    assert.equal(info.foreground_process_group_id, pane.pid);
    assert.deepEqual(info.shell_argv, ['/bin/sh']);
    assert.match(info.tty ?? '', /^\/dev\/pts\/\d+$/);
    assert.deepEqual(info.foreground_processes, [
      { pid: pane.pid, name: 'sh', argv0: '/bin/sh', argv: ['/bin/sh'], cwd: realpathSync(server.dir) },
    ]);
    assert.deepEqual(await processInfo(), info, 'without pane_id: the focused pane');
  });

  it('process_info of a command and of a pipeline in the foreground, in the directory they run in', async () => {
    mkdirSync(join(server.dir, 'work dir'));
    const dir = realpathSync(join(server.dir, 'work dir'));
    const shellPid = (await paneGet(shellPane)).pid;
    await server.call('pane.send_input', { pane_id: shellPane, text: `cd '${dir}'` });

    const single = await runInForeground(shellPane, 'sleep 30', ['sleep']);
    assert.equal(single.shell_pid, shellPid);
    const [sleep] = single.foreground_processes;
    assert.deepEqual(single.foreground_processes, [{ pid: sleep?.pid, name: 'sleep', argv0: 'sleep', argv: ['sleep', '30'], cwd: dir }]);
    assert.equal(single.foreground_process_group_id, sleep?.pid, 'a job leads its own process group');
    await server.call('pane.send_keys', { pane_id: shellPane, keys: ['C-c'] });
    await eventually(async () => (await processInfo(shellPane)).foreground_process_group_id === shellPid, 'the shell back in front');

    const pipeline = await runInForeground(shellPane, 'sleep 30 | cat', ['sleep', 'cat']);
    assert.deepEqual(
      pipeline.foreground_processes.map(({ name, argv, cwd }) => ({ name, argv, cwd })).sort((a, b) => a.name.localeCompare(b.name)),
      [
        { name: 'cat', argv: ['cat'], cwd: dir },
        { name: 'sleep', argv: ['sleep', '30'], cwd: dir },
      ],
    );
    assert.ok(!pipeline.foreground_processes.some((p) => p.pid === shellPid), 'the waiting shell is not in the foreground group');
    await server.call('pane.send_keys', { pane_id: shellPane, keys: ['C-c'] });
    await eventually(async () => (await processInfo(shellPane)).foreground_process_group_id === shellPid, 'the shell back in front');
  });

  it('process_info of a pane started with a command, and of one whose program exited', async () => {
    const { paneId } = await newWorkspace(server, { command: ['sh', '-c', 'sleep 1; exit 3'] });
    const info = await eventually(async () => {
      const found = await processInfo(paneId);
      return found.foreground_processes.some((p) => p.name === 'sleep') ? found : undefined;
    }, 'the command\'s sleep in the foreground');
    assert.deepEqual(info.shell_argv, ['sh', '-c', 'sleep 1; exit 3']);
    assert.equal(info.foreground_process_group_id, info.shell_pid, 'a shell without job control keeps its children in its group');
    const stable = (await paneGet(paneId)).stable_id;
    await eventually(async () => (await codeOf(processInfo(stable))) === 'pane_not_found', 'the exited pane gone');
    assert.equal(await codeOf(processInfo('9-9')), 'pane_not_found');
  });

  it('pane.rename sets, trims and clears the label; pane.list shows it', async () => {
    const label = async () => (await server.call('pane.list', {})).panes.find((p) => p.pane_id === shellPane)?.label;
    const renamed = await server.call('pane.rename', { pane_id: shellPane, label: '  api tests ' });
    assert.equal(renamed.pane.label, 'api tests');
    assert.equal(await label(), 'api tests');
    assert.equal(await codeOf(server.call('pane.rename', { pane_id: shellPane, label: 'x'.repeat(1025) })), 'invalid_request');
    assert.equal(await label(), 'api tests', 'a refused rename changes nothing');
    await server.call('pane.rename', { pane_id: shellPane, label: '   ' });
    assert.equal(await label(), undefined, 'blank clears');
    await server.call('pane.rename', { pane_id: shellPane, label: 'again' });
    await server.call('pane.rename', { pane_id: shellPane, label: null });
    assert.equal(await label(), undefined, 'null clears');
    assert.equal(await codeOf(server.call('pane.rename', { pane_id: '9-9', label: 'x' })), 'pane_not_found');
  });

  it('metadata: tokens per source, newest wins, seq, cleaning, and never a state change', async () => {
    const before = await paneGet(shellPane);
    const report = (params: Omit<MethodInput<'pane.report_metadata'>, 'pane_id'>) =>
      server.call('pane.report_metadata', { pane_id: shellPane, ...params });
    await report({
      source: 'tool:a',
      seq: 10,
      tokens: { branch: 'main', tests: '  4/4\n', note: `x\u0007y ${'z'.repeat(100)}` },
      title: 'Fixing the parser',
      display_agent: 'Bot',
      state_labels: { working: 'busy', done: 'finished' },
    });
    let pane = await paneGet(shellPane);
    assert.deepEqual(pane.tokens, { branch: 'main', tests: '4/4', note: `xy ${'z'.repeat(77)}` });
    assert.equal(pane.display_agent, 'Bot');
    assert.deepEqual(pane.state_labels, { working: 'busy', done: 'finished' });
    assert.equal(pane.title, before.title, 'the reported title never replaces the terminal\'s');
    assert.equal(pane.agent_state, before.agent_state);
    assert.equal(pane.agent_state_since, before.agent_state_since);
    assert.equal(pane.agent, before.agent);

    await report({ source: 'tool:a', seq: 9, tokens: { branch: 'old' } });
    await report({ source: 'tool:a', tokens: { branch: 'no-seq' } });
    assert.equal((await paneGet(shellPane)).tokens?.branch, 'main', 'a lower seq, or none after a seq, is dropped');
    await report({ source: 'tool:a', seq: 1_800_000_000_000_000_200n, tokens: { branch: 'dev' } });
    await report({ source: 'tool:a', seq: 1_800_000_000_000_000_100n, tokens: { branch: 'older' } });
    assert.equal((await paneGet(shellPane)).tokens?.branch, 'dev', 'seqs past 2^53 compared exactly');

    await report({ source: 'tool:b', tokens: { branch: 'feature' }, display_agent: 'Other' });
    pane = await paneGet(shellPane);
    assert.equal(pane.tokens?.branch, 'feature', 'the newer report wins a name');
    assert.equal(pane.display_agent, 'Other');
    await report({ source: 'tool:b', tokens: { branch: null }, clear_display_agent: true });
    pane = await paneGet(shellPane);
    assert.equal(pane.tokens?.branch, 'dev', 'null removes only that source\'s token');
    assert.equal(pane.display_agent, 'Bot');
    await report({ source: 'tool:a', seq: 1_800_000_000_000_000_300n, tokens: { note: null, tests: '' }, clear_state_labels: true, clear_display_agent: true });
    pane = await paneGet(shellPane);
    assert.deepEqual(pane.tokens, { branch: 'dev' });
    assert.equal(pane.state_labels, undefined);
    assert.equal(pane.display_agent, undefined);
    assert.equal(pane.agent_state, before.agent_state);

    await server.call('workspace.report_metadata', { workspace_id: shellWorkspace, source: 'ci', tokens: { build: 'green' } });
    assert.deepEqual((await server.call('workspace.get', { workspace_id: shellWorkspace })).workspace.tokens, { build: 'green' });
    await server.call('workspace.report_metadata', { workspace_id: shellWorkspace, source: 'ci', tokens: { build: null } });
    assert.equal((await server.call('workspace.get', { workspace_id: shellWorkspace })).workspace.tokens, undefined);
  });

  it('metadata: a report with ttl_ms vanishes after it, the rest stays', async () => {
    await server.call('pane.report_metadata', { pane_id: shellPane, source: 'flash', tokens: { flash: 'now' }, ttl_ms: 300 });
    await server.call('workspace.report_metadata', { workspace_id: shellWorkspace, source: 'flash', tokens: { flash: 'now' }, ttl_ms: 300 });
    assert.equal((await paneGet(shellPane)).tokens?.flash, 'now');
    await eventually(async () => (await paneGet(shellPane)).tokens?.flash === undefined, 'the token to vanish', 3000);
    await eventually(async () => (await server.call('workspace.get', { workspace_id: shellWorkspace })).workspace.tokens === undefined, 'the workspace token to vanish', 3000);
    assert.equal((await paneGet(shellPane)).tokens?.branch, 'dev', 'values without ttl stay');
  });

  it('metadata limits: refused with a code, nothing changed', async () => {
    const before = (await paneGet(shellPane)).tokens;
    const codeOfAnswer = async (params: Record<string, unknown>, method = 'pane.report_metadata') => {
      const answer = await server.request(method, method === 'pane.report_metadata' ? { pane_id: shellPane, source: 'lim', ...params } : params);
      return 'error' in answer ? answer.error.code : 'ok';
    };
    const many = (n: number, prefix = 't') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 'v']));
    assert.equal(await codeOfAnswer({ tokens: { 'bad name': 'v' } }), 'invalid_request');
    assert.equal(await codeOfAnswer({ tokens: { ['n'.repeat(33)]: 'v' } }), 'invalid_request');
    assert.equal(await codeOfAnswer({ tokens: many(17) }), 'invalid_request');
    assert.equal(await codeOfAnswer({ source: 'bad source!', tokens: { a: 'v' } }), 'invalid_request');
    assert.equal(await codeOfAnswer({ source: 's'.repeat(81), tokens: { a: 'v' } }), 'invalid_request');
    assert.equal(await codeOfAnswer({ tokens: { a: 'v' }, ttl_ms: 0 }), 'invalid_request');
    assert.equal(await codeOfAnswer({ tokens: { a: 'v' }, ttl_ms: 86_400_001 }), 'invalid_request');
    assert.equal(await codeOfAnswer({ state_labels: { sleeping: 'zz' } }), 'invalid_request');
    assert.deepEqual((await paneGet(shellPane)).tokens, before);

    // 1 token already there (branch) + 16 + 15 = 32: full; one more is refused whole.
    assert.equal(await codeOfAnswer({ source: 'lim1', tokens: many(16, 'a') }), 'ok');
    assert.equal(await codeOfAnswer({ source: 'lim2', tokens: many(15, 'b') }), 'ok');
    const full = (await paneGet(shellPane)).tokens;
    assert.equal(Object.keys(full ?? {}).length, 32);
    assert.equal(await codeOfAnswer({ source: 'lim3', seq: 5, tokens: { c0: 'v', c1: 'v' } }), 'metadata_limit');
    assert.deepEqual((await paneGet(shellPane)).tokens, full, 'nothing changed');
    assert.equal(await codeOfAnswer({ source: 'lim1', tokens: { a1: null } }), 'ok');
    assert.equal(await codeOfAnswer({ source: 'lim3', seq: 5, tokens: { c0: 'v' } }), 'ok', 'room for one; the refused report left no seq behind');
    assert.equal(Object.keys((await paneGet(shellPane)).tokens ?? {}).length, 32);
    assert.equal(await codeOfAnswer({ workspace_id: '9', source: 'x', tokens: {} }, 'workspace.report_metadata'), 'workspace_not_found');
    assert.equal(await codeOfAnswer({ pane_id: '9-9' }), 'pane_not_found');
  });

  it('the CLI: process-info, rename, report-metadata', async () => {
    const herdr = herdrCli(server);
    const { pane: fresh } = await server.call('pane.split', { target_pane_id: shellPane, direction: 'right' });
    const paneId = fresh.pane_id;
    const info = JSON.parse((await herdr('pane', 'process-info', shellPane)).stdout) as { result: { type: string; process_info: ProcessInfo } };
    assert.equal(info.result.type, 'pane_process_info');
    assert.equal(info.result.process_info.shell_pid, (await paneGet(shellPane)).pid);
    assert.equal(JSON.parse((await herdr('pane', 'rename', paneId, 'my', 'pane')).stdout).result.pane.label, 'my pane');
    assert.equal(JSON.parse((await herdr('pane', 'rename', paneId, '--clear')).stdout).result.pane.label, undefined);
    await assert.rejects(herdr('pane', 'rename', paneId), (error: { code: number; stderr: string }) =>
      error.code === 2 && /LABEL or --clear/.test(error.stderr));

    const reported = await herdr('pane', 'report-metadata', paneId, '--source', 'cli', '--token', 'tests=4/4=ok', '--token', 'a0=x',
      '--clear-token', 'branch', '--display-agent', 'Bot', '--state-label', 'blocked=needs you', '--ttl', '600000', '--seq', '1800000000000000000');
    assert.equal(reported.stdout, '');
    const pane = await paneGet(paneId);
    assert.equal(pane.tokens?.tests, '4/4=ok', 'split at the first =');
    assert.equal(pane.tokens?.a0, 'x');
    assert.equal(pane.display_agent, 'Bot');
    assert.deepEqual(pane.state_labels, { blocked: 'needs you' });
    await herdr('workspace', 'report-metadata', shellWorkspace, '--source', 'cli', '--token', 'build=red');
    assert.deepEqual((await server.call('workspace.get', { workspace_id: shellWorkspace })).workspace.tokens, { build: 'red' });

    await assert.rejects(herdr('pane', 'report-metadata', paneId, '--source', 'cli', '--token', 'novalue'), (error: { code: number }) => error.code === 2);
    await assert.rejects(herdr('pane', 'report-metadata', paneId, '--source', 'cli', '--token', 'bad name=v'), (error: { code: number; stderr: string }) =>
      error.code === 1 && JSON.parse(error.stderr).error.code === 'invalid_request');
  });
});
