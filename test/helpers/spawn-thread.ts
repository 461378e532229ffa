/**
 * A worker thread that starts `count` pane programs with node-pty as a shard does, as fast as it
 * can, and posts back each one's pid and the index of the terminal its PTY master holds
 * (pty-spawn-threads.test.ts).
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import pty from 'node-pty';

export interface Spawned {
  pid: number;
  /** The N of /dev/pts/N that the master this thread reads belongs to. */
  masterIndex: number;
}

const { count } = workerData as { count: number };
const spawned: Spawned[] = [];
for (let i = 0; i < count; i++) {
  const term = pty.spawn('/bin/sleep', ['60'], { cols: 80, rows: 24, cwd: '/', env: { PATH: '/usr/bin:/bin' }, encoding: null });
  const fd = (term as unknown as { _fd: number })._fd;
  const index = /^tty-index:\s*(\d+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
  spawned.push({ pid: term.pid, masterIndex: Number(index ?? -1) });
}
parentPort?.postMessage(spawned);
// The masters stay open until the test has looked; it then kills the programs and ends the thread.
setInterval(() => undefined, 60_000);
