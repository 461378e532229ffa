/** The raw PTY ceiling (ceiling-reader.ts) driven from the bench: one flood timed like the hosts', or a load that runs while something else is measured. */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchEnvironment } from '../environment.js';
import { cpuSeconds } from '../measure.js';
import { type PerPane, perPane } from './host.js';

const READER = fileURLToPath(new URL('./ceiling-reader.js', import.meta.url));

export interface FloodRun {
  seconds: number;
  cpuSeconds: number;
}

/** The reader with `panes` shells at their prompt, ready to type `command`; quit however `use` ends. */
async function withReader<T>(
  environment: BenchEnvironment,
  panes: number,
  command: (index: number) => string,
  use: (reader: { child: ChildProcessByStdio<Writable, Readable, null>; next(prefix: string): Promise<string> }) => Promise<T>,
): Promise<T> {
  const child = spawn(process.execPath, [READER, JSON.stringify(Array.from({ length: panes }, (_, i) => command(i))), String(availableParallelism())], {
    cwd: environment.dir,
    env: environment.env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const onLine = (line: string) => {
        if (!line.startsWith(prefix)) return;
        lines.off('line', onLine);
        resolve(line);
      };
      lines.on('line', onLine);
      child.once('exit', (code) => reject(new Error(`the ceiling reader exited (${code})`)));
    });
  try {
    await next('ready');
    return await use({ child, next });
  } finally {
    child.stdin.write('quit\n');
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(undefined);
      }, 3000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });
  }
}

/** `panes` shells each `cat` their input (pane i `input(i)`); from the moment they are typed until every stream showed the end mark. */
export function ceilingFlood(environment: BenchEnvironment, panes: number, input: PerPane): Promise<FloodRun> {
  const inputOf = perPane(input);
  return withReader(environment, panes, (index) => `cat ${inputOf(index)}`, async ({ child, next }) => {
    const pid = child.pid ?? 0;
    const cpuBefore = cpuSeconds(pid);
    const start = performance.now();
    child.stdin.write('go\n');
    await next('done');
    const seconds = (performance.now() - start) / 1000;
    return { seconds, cpuSeconds: cpuSeconds(pid) - cpuBefore };
  });
}

/** `panes` shells of the ceiling reader run `command` (output without end) while `use` runs: the load the hosts' floods put on the machine, without a host. */
export function underCeilingLoad<T>(environment: BenchEnvironment, panes: number, command: string, settleMs: number, use: () => Promise<T>): Promise<T> {
  return withReader(environment, panes, () => command, async ({ child }) => {
    child.stdin.write('go\n');
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    return use();
  });
}
