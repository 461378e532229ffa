/**
 * The flood's parse floor (parse-floor-child.ts) driven from the bench: a
 * child process holding every pane's parsing pipeline, started with the
 * hosts and kept for their floods, so its first run is cold and the later
 * ones warm, like a shard's. Each run is timed and priced like a host's
 * flood: the child's own CPU while it parses.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { BenchEnvironment } from '../environment.js';
import type { FloodRun } from './ceiling.js';
import { type PerPane, perPane } from './host.js';

const CHILD = fileURLToPath(new URL('./parse-floor-child.js', import.meta.url));
const QUIT_GRACE_MS = 3000;

export class ParseFloor {
  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, null>,
    private readonly next: (prefix: string) => Promise<string>,
  ) {}

  /** `panes` panes' pipelines in `threads` threads (one per core, as herdr's default shards), pane i to parse `input(i)`. */
  static async start(environment: BenchEnvironment, panes: number, input: PerPane, threads = availableParallelism()): Promise<ParseFloor> {
    const inputOf = perPane(input);
    const files = Array.from({ length: panes }, (_, i) => inputOf(i));
    const child = spawn(process.execPath, [CHILD, JSON.stringify(files), String(threads)], {
      cwd: environment.dir,
      env: environment.env,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    // A child that died is said by its exit; a write to its closed stdin must not take the bench down.
    child.stdin.on('error', () => undefined);
    const lines = createInterface({ input: child.stdout });
    const next = (prefix: string) =>
      new Promise<string>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the parse floor exited (${code})`));
        const onLine = (line: string) => {
          if (!line.startsWith(prefix)) return;
          lines.off('line', onLine);
          child.off('exit', onExit);
          resolve(line);
        };
        lines.on('line', onLine);
        child.once('exit', onExit);
      });
    const floor = new ParseFloor(child, next);
    try {
      await next('ready');
    } catch (error) {
      await floor.stop();
      throw error;
    }
    return floor;
  }

  /** Every pane parses its whole input once; from `go` until every thread is done. */
  async flood(): Promise<FloodRun & { bytes: number }> {
    const start = performance.now();
    const done = this.next('done ');
    this.child.stdin.write('go\n');
    const [, bytes = '0', cpuMicros = '0'] = (await done).split(' ');
    return { seconds: (performance.now() - start) / 1000, cpuSeconds: Number(cpuMicros) / 1e6, bytes: Number(bytes) };
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end('quit\n');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), QUIT_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
