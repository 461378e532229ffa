/** What the tests read of the server's and the panes' processes from /proc: fds, threads, memory, process sessions. */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { readProcStat } from '../../src/os/proc-stat.js';

export const fdCount = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;
export const threadCount = (pid: number): number => readdirSync(`/proc/${pid}/task`).length;

/** Each open fd of a process and what it points at (`/dev/pts/3`, `socket:[123]`, …). */
export function fdTargets(pid: number): Map<string, string> {
  const targets = new Map<string, string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      targets.set(fd, readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // closed meanwhile
    }
  }
  return targets;
}

export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/** The nice value of a process, or of each of its threads by thread id. */
export function niceOf(pid: number): number | undefined {
  return readProcStat(pid)?.nice;
}

export function threadNices(pid: number): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const found = readProcStat(`${pid}/task/${tid}`);
    if (found) nices.set(Number(tid), found.nice);
  }
  return nices;
}

/** A process that exists and is not a zombie waiting to be reaped. */
export function running(pid: number): boolean {
  const found = readProcStat(pid);
  return found !== undefined && found.state !== 'Z';
}

/** Live (not zombie) processes whose process session is one of `sessions` (a pane's shell leads its own). */
export function processSessionMembers(sessions: readonly number[]): number[] {
  const wanted = new Set(sessions);
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    const found = readProcStat(entry);
    return found && found.state !== 'Z' && wanted.has(found.processSession) ? [Number(entry)] : [];
  });
}

/** Pids of `pid`'s children whose program is `name` (from /proc/<pid>/stat). */
export function childrenNamed(pid: number, name: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && comm === name) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Live processes whose command line is exactly `argv` (a test's own marker, such as `sleep 1001`). */
export function processesRunning(argv: readonly string[]): number[] {
  const want = `${argv.join('\0')}\0`;
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8') === want && running(Number(entry)) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}
