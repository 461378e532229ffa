/**
 * The server's life: SIGTERM and SIGINT end every pane process (the jobs a
 * shell left in the background and programs that ignore the hangup too) and
 * remove the socket; after `kill -9` the next server takes over the stale
 * socket; a thousand create/close cycles leave fds, threads and memory where
 * they started. (A second server on a live path is refused: transport.test.ts.)
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { type TestServer, eventually, inspect, newWorkspace, promptShown, readUntil, startServer } from './helpers/server.js';
import { fdCount, processSessionMembers, processesRunning, rssBytes, threadCount } from './helpers/proc.js';
import { readProcStat } from '../src/os/proc-stat.js';

/** Panes whose processes a plain SIGHUP would not all end: a trap, a background job, a busy program. */
async function stubbornPanes(server: TestServer): Promise<number[]> {
  await newWorkspace(server, { command: ['/bin/sh', '-c', "trap '' HUP; sleep 600"] });
  const { paneId } = await newWorkspace(server);
  await promptShown(server, paneId);
  await server.call('pane.send_input', { pane_id: paneId, text: 'sleep 600 & echo started' });
  await readUntil(server, paneId, (t) => /^started$/m.test(t));
  await newWorkspace(server, { command: ['yes'] });
  const { panes } = await server.call('pane.list', {});
  return panes.map((p) => p.pid ?? 0);
}

describe('lifecycle', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} ends every pane process and removes the socket`, async () => {
      const server = await startServer();
      try {
        const sessions = await stubbornPanes(server);
        assert.ok(processSessionMembers(sessions).length >= 5);
        server.child.kill(signal);
        assert.equal(await server.waitExit(), 0);
        assert.equal(existsSync(server.socketPath), false, 'the socket is removed');
        await eventually(() => processSessionMembers(sessions).length === 0, `every pane process to end (${processSessionMembers(sessions).join(', ')} left)`, 5000);
      } finally {
        await server.stop();
      }
    });
  }

  /** Starts a daemon from a new pane's shell: `sleep <seconds>` in a session of its own (setsid -f), as an agent CLI's daemon leaves its pane's. */
  async function paneWithDaemon(server: TestServer, seconds: number): Promise<{ paneId: string; shell: number; daemon: number }> {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    await server.call('pane.send_input', { pane_id: paneId, text: `setsid -f sleep ${seconds}; echo started` });
    await readUntil(server, paneId, (t) => /^started$/m.test(t));
    const daemon = await eventually(() => processesRunning(['sleep', String(seconds)])[0], `the daemon sleep ${seconds}`);
    const { pane } = await server.call('pane.get', { pane_id: paneId });
    const shell = pane.pid ?? 0;
    // It left the pane's session: ending the session alone would leave it running.
    assert.notEqual(readProcStat(daemon)?.processSession, shell);
    // The stable id: compact ids renumber when another workspace closes.
    return { paneId: pane.stable_id ?? paneId, shell, daemon };
  }

  it('nothing outlives its pane: a daemon that left the pane\'s session ends when the pane closes, not one of another pane', async () => {
    const server = await startServer();
    try {
      const closed = await paneWithDaemon(server, 1001);
      const kept = await paneWithDaemon(server, 1002);
      await server.call('pane.close', { pane_id: closed.paneId });
      await eventually(() => processesRunning(['sleep', '1001']).length === 0, 'the closed pane\'s daemon to end', 5000);
      // The same kind of daemon of the pane left open still runs (and the check above could fail).
      assert.deepEqual(processesRunning(['sleep', '1002']), [kept.daemon]);
      // Its shell exiting ends it too.
      await server.call('pane.send_input', { pane_id: kept.paneId, text: 'exit' });
      await eventually(() => processesRunning(['sleep', '1002']).length === 0, 'the daemon of the pane whose shell exited to end', 5000);
    } finally {
      await server.stop();
    }
  });

  it('nothing outlives its pane: stopping the server ends the daemons its panes started', async () => {
    const server = await startServer();
    try {
      await paneWithDaemon(server, 1003);
      await paneWithDaemon(server, 1004);
      await server.call('server.stop', {});
      await server.waitExit();
      await eventually(() => processesRunning(['sleep', '1003']).length + processesRunning(['sleep', '1004']).length === 0, 'every daemon to end', 5000);
    } finally {
      await server.stop();
    }
  });

  it('after kill -9 the next server on the same path takes over the stale socket; the old panes are hung up', async () => {
    const first = await startServer();
    const { paneId } = await newWorkspace(first);
    await promptShown(first, paneId);
    const { pane } = await first.call('pane.get', { pane_id: paneId });
    first.child.kill('SIGKILL');
    await first.waitExit();
    assert.ok(existsSync(first.socketPath), 'the stale socket is left behind');
    // The kernel closed the dead server's PTY masters: its shells got SIGHUP.
    await eventually(() => processSessionMembers([pane.pid ?? 0]).length === 0, 'the old shell to end');
    const second = await startServer({ socketPath: first.socketPath });
    try {
      const { paneId: fresh } = await newWorkspace(second);
      await promptShown(second, fresh);
      assert.equal((await second.call('server.stats', {})).panes, 1);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('1 000 create/close cycles of workspaces and panes leave fds, threads and memory where they started', { timeout: 300_000 }, async (t) => {
    const server = await startServer({ workers: 2, env: { HERDR_DEBUG_FAULTS: '1' } });
    try {
      const base = await newWorkspace(server, { command: ['/bin/cat'] });
      const baseStable = (await server.call('pane.get', { pane_id: base.paneId })).pane.stable_id ?? '';
      /** 500 workspaces and 500 split panes, four clients at a time; then waits until the shards let them go. */
      const cycles = async (): Promise<number> => {
        const started = Date.now();
        await Promise.all(
          Array.from({ length: 4 }, async (_, client) => {
            for (let i = 0; i < 125; i++) {
              // Stable ids: the other clients' closes renumber the compact ones meanwhile.
              const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: ['/bin/cat'], label: `cycle ${client}.${i}` });
              await server.call('workspace.close', { workspace_id: workspace.stable_id ?? '' });
              const { pane } = await server.call('pane.split', { target_pane_id: baseStable, direction: i % 2 === 0 ? 'right' : 'down', command: ['/bin/cat'] });
              await server.call('pane.close', { pane_id: pane.stable_id ?? '' });
            }
          }),
        );
        await eventually(async () => {
          const stats = await server.call('server.stats', {});
          return stats.panes === 1 && stats.shards.reduce((n, s) => n + s.panes, 0) === 1;
        }, 'the closed panes to be gone from their shards', 20_000);
        return (Date.now() - started) / 1000;
      };
      const fds = fdCount(server.pid);
      const threads = threadCount(server.pid);
      // The first thousand also grow what V8 and the allocator keep once grown (the 4 096 retained
      // events, compiled code), which RSS never gives back; the second thousand must add nothing.
      // `inspect` collects every thread's garbage first, and the shards give the freed pages back.
      const seconds = [await cycles()];
      const first = { ...(await inspect(server)), rss: rssBytes(server.pid) };
      seconds.push(await cycles());
      await eventually(() => fdCount(server.pid) <= fds, `fds back to ${fds} (now ${fdCount(server.pid)})`, 20_000);
      await eventually(() => threadCount(server.pid) <= threads, `threads back to ${threads} (now ${threadCount(server.pid)})`, 20_000);
      const second = { ...(await inspect(server)), rss: rssBytes(server.pid) };
      const megabytes = (bytes: number): number => Math.round(bytes / 1e6);
      const shardHeaps = (at: typeof first): string => at.shards.map((shard) => megabytes(shard.heap_used_bytes)).join(' + ');
      t.diagnostic(`2 × 1000 cycles in ${seconds.map((s) => s.toFixed(1)).join(' + ')} s; after GC, main heap ${megabytes(first.heap_used_bytes)} → ${megabytes(second.heap_used_bytes)} MB, shard heaps ${shardHeaps(first)} → ${shardHeaps(second)} MB; RSS ${megabytes(first.rss)} → ${megabytes(second.rss)} MB; fds ${fds}, threads ${threads}`);
      assert.ok(second.heap_used_bytes - first.heap_used_bytes < 8 * 1024 * 1024, `the second thousand left ${megabytes(second.heap_used_bytes - first.heap_used_bytes)} MB more on main's heap`);
      for (const shard of second.shards) {
        const before = first.shards.find(({ shard_id }) => shard_id === shard.shard_id)?.heap_used_bytes ?? 0;
        assert.ok(shard.heap_used_bytes - before < 8 * 1024 * 1024, `the second thousand left ${megabytes(shard.heap_used_bytes - before)} MB more on shard ${shard.shard_id}'s heap`);
      }
      assert.ok(second.rss - first.rss < 40 * 1024 * 1024, `the second thousand grew RSS ${megabytes(second.rss - first.rss)} MB more`);
    } finally {
      await server.stop();
    }
  });
});
