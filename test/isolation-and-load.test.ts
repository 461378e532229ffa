/** Security and load: no pane can reach another pane's terminal; a flood slows only its own pane. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fdTargets, niceOf, threadNices } from './helpers/proc.js';
import { eventually, readUntil, startServer } from './helpers/server.js';

describe('isolation', () => {
  it("a pane's processes hold no PTY master and no other pane's terminal", async () => {
    const server = await startServer({ workers: 2 });
    try {
      for (let i = 0; i < 4; i++) {
        await server.call('workspace.create', { cwd: server.dir });
        await server.call('pane.split', { target_pane_id: `${i + 1}-1`, direction: 'right', command: ['/bin/sh', '-c', 'sleep 600'] });
      }
      const { panes } = await server.call('pane.list', {});
      assert.equal(panes.length, 8);
      const terminals = new Set<string>();
      for (const pane of panes) {
        // Between fork and exec the child is still node-pty's helper code; judge the program itself.
        await eventually(() => readlinkSync(`/proc/${pane.pid}/exe`) !== process.execPath, `pane ${pane.pane_id} to exec`);
        const targets = [...fdTargets(pane.pid ?? 0).values()];
        assert.ok(!targets.includes('/dev/ptmx'), `pane ${pane.pane_id} holds a PTY master: ${targets.join(', ')}`);
        const ttys = new Set(targets.filter((t) => t.startsWith('/dev/pts/')));
        assert.equal(ttys.size, 1, `pane ${pane.pane_id} has exactly its own terminal: ${[...ttys].join(', ')}`);
        terminals.add([...ttys][0] ?? '');
      }
      assert.equal(terminals.size, 8, 'every pane has a terminal of its own');
    } finally {
      await server.stop();
    }
  });
});

describe('load', () => {
  for (const workers of [2, 1]) {
    it(`yes flooding one pane leaves ping and pane.read on another answering (${workers} shard${workers > 1 ? 's' : ''})`, async () => {
      const server = await startServer({ workers });
      try {
        await server.call('workspace.create', { cwd: server.dir, command: ['yes', 'flooding the pane with a line of text'] });
        await server.call('pane.split', { target_pane_id: '1-1', direction: 'right' });
        await server.call('workspace.create', { cwd: server.dir });
        const flooded = async () => (await server.call('server.stats', {})).shards.reduce((n, s) => n + s.bytes_parsed, 0);
        const start = await flooded();
        for (const pane of ['1-2', '2-1']) {
          for (let i = 0; i < 5; i++) {
            assert.equal((await server.call('ping', {})).type, 'pong');
            await server.call('pane.send_input', { pane_id: pane, text: `echo marker-${i}` });
            await readUntil(server, pane, (t) => new RegExp(`^(?:\\$ )?marker-${i}$`, "m").test(t));
          }
        }
        const end = await flooded();
        assert.ok(end > start + 100_000, `the flood kept flowing meanwhile (${start} → ${end})`);
        const { read } = await server.call('pane.read', { pane_id: '1-1', source: 'recent', lines: 3 });
        assert.match(read.text, /^flooding the pane with a line of text$/m);
      } finally {
        await server.stop();
      }
    });
  }

  it('a fast producer loses no output (flow control slows it instead)', async () => {
    const server = await startServer();
    try {
      await server.call('workspace.create', { cwd: server.dir, command: ['/bin/sh', '-c', 'seq 1 200000; exec sleep 600'] });
      await readUntil(server, '1-1', (t) => /^200000$/m.test(t), { lines: 3 }, 60_000);
      const { read } = await server.call('pane.read', { pane_id: '1-1', source: 'recent', lines: 10_000 });
      const rows = read.text.trimEnd().split('\n');
      assert.equal(rows.length, 10_000);
      rows.forEach((row, i) => assert.equal(row, String(190_001 + i)));
      const stats = await server.call('server.stats', {});
      const expectedBytes = Array.from({ length: 6 }, (_, d) => d + 1).reduce(
        (sum, digits) => sum + (Math.min(200_000, 10 ** digits - 1) - 10 ** (digits - 1) + 1) * (digits + 2),
        0,
      );
      await eventually(
        async () => (await server.call('server.stats', {})).shards.reduce((n, s) => n + s.bytes_parsed, 0) >= expectedBytes,
        'every byte to be parsed',
      );
      assert.ok(stats.panes === 1);
    } finally {
      await server.stop();
    }
  });

  for (const [args, nice] of [[[], 10], [['--shard-nice', '0'], 0]] as const) {
    it(`shard threads and their panes run at nice ${nice}, the main thread at 0 (${args.join(' ') || 'default'})`, async () => {
      const server = await startServer({ workers: 2, serverArgs: [...args] });
      try {
        await server.call('workspace.create', { cwd: server.dir, command: ['/bin/sh', '-c', 'sleep 600'] });
        await server.call('workspace.create', { cwd: server.dir, command: ['/bin/sh', '-c', 'sleep 600'] });
        const threads = threadNices(server.pid);
        assert.equal(threads.get(server.pid), 0, 'the main thread, which answers every client, keeps nice 0');
        assert.equal([...threads.values()].filter((n) => n === nice).length >= 2, true, `two shard threads at nice ${nice}: ${[...threads.values()].join(' ')}`);
        for (const pane of (await server.call('pane.list', {})).panes) {
          assert.equal(niceOf(pane.pid ?? 0), nice, `pane ${pane.pane_id}'s process`);
          // Where the kernel schedules by session, the pane's session has the value too.
          if (existsSync('/proc/self/autogroup')) assert.match(readFileSync(`/proc/${pane.pid}/autogroup`, 'utf8'), new RegExp(` nice ${nice}\n`));
        }
      } finally {
        await server.stop();
      }
    });
  }
});
