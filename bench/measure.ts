/** Figures from samples and from /proc: percentiles, CPU seconds, resident memory; a bounded pool. */
import { readFileSync, readdirSync } from 'node:fs';
import { parseProcStat } from '../src/os/proc-stat.js';

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * The middle sample, or the mean of the middle two: with 2 repetitions (the
 * 300-pane floods) the nearest-rank p50 was the larger of the two, the worse
 * CPU figure and the better throughput.
 */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/**
 * CPU seconds a process's live threads have run, from each one's
 * /proc/<pid>/task/<tid>/schedstat (nanoseconds on a CPU, as the scheduler
 * counts them). /proc/<pid>/stat counts in 10 ms clock ticks, which an idle
 * server's 20 s window holds a few dozen of: a trivial process waking 3 times
 * a second read 0.23% of a core there and 0.02% here. Threads that already
 * exited are not counted (a server's threads live as long as it does); stat
 * is the fallback where schedstat is missing.
 */
export function cpuSeconds(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return statCpuSeconds(pid);
  }
  let nanoseconds = 0;
  for (const tid of tasks) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ', 1)[0]);
    } catch (error) {
      // A thread that ended since the listing has nothing more to count; no schedstat at all is another matter.
      const { code } = error as NodeJS.ErrnoException;
      if (code !== 'ENOENT' && code !== 'ESRCH') return statCpuSeconds(pid);
    }
  }
  return nanoseconds / 1e9;
}

function statCpuSeconds(pid: number): number {
  const stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  return (stat.utimeTicks + stat.stimeTicks) / 100; // clock ticks of 10 ms
}

/** Resident set size of a process in bytes, from /proc. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/** Runs `task` over `items` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await task(items[index] as T, index);
      }
    }),
  );
}

export const MB = 1024 * 1024;
