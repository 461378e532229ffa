/**
 * Sessions survive a restart (docs/persistence.md), each case a real server
 * restarted over the same state directory: the layout, labels, focus, stable
 * ids, directories, commands and history come back; `kill -9` in the middle
 * of writes leaves a session that restores; a corrupt, truncated or
 * future-version file is moved aside and the server starts empty;
 * --no-restore; --resume-agents and previous_agent_session; two sockets keep
 * two sessions; a directory that is gone falls back to $HOME.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Packr } from 'msgpackr';
import { sessionPaths } from '../src/main/persistence/state-dir.js';
import { EventClient } from './helpers/events.js';
import { type StartOptions, type TestServer, eventually, promptShown, readUntil, sleep, startServer, tempDir } from './helpers/server.js';

const MARKER = /^── restored from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d.*──$/m;

/** A server on a socket and state directory that outlive it, started again at will. */
class Restartable {
  readonly root = tempDir('herdr-persist-');
  readonly stateDir = join(this.root, 'state');
  readonly socketPath = join(this.root, 'herdr.sock');
  server: TestServer | undefined;

  async start(options: StartOptions = {}): Promise<TestServer> {
    this.server = await startServer({ stateDir: this.stateDir, socketPath: this.socketPath, ...options });
    return this.server;
  }

  /** Waits for a snapshot written after now. */
  async snapshotted(): Promise<void> {
    const server = this.need();
    const since = Date.now();
    await eventually(async () => {
      const { last_snapshot: last } = await server.call('server.stats', {});
      return last !== undefined && Date.now() - last.ms_ago > since;
    }, 'a snapshot', 10_000);
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
  }

  kill9(): Promise<unknown> {
    const server = this.need();
    server.child.kill('SIGKILL');
    return server.waitExit();
  }

  get sessionFile(): string {
    return sessionPaths(this.stateDir, this.socketPath).session;
  }

  /** What the session holds of the first pane's screen (base64), or undefined before the pane is in it. */
  savedScreen(): string | undefined {
    try {
      const session = new Packr({ useRecords: false }).unpack(readFileSync(this.sessionFile)) as { workspaces: Array<{ panes: Array<{ screen?: Uint8Array }> }> };
      const screen = session.workspaces[0]?.panes[0]?.screen;
      return screen ? Buffer.from(screen).toString('base64') : undefined;
    } catch {
      return undefined; // between the write and the rename
    }
  }

  /** The first pane's states the session took, sampled every 200 ms until `done`. */
  async savedScreensUntil(done: () => Promise<boolean>): Promise<Set<string>> {
    const screens = new Set<string>();
    while (!(await done())) {
      const screen = this.savedScreen();
      if (screen) screens.add(screen);
      await sleep(200);
    }
    return screens;
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  private need(): TestServer {
    if (!this.server) throw new Error('not started');
    return this.server;
  }
}

async function fleet(server: TestServer) {
  const { workspaces } = await server.call('workspace.list', {});
  const { panes } = await server.call('pane.list', {});
  return {
    workspaces: workspaces.map((w) => ({ id: w.workspace_id, stable: w.stable_id, label: w.label, focused: w.focused, panes: w.pane_count })),
    panes: panes.map((p) => ({ id: p.pane_id, stable: p.stable_id, cwd: p.cwd, focused: p.focused, cols: p.cols, rows: p.rows })),
  };
}

describe('session snapshot and restore', () => {
  it('brings back workspaces, splits, labels, focus, stable ids, directories, commands and history', async () => {
    const run = new Restartable();
    const dirA = join(run.root, 'project-a');
    const dirB = join(run.root, 'project-b');
    mkdirSync(dirA);
    mkdirSync(dirB);
    try {
      const server = await run.start();
      await server.call('workspace.create', { cwd: dirA, label: 'alpha' });
      await promptShown(server, '1-1');
      await server.call('pane.send_input', { pane_id: '1-1', text: 'for i in $(seq 1 2500); do echo old-line-$i; done' });
      await readUntil(server, '1-1', (text) => /^old-line-2500$/m.test(text));
      await server.call('pane.split', { target_pane_id: '1-1', direction: 'right', command: ['/bin/sh', '-c', 'echo "command says $GREETING"; exec sleep 1000'], env: { GREETING: 'hello' }, cols: 60, rows: 20 });
      await server.call('pane.split', { target_pane_id: '1-1', direction: 'down', cwd: dirB });
      await server.call('workspace.create', { cwd: dirB, label: 'beta', focus: true });
      await server.call('workspace.create', { cwd: dirA });
      await server.call('workspace.focus', { workspace_id: '2' });
      await readUntil(server, '1-2', (text) => text.includes('command says hello'));
      await run.snapshotted();
      const before = await fleet(server);
      await run.stop();

      const again = await run.start();
      assert.match(again.stderr, /restored 3 workspaces and 5 panes from /);
      assert.deepEqual(await fleet(again), before);
      const { panes } = await again.call('pane.list', { workspace_id: '1' });
      assert.deepEqual(panes.map((p) => p.pane_id), ['1-1', '1-3', '1-2'], 'layout order: the down split sits under 1-1, the right split after');

      const old = await readUntil(again, '1-1', (text) => MARKER.test(text), { lines: 5000 });
      const rows = old.split('\n');
      const marker = rows.findIndex((row) => MARKER.test(row));
      assert.ok(rows.indexOf('old-line-1') >= 0 && rows.indexOf('old-line-1') < rows.indexOf('old-line-2500'), 'the old history, in order');
      assert.ok(rows.indexOf('old-line-2500') < marker, 'above the marker');
      assert.equal(rows.filter((row) => row.startsWith('old-line-')).length, 2500);
      // The command pane runs its command again, with its environment.
      await readUntil(again, '1-2', (text) => text.split('\n').filter((row) => row === 'command says hello').length === 2);

      // New work gets new stable ids, never a restored one's.
      const { workspace } = await again.call('workspace.create', { cwd: dirA });
      assert.equal(workspace.stable_id, 'w4');
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('brings back tabs: each with its label, layout and focus, the active one, and HERDR_TAB_ID in its panes', async () => {
    const run = new Restartable();
    try {
      const server = await run.start();
      const { workspace } = await server.call('workspace.create', { cwd: run.root, focus: true });
      const ws = workspace.stable_id;
      const logs = await server.call('tab.create', { workspace_id: ws, cwd: run.root, label: 'logs' });
      await server.call('pane.split', { target_pane_id: logs.root_pane.stable_id, direction: 'down', cwd: run.root });
      const tests = await server.call('tab.create', { workspace_id: ws, cwd: run.root, label: 'tests', focus: true });
      await server.call('tab.close', { tab_id: `${ws}:t1` });
      await run.snapshotted();
      const tabsOf = async (s: TestServer) => (await s.call('tab.list', { workspace_id: ws })).tabs.map((tab) => ({ ...tab, agent_status: undefined }));
      const before = await tabsOf(server);
      const layoutBefore = (await server.call('layout.export', { tab_id: logs.tab.tab_id })).layout;
      await run.stop();

      const again = await run.start();
      assert.deepEqual(await tabsOf(again), before);
      assert.deepEqual(before.map((tab) => [tab.tab_id, tab.label, tab.focused]), [[logs.tab.tab_id, 'logs', false], [tests.tab.tab_id, 'tests', true]]);
      const layoutAfter = (await again.call('layout.export', { tab_id: logs.tab.tab_id })).layout;
      assert.deepEqual({ ...layoutAfter, root: undefined }, { ...layoutBefore, root: undefined });
      assert.equal(layoutAfter.root.type, 'split');
      const made = await again.call('tab.create', { workspace_id: ws, cwd: run.root });
      assert.equal(made.tab.tab_id, `${ws}:t4`, 'tab ids are not reused after a restart');
      const pane = tests.root_pane.stable_id;
      await promptShown(again, pane);
      await again.call('pane.send_input', { pane_id: pane, text: 'echo "tab=$HERDR_TAB_ID"', keys: ['Enter'] });
      await readUntil(again, pane, (text) => text.includes(`tab=${tests.tab.tab_id}`));
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('survives kill -9 in the middle of writes, again and again', async (t) => {
    const run = new Restartable();
    try {
      let expected = 0;
      for (let round = 0; round < 5; round++) {
        const server = await run.start();
        assert.doesNotMatch(server.stderr, /cannot be restored/);
        const { workspaces } = await server.call('workspace.list', {});
        assert.ok(workspaces.length >= expected, `round ${round}: ${workspaces.length} workspaces, at least ${expected} expected`);
        // A pane printing without pause keeps the snapshots coming.
        await server.call('workspace.create', { cwd: run.root, label: `round-${round}`, command: ['/bin/sh', '-c', 'while :; do seq 1 2000; done'] });
        await run.snapshotted();
        expected = workspaces.length + 1;
        await sleep(200 + round * 277);
        await run.kill9();
        t.diagnostic(`round ${round}: killed with ${expected} workspaces saved`);
      }
      const last = await run.start();
      const { workspaces } = await last.call('workspace.list', {});
      assert.deepEqual(workspaces.map((w) => w.label), ['round-0', 'round-1', 'round-2', 'round-3', 'round-4']);
      assert.equal(readdirSync(join(run.sessionFile, '..')).filter((name) => name.includes('.tmp-')).length <= 1, true, 'no pile of temporary files');
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('a flooding shard stores its blocks uncompressed, a quiet round compresses them, and the history restores exactly', async () => {
    const run = new Restartable();
    try {
      const server = await run.start({ workers: 1 });
      // What the session names: the pane's history blocks as they are on disk now.
      const blockBytes = () => {
        try {
          const session = new Packr({ useRecords: false }).unpack(readFileSync(run.sessionFile)) as { workspaces: Array<{ panes: Array<{ history?: { blocks: Array<{ length: number }> } }> }> };
          return session.workspaces.flatMap((w) => w.panes).flatMap((p) => p.history?.blocks ?? []).reduce((sum, block) => sum + block.length, 0);
        } catch {
          return 0;
        }
      };
      // 8 MB of numbered 120-column lines: more than a busy round's 2 MB, and 10 000 rows kept (once: the restored pane runs its command again).
      const { workspace } = await server.call('workspace.create', { cwd: run.root, command: ['/bin/sh', '-c', "[ -e flooded ] || { seq -f '%0120.0f' 1 70000; : > flooded; }; echo flood-end; exec sleep 600"] });
      const pane = `${workspace.workspace_id}-1`;
      await readUntil(server, pane, (text) => text.includes('flood-end'), {}, 60_000);
      // Raw, the ~9 700 rows in full blocks take about 1.2 MB; compressed, numbered lines take a small part of that.
      await eventually(async () => blockBytes() > 0 && blockBytes() < 400_000, 'the blocks compressed', 20_000);
      await run.stop();
      const again = await run.start({ workers: 1 });
      const { read } = await again.call('pane.read', { pane_id: pane, source: 'recent', lines: 10_000 });
      const numbers = read.text.split('\n').filter((line) => /^\d{120}$/.test(line)).map(Number);
      assert.ok(numbers.length > 9_000, `${numbers.length} numbered rows restored`);
      assert.equal(numbers.at(-1), 70_000);
      for (let i = 1; i < numbers.length; i++) if (numbers[i] !== (numbers[i - 1] ?? 0) + 1) assert.fail(`row ${i}: ${numbers[i]} after ${numbers[i - 1]}`);
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('a flooding pane goes to the session at most every 5 s, is written within 5 s of stopping, and restores after kill -9', async () => {
    const run = new Restartable();
    try {
      const server = await run.start({ workers: 1 });
      // ~1 MB/s for 8 s (far above the 64 KB/s that makes a pane flooding), numbered lines to check the restore by.
      const flood = "[ -e flooded ] || { i=0; while [ $i -lt 80 ]; do seq -f '%0120.0f' $((i*800+1)) $((i*800+800)); i=$((i+1)); sleep 0.1; done; : > flooded; }; echo flood-end; exec sleep 600";
      const { workspace } = await server.call('workspace.create', { cwd: run.root, command: ['/bin/sh', '-c', flood] });
      const pane = `${workspace.workspace_id}-1`;
      const screens = await run.savedScreensUntil(async () => (await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text.includes('flood-end'));
      // 8 s of flooding: written at its start and every 5 s after, not every second.
      assert.ok(screens.size >= 1 && screens.size <= 3, `the session took ${screens.size} states of the flooding pane`);
      await sleep(6_000);
      await run.kill9();
      const again = await run.start({ workers: 1 });
      const { read } = await again.call('pane.read', { pane_id: pane, source: 'recent', lines: 10_000 });
      const numbers = read.text.split('\n').filter((line) => /^\d{120}$/.test(line)).map(Number);
      assert.equal(numbers.at(-1), 64_000, 'the last line of the flood was saved');
      for (let i = 1; i < numbers.length; i++) if (numbers[i] !== (numbers[i - 1] ?? 0) + 1) assert.fail(`row ${i}: ${numbers[i]} after ${numbers[i - 1]}`);
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  for (const damage of ['corrupt', 'truncated', 'future version'] as const) {
    it(`moves a ${damage} session aside, says so in one line and starts empty`, async () => {
      const run = new Restartable();
      try {
        const server = await run.start();
        await server.call('workspace.create', { cwd: run.root, label: 'kept' });
        await run.snapshotted();
        await run.stop();
        const good = readFileSync(run.sessionFile);
        if (damage === 'corrupt') writeFileSync(run.sessionFile, Buffer.from('this is not a session at all \x00\xff'));
        else if (damage === 'truncated') writeFileSync(run.sessionFile, good.subarray(0, Math.floor(good.length / 2)));
        else writeFileSync(run.sessionFile, new Packr({ useRecords: false }).pack({ ...new Packr({ useRecords: false }).unpack(good), version: 99 }));

        const again = await run.start();
        const lines = again.stderr.split('\n').filter((line) => line.includes('cannot be restored'));
        assert.equal(lines.length, 1, again.stderr);
        assert.match(lines[0] ?? '', damage === 'future version' ? /newer herdr \(session version 99/ : /truncated or corrupt|not a herdr session/);
        assert.deepEqual((await again.call('workspace.list', {})).workspaces, []);
        const aside = readdirSync(join(run.sessionFile, '..')).filter((name) => name.startsWith('session.msgpack.bad-'));
        assert.equal(aside.length, 1, 'the damaged file is kept aside');
        await again.call('ping', {});
      } finally {
        await run.stop();
        run.dispose();
      }
    });
  }

  it('a working agent\'s spinner goes to the session at most every 5 s, its last screen within 5 s, output after a quiet spell within 2 s', async () => {
    const run = new Restartable();
    try {
      const server = await run.start({ workers: 1 });
      // A status line redrawn ten times a second for 8 s, as a CLI at work draws it (~40 bytes a frame,
      // above the 256 bytes a second that make a pane one that keeps printing); then 7 s quiet, then a line.
      const spinner = "i=0; while [ $i -lt 80 ]; do printf '\\r\\033[36m* Working (%d)\\033[0m esc to interrupt ' $i; i=$((i+1)); sleep 0.1; done; echo; echo spin-end; sleep 7; echo later; exec sleep 600";
      const { workspace } = await server.call('workspace.create', { cwd: run.root, command: ['/bin/sh', '-c', spinner] });
      const pane = `${workspace.workspace_id}-1`;
      const visible = async () => (await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text;
      const screens = await run.savedScreensUntil(async () => (await visible()).includes('spin-end'));
      assert.ok(screens.size >= 1 && screens.size <= 3, `the session took ${screens.size} states of the spinning pane in 8 s`);
      const whileSpinning = run.savedScreen();
      await eventually(() => run.savedScreen() !== whileSpinning, 'the screen after the spinner in the session', 6_500);
      const beforeLater = run.savedScreen();
      while (!(await visible()).includes('later')) await sleep(50);
      const printedAt = Date.now();
      await eventually(() => run.savedScreen() !== beforeLater, 'the line after a quiet spell in the session', 5_000);
      const took = Date.now() - printedAt;
      assert.ok(took <= 2_500, `the line after a quiet spell reached the session after ${took} ms`);
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('--no-restore starts empty and keeps the old session aside; the state is private', async () => {
    const run = new Restartable();
    try {
      const server = await run.start();
      await server.call('workspace.create', { cwd: run.root, label: 'old' });
      await run.snapshotted();
      await run.stop();
      const fresh = await run.start({ serverArgs: ['--no-restore'] });
      assert.match(fresh.stderr, /--no-restore: the previous session is kept at .*session\.msgpack\.aside-/);
      assert.deepEqual((await fresh.call('workspace.list', {})).workspaces, []);
      await fresh.call('workspace.create', { cwd: run.root, label: 'new' });
      await run.snapshotted();
      assert.equal(statSync(run.stateDir).mode & 0o777, 0o700);
      assert.equal(statSync(join(run.sessionFile, '..')).mode & 0o777, 0o700);
      assert.equal(statSync(run.sessionFile).mode & 0o777, 0o600);
      await run.stop();
      const next = await run.start();
      assert.deepEqual((await next.call('workspace.list', {})).workspaces.map((w) => w.label), ['new']);
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('resumes agents with --resume-agents, and otherwise tells previous_agent_session', async () => {
    const run = new Restartable();
    const bin = join(run.root, 'bin');
    const record = join(run.root, 'claude-args');
    mkdirSync(bin);
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\necho "$@" >> '${record}'\necho fake claude resumed\nexec sleep 1000\n`);
    chmodSync(join(bin, 'claude'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH}` };
    try {
      const server = await run.start({ env });
      await server.call('workspace.create', { cwd: run.root });
      await server.call('pane.report_agent', { pane_id: '1-1', source: 'claude-hook', agent: 'claude', state: 'idle', agent_session_id: 'sess-42' });
      await server.call('workspace.create', { cwd: run.root });
      await eventually(async () => (await server.call('pane.get', { pane_id: '1-1' })).pane.agent_session?.id === 'sess-42', 'the session');
      await run.snapshotted();
      await run.stop();

      const plain = await run.start({ env });
      const { pane } = await plain.call('pane.get', { pane_id: '1-1' });
      assert.deepEqual(pane.previous_agent_session, { agent: 'claude', id: 'sess-42' });
      assert.equal((await plain.call('pane.get', { pane_id: '2-1' })).pane.previous_agent_session, undefined);
      await run.stop();

      const resuming = await run.start({ env, serverArgs: ['--resume-agents'] });
      await readUntil(resuming, '1-1', (text) => text.includes('fake claude resumed'));
      assert.equal(readFileSync(record, 'utf8'), '--resume sess-42\n');
      assert.match((await resuming.call('pane.read', { pane_id: '1-1', source: 'recent' })).read.text, /── restored from .*; resumed: claude --resume sess-42 ──/);
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('keeps two sockets\' sessions apart, falls back to $HOME for a directory that is gone, and tells server.restored', async () => {
    const first = new Restartable();
    const second = new Restartable();
    const gone = join(first.root, 'gone');
    mkdirSync(gone);
    try {
      const shared = { stateDir: first.stateDir };
      const a = await startServer({ ...shared, socketPath: first.socketPath });
      first.server = a;
      const b = await startServer({ ...shared, socketPath: second.socketPath });
      second.server = b;
      await a.call('workspace.create', { cwd: gone, label: 'from-a' });
      await b.call('workspace.create', { cwd: first.root, label: 'from-b' });
      await first.snapshotted();
      await second.snapshotted();
      await first.stop();
      await second.stop();
      rmSync(gone, { recursive: true });

      const a2 = await startServer({ ...shared, socketPath: first.socketPath, env: { HOME: first.root } });
      first.server = a2;
      const b2 = await startServer({ ...shared, socketPath: second.socketPath });
      second.server = b2;
      assert.deepEqual((await a2.call('workspace.list', {})).workspaces.map((w) => w.label), ['from-a']);
      assert.deepEqual((await b2.call('workspace.list', {})).workspaces.map((w) => w.label), ['from-b']);
      assert.equal((await a2.call('pane.get', { pane_id: '1-1' })).pane.cwd, first.root);
      await readUntil(a2, '1-1', (text) => text.includes(`${gone} is gone: started in ${first.root}`));

      const events = await EventClient.subscribe(a2.socketPath, { subscriptions: [{ type: 'server.restored' }] });
      const [restored] = await events.until((lines) => lines.length > 0, 'server.restored');
      assert.deepEqual({ event: restored?.event, data: restored?.data }, { event: 'server.restored', data: { workspaces: 1, panes: 1 } });
      events.close();
    } finally {
      await first.stop();
      await second.stop();
      first.dispose();
      second.dispose();
    }
  });
});
