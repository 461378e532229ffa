/** Shared pieces of the benchmarks: a server to measure, percentiles, and tmux as the peer. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

export const run = promisify(execFile);

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

export function ms(value: number): string {
  return `${value.toFixed(2)} ms`;
}

/** Resident set size of a process, from /proc. */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

export async function timed<T>(action: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await action();
  return [value, performance.now() - start];
}

/** Runs `tasks` with at most `limit` in flight. */
export async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await task(items[next++] as T);
    }),
  );
}

export async function tmuxAvailable(): Promise<boolean> {
  return run('tmux', ['-V']).then(
    () => true,
    () => false,
  );
}

/** A tmux server on its own socket, the peer the bench compares against. */
export class Tmux {
  constructor(readonly socketName = `herdr-bench-${process.pid}`) {}

  cmd(...args: string[]): Promise<{ stdout: string }> {
    return run('tmux', ['-L', this.socketName, '-f', '/dev/null', ...args], { maxBuffer: 64 * 1024 * 1024 });
  }

  async serverPid(): Promise<number> {
    return Number((await this.cmd('display-message', '-p', '#{pid}')).stdout.trim());
  }

  async kill(): Promise<void> {
    await this.cmd('kill-server').catch(() => undefined);
  }
}
