/**
 * Memory and list latency at fleet size (issue #2): 300 idle panes, 50 of them
 * then filled with 10 000 lines of 120 columns; server RSS per idle and per full
 * pane, and pane.list latency. tmux, given the same panes and history limit in
 * the same run, is the peer.
 */
import { HerdrConnection, call } from '../src/cli/client.js';
import { eventually, sleep, startServer } from '../test/helpers/server.js';
import { Tmux, mb, ms, percentile, pool, rssOf, timed, tmuxAvailable } from './support.js';

const PANES = 300;
const FULL_PANES = 50;
const LINES = 10_000;
/** Prints LINES lines of exactly 120 characters. */
const FILL = `seq -f '%0120.0f' 1 ${LINES}`;
const LAST_LINE = String(LINES).padStart(120, '0');
const LIST_SAMPLES = 200;

async function settle(pid: number): Promise<number> {
  await sleep(3000);
  return rssOf(pid);
}

export async function panesBench(): Promise<void> {
  console.log(`\n## ${PANES} panes, ${FULL_PANES} filled with ${LINES} lines of 120 columns`);
  const server = await startServer({ shell: '/bin/sh' });
  const pid = server.child.pid ?? 0;
  try {
    const base = await settle(pid);
    const workspaces = Array.from({ length: PANES / 3 }, (_, i) => i);
    const [, createMs] = await timed(() =>
      pool(workspaces, 4, async () => {
        const { workspace } = await server.call('workspace.create', { cwd: server.dir });
        const { pane } = await server.call('pane.get', { pane_id: `${workspace.workspace_id}-1` });
        await server.call('pane.split', { target_pane_id: pane.stable_id, direction: 'right' });
        await server.call('pane.split', { target_pane_id: pane.stable_id, direction: 'down' });
      }),
    );
    const { panes } = await server.call('pane.list', {});
    console.log(`created ${panes.length} panes in ${ms(createMs)} (${ms(createMs / panes.length)} each, 4 clients)`);
    const idle = await settle(pid);

    const connection = await HerdrConnection.open(server.socketPath);
    const full = panes.slice(0, FULL_PANES);
    const [, fillMs] = await timed(async () => {
      await Promise.all(full.map((p) => connection.call('pane.send_input', { pane_id: p.stable_id, text: FILL })));
      await pool(full, 4, (p) =>
        eventually(async () => {
          const { read } = await connection.call('pane.read', { pane_id: p.stable_id, source: 'recent', lines: 3 });
          return read.text.includes(LAST_LINE);
        }, `pane ${p.pane_id} to fill`, 600_000).then(() => undefined),
      );
    });
    const filled = await settle(pid);
    const stats = await connection.call('server.stats', {});
    // Latency last, so the garbage of 400 list responses is not counted as pane memory.
    const keepAlive: number[] = [];
    const oneShot: number[] = [];
    for (let i = 0; i < LIST_SAMPLES; i++) {
      keepAlive.push((await timed(() => connection.call('pane.list', {})))[1]);
      oneShot.push((await timed(() => call('pane.list', {}, { socketPath: server.socketPath })))[1]);
    }

    connection.close();

    console.log('herdr:');
    console.log(`  RSS at start ${mb(base)}, with ${PANES} idle panes ${mb(idle)}, with ${FULL_PANES} full ${mb(filled)}`);
    console.log(`  RSS per idle pane           ${mb((idle - base) / PANES)}   (budget 0.6 MB)`);
    console.log(`  RSS per full pane           ${mb((filled - idle) / FULL_PANES)}   (budget 3 MB)`);
    const shardHeap = stats.shards.reduce((n, s) => n + s.heap_used_bytes, 0);
    console.log(`  heap in use: main ${mb(stats.heap_used_bytes)}, shards ${mb(shardHeap)}`);
    console.log(`  filled ${FULL_PANES} panes in ${ms(fillMs)}; ${mb(stats.shards.reduce((n, s) => n + s.bytes_parsed, 0))} parsed`);
    console.log(`  pane.list at ${PANES} panes, keep-alive  p50 ${ms(percentile(keepAlive, 50))}  p99 ${ms(percentile(keepAlive, 99))}`);
    console.log(`  pane.list at ${PANES} panes, one-shot    p50 ${ms(percentile(oneShot, 50))}  p99 ${ms(percentile(oneShot, 99))}   (budget p50 5 ms at 500)`);
  } finally {
    await server.stop();
  }
  await tmuxPeer();
}

async function tmuxPeer(): Promise<void> {
  if (!(await tmuxAvailable())) {
    console.log('tmux: not installed (apt-get install tmux) — no peer figures');
    return;
  }
  const tmux = new Tmux();
  try {
    await tmux.cmd('-f', '/dev/null', 'start-server', ';', 'set', '-g', 'history-limit', String(LINES), ';',
      'new-session', '-d', '-s', 'bench', '-x', '120', '-y', '40', '/bin/sh');
    const pid = await tmux.serverPid();
    const base = await settle(pid);
    for (let i = 1; i < PANES; i++) await tmux.cmd('new-window', '-d', '-t', 'bench', '/bin/sh');
    const idle = await settle(pid);
    const list: number[] = [];
    for (let i = 0; i < 50; i++) list.push((await timed(() => tmux.cmd('list-panes', '-a')))[1]);
    const windows = (await tmux.cmd('list-windows', '-t', 'bench', '-F', '#{window_index}')).stdout.trim().split('\n');
    for (const w of windows.slice(0, FULL_PANES)) await tmux.cmd('send-keys', '-t', `bench:${w}`, FILL, 'Enter');
    await pool(windows.slice(0, FULL_PANES), 4, (w) =>
      eventually(async () => (await tmux.cmd('capture-pane', '-p', '-t', `bench:${w}`)).stdout.includes(LAST_LINE),
        `tmux window ${w} to fill`, 600_000).then(() => undefined),
    );
    const filled = await settle(pid);
    console.log('tmux (same run, same shells, history-limit 10000):');
    console.log(`  RSS per idle pane           ${mb((idle - base) / (PANES - 1))}`);
    console.log(`  RSS per full pane           ${mb((filled - idle) / FULL_PANES)}`);
    console.log(`  list-panes -a (incl. client process start) p50 ${ms(percentile(list, 50))}`);
  } finally {
    await tmux.kill();
  }
}
