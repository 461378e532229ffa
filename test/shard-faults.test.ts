/**
 * A shard that crashes, exits, runs out of memory or hangs costs only its own
 * workspaces: the others keep working, the lost panes are reported, their
 * processes end, nothing of theirs stays open, and a fresh shard takes new
 * work. Faults are injected with the test-only debug methods (docs/testing.md).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShardFault } from '../src/protocol/thread.js';
import { EventClient } from './helpers/events.js';
import { type TestServer, codeOf, eventually, newWorkspace, promptShown, readUntil, startServer } from './helpers/server.js';
import { fdCount, running, threadCount } from './helpers/proc.js';

const STALL_MS = 2000;
const FAULT_SERVER = {
  workers: 2,
  env: { HERDR_DEBUG_FAULTS: '1' },
  serverArgs: ['--shard-timeout', String(STALL_MS), '--shard-heap-mb', '128'],
};

type ErrorAnswer = { error?: { code: string; message: string } };

/** The pid a pane's shell printed for `$!` after starting `sleep 600 &`. */
async function backgroundJob(server: TestServer, paneId: string): Promise<number> {
  await promptShown(server, paneId);
  await server.call('pane.send_input', { pane_id: paneId, text: 'sleep 600 & echo "bg=$!"' });
  const text = await readUntil(server, paneId, (t) => /^bg=\d+$/m.test(t));
  return Number(/^bg=(\d+)$/m.exec(text)?.[1]);
}

const FAULTS: Array<[ShardFault, string]> = [
  ['throw', 'throws an uncaught exception'],
  ['exit', 'exits'],
  ['oom', 'runs out of memory'],
  ['hang', 'stops answering (a stuck event loop)'],
];

describe('shard faults', () => {
  for (const [fault, what] of FAULTS) {
    it(`a shard that ${what}: its panes are reported gone and their processes ended, the other shard's panes go on, a fresh shard takes new work`, async () => {
      const server = await startServer(FAULT_SERVER);
      try {
        const bystander = await newWorkspace(server);
        await promptShown(server, bystander.paneId);
        const fdsBefore = fdCount(server.pid);
        const threadsBefore = threadCount(server.pid);

        // The victim: a program that ignores the hangup, and a shell with a job in a process group of its own.
        const victim = await newWorkspace(server, { command: ['/bin/sh', '-c', "trap '' HUP; sleep 600 & wait"] });
        const { pane: shellPane } = await server.call('pane.split', { target_pane_id: victim.paneId, direction: 'right' });
        const job = await backgroundJob(server, shellPane.pane_id);
        const { panes } = await server.call('pane.list', { workspace_id: victim.workspaceId });
        const victimPids = [...panes.map((p) => p.pid ?? 0), job];
        const shardsBefore = (await server.call('server.stats', {})).shards;
        assert.deepEqual(shardsBefore.map((s) => s.panes).sort(), [1, 2], 'the two workspaces are on different shards');
        const events = await EventClient.subscribe(server.socketPath, {
          subscriptions: [{ type: 'pane.exited' }, { type: 'pane.closed' }, { type: 'workspace.closed' }],
        });

        const answer = (await server.request('debug.shard_fault', { pane_id: victim.paneId, fault })) as { result?: { shard_id: number } };
        const deadShard = answer.result?.shard_id;
        assert.ok(deadShard, `the fault was accepted: ${JSON.stringify(answer)}`);
        // A request to the failed shard is answered (an error), not left hanging. The fault strikes a
        // moment after its ack, so ask until a request fails, timing every answer.
        let slowest = 0;
        await eventually(async () => {
          const asked = Date.now();
          const code = await codeOf(server.call('pane.read', { pane_id: victim.paneId, source: 'visible' }));
          slowest = Math.max(slowest, Date.now() - asked);
          return code !== 'ok';
        }, 'a request to the failed shard to fail', STALL_MS + 5000);
        assert.ok(slowest < STALL_MS + 3000, `answered in ${slowest} ms at the slowest`);

        await events.until(
          (lines) => lines.filter((e) => e.event === 'pane_closed').length === 2 && lines.some((e) => e.event === 'workspace_closed'),
          'the lost panes and workspace to be reported',
          STALL_MS + 5000,
        );
        assert.deepEqual(events.names(), ['pane_exited', 'pane_closed', 'pane_exited', 'pane_closed', 'workspace_closed']);
        assert.deepEqual(events.events.at(-1)?.data, { type: 'workspace_closed', workspace_id: victim.workspaceId });
        events.close();

        // The other shard's workspace never noticed.
        await server.call('pane.send_input', { pane_id: bystander.paneId, text: 'echo still-here' });
        await readUntil(server, bystander.paneId, (t) => /^still-here$/m.test(t));

        await eventually(() => victimPids.every((pid) => !running(pid)), `the lost panes' processes to end (${victimPids.join(', ')})`);
        await eventually(() => fdCount(server.pid) <= fdsBefore, `the server's fds back to ${fdsBefore} (now ${fdCount(server.pid)})`);
        await eventually(() => threadCount(server.pid) <= threadsBefore, `the server's threads back to ${threadsBefore} (now ${threadCount(server.pid)})`);

        const stats = await server.call('server.stats', {});
        assert.equal(stats.shard_deaths, 1);
        assert.equal(stats.last_shard_death?.shard_id, deadShard);
        assert.equal(stats.shard_restarts_pending, 0);
        assert.equal(stats.shards.length, 2);
        assert.ok(!stats.shards.some((s) => s.shard_id === deadShard));
        assert.deepEqual(stats.panes, 1);

        const fresh = await newWorkspace(server);
        await promptShown(server, fresh.paneId);
        const freshShards = (await server.call('server.stats', {})).shards;
        assert.deepEqual(freshShards.map((s) => s.panes).sort(), [1, 1], 'the new workspace went to the fresh shard');
        assert.equal(server.running, true);
      } finally {
        await server.stop();
      }
    });
  }

  it('deaths in a row are limited: past three a minute each restart waits, and says so', async () => {
    const server = await startServer({ ...FAULT_SERVER, workers: 1 });
    try {
      for (let death = 1; death <= 4; death++) {
        const { paneId } = await newWorkspace(server);
        await server.request('debug.shard_fault', { pane_id: paneId, fault: 'throw' });
        await eventually(async () => (await server.call('server.stats', {})).shard_deaths === death, `death ${death}`);
      }
      const stats = await server.call('server.stats', {});
      assert.equal(stats.shard_restarts_pending, 1);
      assert.equal(stats.shards.length, 0);
      const refused = (await server.request('workspace.create', { cwd: server.dir })) as ErrorAnswer;
      assert.equal(refused.error?.code, 'workspace_create_failed');
      assert.match(refused.error?.message ?? '', /no shard is running: 4 shard deaths in the last minute/);
      // The backoff ends and the server is whole again.
      await eventually(async () => (await server.call('server.stats', {})).shards.length === 1, 'the delayed restart', 5000);
      const { paneId } = await newWorkspace(server);
      await promptShown(server, paneId);
    } finally {
      await server.stop();
    }
  });

  it('an uncaught exception or unhandled rejection on the main thread is logged; the server goes on', async () => {
    const server = await startServer(FAULT_SERVER);
    try {
      for (const fault of ['throw', 'reject']) {
        const answer = (await server.request('debug.main_fault', { fault })) as { result?: unknown };
        assert.deepEqual(answer.result, { type: 'ok' });
      }
      await eventually(() => /unhandled rejection \(the server goes on\)/.test(server.stderr) && /uncaught exception \(the server goes on\)/.test(server.stderr), 'both to be logged');
      assert.equal((await server.call('ping', {})).type, 'pong');
      const { paneId } = await newWorkspace(server);
      await promptShown(server, paneId);
    } finally {
      await server.stop();
    }
  });

  it('the fault methods do not exist unless HERDR_DEBUG_FAULTS=1', async () => {
    const server = await startServer();
    try {
      const { paneId } = await newWorkspace(server);
      for (const [method, params] of [['debug.shard_fault', { pane_id: paneId, fault: 'exit' }], ['debug.main_fault', { fault: 'throw' }]] as const) {
        const answer = (await server.request(method, params)) as ErrorAnswer;
        assert.equal(answer.error?.code, 'invalid_request');
        assert.match(answer.error?.message ?? '', /unknown method/);
      }
      assert.equal((await server.call('server.stats', {})).shard_deaths, 0);
    } finally {
      await server.stop();
    }
  });
});
