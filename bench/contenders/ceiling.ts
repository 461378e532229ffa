/** The raw PTY ceiling (ceiling-reader.ts) driven from the bench: one flood, timed like the hosts'. */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchEnvironment } from '../environment.js';
import { cpuSeconds } from '../measure.js';

const READER = fileURLToPath(new URL('./ceiling-reader.js', import.meta.url));

export interface FloodRun {
  seconds: number;
  cpuSeconds: number;
}

/** `panes` shells each `cat` `input`; from the moment they are typed until every stream showed the end mark. */
export async function ceilingFlood(environment: BenchEnvironment, panes: number, input: string): Promise<FloodRun> {
  const child = spawn(process.execPath, [READER, String(panes), input, String(availableParallelism())], {
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
    const pid = child.pid ?? 0;
    const cpuBefore = cpuSeconds(pid);
    const start = performance.now();
    child.stdin.write('go\n');
    await next('done');
    const seconds = (performance.now() - start) / 1000;
    return { seconds, cpuSeconds: cpuSeconds(pid) - cpuBefore };
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
