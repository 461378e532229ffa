/**
 * Remote servers over a real OpenSSH (docs/remote.md): a second herdr server
 * on its own socket stands for the remote host, reached through a real sshd
 * on 127.0.0.1. The CLI with --host and host-qualified ids, the library with
 * `host` (one ssh connection for many requests, a subscription, a wait), and
 * a clear one-line failure when ssh cannot connect. Skipped, saying why,
 * where sshd is not installed.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { HerdrClient } from '../src/client/client.js';
import { childrenNamed } from './helpers/proc.js';
import { CliTerminal } from './helpers/terminal.js';
import { type TestServer, HERDR_BIN, eventually, promptShown, startServer } from './helpers/server.js';
import { type TestSshd, sshdMissing, startSshd } from '../harness/sshd.js';

const run = promisify(execFile);
const missing = sshdMissing();

describe('remote servers over ssh', { skip: missing }, () => {
  let remote: TestServer;
  let sshd: TestSshd;
  const herdr = (...args: string[]) =>
    run(process.execPath, [HERDR_BIN, ...args, '--ssh-command', sshd.sshCommand], { cwd: remote.dir, env: { ...process.env, HERDR_HOST: '' } });

  before(async () => {
    remote = await startServer();
    sshd = await startSshd(remote.socketPath);
  });
  after(async () => {
    sshd?.stop();
    await remote?.stop();
  });

  it('runs CLI commands on the remote host with --host, and takes host-qualified ids back', async () => {
    const created = JSON.parse((await herdr('workspace', 'create', '--host', sshd.host, '--label', 'over-ssh')).stdout) as { result: { workspace: { workspace_id: string } } };
    const workspaceId = created.result.workspace.workspace_id;
    assert.equal((await remote.call('workspace.list', {})).workspaces.at(-1)?.label, 'over-ssh');
    const paneId = `${workspaceId}-1`;
    await promptShown(remote, paneId);
    await herdr('pane', 'run', `${sshd.host}/${paneId}`, 'echo hello-over-ssh');
    const waited = JSON.parse((await herdr('wait', 'output', `${sshd.host}/${paneId}`, '--match', '^hello-over-ssh$', '--regex', '--timeout', '10000')).stdout) as { result: { matched_line: string } };
    assert.equal(waited.result.matched_line, 'hello-over-ssh');
    assert.match((await herdr('pane', 'read', paneId, '--host', sshd.host)).stdout, /^hello-over-ssh$/m);
    const state = herdr('wait', 'agent-state', `${sshd.host}/${paneId}`, '--state', 'blocked', '--timeout', '10000');
    await remote.call('pane.report_agent', { pane_id: paneId, source: 'test', agent: 'mybot', state: 'blocked' });
    assert.match((await state).stdout, /"state":"blocked"/);
  });

  it('serves the library over one ssh connection: calls, a subscription, a wait', async () => {
    const client = new HerdrClient({ host: sshd.host, sshCommand: sshd.sshCommand });
    try {
      const before = (await remote.call('server.stats', {})).connections;
      for (let i = 0; i < 5; i++) assert.equal((await client.ping()).type, 'pong');
      const { workspace } = await client.workspace.create({ label: 'library' });
      // One kept-alive connection carried all six requests (the stats call itself is the other).
      assert.equal((await remote.call('server.stats', {})).connections, before + 1);
      const subscription = await client.subscribe([{ type: 'workspace.created' }]);
      const waited = client.events.wait({ match_event: { event: 'workspace_created' }, timeout_ms: 10_000 });
      await remote.call('workspace.create', { label: 'seen-remotely' });
      assert.equal(((await waited).event.data as { workspace?: { label: string } }).workspace?.label, 'seen-remotely');
      for await (const line of subscription) {
        if (line.event === 'workspace_created') {
          assert.equal(line.data.workspace.label, 'seen-remotely');
          break;
        }
      }
      assert.ok(workspace.stable_id);
    } finally {
      client.close();
    }
  });

  it('lists local and remote panes in one table, with ids that work back', async () => {
    const local = await startServer();
    try {
      await local.call('workspace.create', { label: 'here' });
      const { stdout } = await run(process.execPath, [HERDR_BIN, 'fleet', 'list', '--socket', local.socketPath, '--host', sshd.host, '--ssh-command', sshd.sshCommand]);
      const lines = stdout.trimEnd().split('\n');
      assert.match(lines[0] ?? '', /^HOST +PANE +WORKSPACE +AGENT +STATE/);
      assert.ok(lines.some((line) => /^local +w1:p1 +w1 here /.test(line)), stdout);
      const remoteRow = lines.find((line) => line.startsWith(`${sshd.host} `));
      const qualified = remoteRow?.split(/ +/)[1] ?? '';
      // The table names panes by the stable ids people see, and a command takes them back.
      assert.match(qualified, new RegExp(`^${sshd.host}/w\\d+:p\\d+$`));
      const got = JSON.parse((await herdr('pane', 'get', qualified)).stdout) as { result: { pane: { stable_id: string } } };
      assert.equal(got.result.pane.stable_id, qualified.split('/')[1]);
    } finally {
      await local.stop();
    }
  });

  it('resumes a merged event stream after its ssh connection is killed: nothing lost, nothing twice', async () => {
    const events = spawn(process.execPath, [HERDR_BIN, 'fleet', 'events', '--no-local', '--host', sshd.host, '--ssh-command', sshd.sshCommand]);
    let out = '';
    events.stdout.setEncoding('utf8');
    events.stdout.on('data', (chunk: string) => (out += chunk));
    const labels = () =>
      out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { host: string; event: string; data: { workspace?: { label: string } } })
        .filter((line) => line.event === 'workspace_created' && line.host === sshd.host)
        .map((line) => line.data.workspace?.label ?? '');
    try {
      await eventually(() => childrenNamed(events.pid ?? 0, 'ssh').length === 2, 'the stream and its lists over ssh');
      await remote.call('workspace.create', { label: 'ev-0' });
      await eventually(() => labels().includes('ev-0'), 'the first event');
      for (const ssh of childrenNamed(events.pid ?? 0, 'ssh')) process.kill(ssh, 'SIGKILL');
      // Made while no connection is up: the resumed subscription replays them.
      for (let i = 1; i <= 5; i++) await remote.call('workspace.create', { label: `ev-${i}` });
      await eventually(() => labels().length >= 6, 'the events after the reconnect', 20_000);
      await remote.call('workspace.create', { label: 'ev-6' });
      await eventually(() => labels().includes('ev-6'), 'live again');
      assert.deepEqual(labels(), ['ev-0', 'ev-1', 'ev-2', 'ev-3', 'ev-4', 'ev-5', 'ev-6']);
    } finally {
      events.kill();
    }
  });

  it('watches local and remote servers in one view, and attaches to a remote pane over ssh', async () => {
    const local = await startServer();
    const { workspace } = await remote.call('workspace.create', { label: 'remote-watch' });
    const remotePane = `${workspace.workspace_id}-1`;
    await promptShown(remote, remotePane);
    const terminal = new CliTerminal(['watch', '--socket', local.socketPath, '--host', sshd.host, '--ssh-command', sshd.sshCommand], { cwd: local.dir, cols: 140, rows: 30 });
    try {
      await local.call('workspace.create', { label: 'local-watch' });
      // Both servers' rows first; then End selects the newest remote workspace, the last row (same state, the remote host after the local one).
      await terminal.screenMatches(new RegExp(`^${sshd.host} +${sshd.host}/${workspace.stable_id}:p1 +${workspace.stable_id} remote-watch `, 'm'));
      const screen = await terminal.screenMatches(/^local +w1:p1 +w1 local-watch /m);
      assert.match(screen, / on 2 servers · /);
      assert.match(screen, /^HOST +PANE +WORKSPACE +AGENT +STATE/m);
      terminal.type('\x1b[F\r'); // End, Enter: attach to it, over ssh
      await terminal.screenMatches(/^\$ /m);
      terminal.type('echo attached-over-ssh\r');
      await terminal.screenMatches(/^attached-over-ssh$/m);
      terminal.type('\x1c');
      await terminal.screenMatches(/ on 2 servers · /);
      terminal.type('q');
      assert.equal(await terminal.exited, 0);
      assert.match((await remote.call('pane.read', { pane_id: remotePane, source: 'recent' })).read.text, /^attached-over-ssh$/m);
      assert.doesNotMatch((await local.call('pane.read', { pane_id: '1-1', source: 'recent' })).read.text, /attached-over-ssh/);
    } finally {
      terminal.kill();
      await local.stop();
    }
  });

  it('shows a host that cannot be reached without holding up the others', async () => {
    const local = await startServer();
    try {
      await local.call('workspace.create', { label: 'still-here' });
      const started = Date.now();
      await assert.rejects(
        run(process.execPath, [HERDR_BIN, 'fleet', 'list', '--socket', local.socketPath, '--host', sshd.refusedHost, '--ssh-command', sshd.sshCommand]),
        (error: { code: number; stdout: string; stderr: string }) => {
          assert.equal(error.code, 1);
          assert.match(error.stdout, /^local +w1:p1 +w1 still-here /m);
          assert.match(error.stderr, /^herdr: herdr-refused: unreachable \(cannot reach herdr-refused over ssh: .*\)$/m);
          return true;
        },
      );
      assert.ok(Date.now() - started < 10_000);
    } finally {
      await local.stop();
    }
  });

  it('says in one line when ssh cannot connect, and exits 1', async () => {
    await assert.rejects(herdr('workspace', 'list', '--host', sshd.refusedHost), (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /^herdr: cannot reach herdr-refused over ssh: .*(refused|connect)/i);
      assert.equal(error.stderr.trim().split('\n').length, 1, error.stderr);
      return true;
    });
    const client = new HerdrClient({ host: sshd.refusedHost, sshCommand: sshd.sshCommand });
    await assert.rejects(client.ping(), /cannot reach herdr-refused over ssh/);
    client.close();
  });
});
