/**
 * Ending a pane's processes, from whichever thread has to: its shard when the
 * pane is closed or the server stops, main when the shard itself is dead
 * (crashed, out of memory, hung) and cannot.
 *
 * A pane's shell leads a process session of its own (node-pty calls setsid). Ending it
 * is what closing a terminal does, extended to the background jobs a shell
 * such as dash leaves in process groups of their own: SIGHUP to every process
 * of the process session now, then SIGKILL to the shell's process group after a grace.
 * Nothing the pane started outlives it: every process started in a pane inherits the
 * pane's mark (PANE_MARK_ENV, a random value per pane), which a program that left the
 * session keeps — a daemon an agent CLI starts (codex's `app-server`), a setsid or nohup
 * job. Those get SIGTERM at once (a daemon's way to stop; they ignore a hangup) and SIGKILL
 * after the grace. Found by the mark in /proc/<pid>/environ: a process's own environment
 * as it was at its exec, which no descendant can lose but by clearing its environment.
 *
 * For a dead shard this matters beyond tidiness: node-pty reaps each child on
 * a thread of the shard's own, and the shard's thread cannot finish exiting
 * (nor close its PTY masters) until those children are gone.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { readProcStat } from './proc-stat.js';

/** How long a pane's processes get after SIGHUP before SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** The environment variable that marks every process started from a pane (its value is the pane's alone). */
export const PANE_MARK_ENV = 'HERDR_PANE_INSTANCE';

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // already gone
  }
}

/** Every live process whose process session is one of `sessions`. */
function processSessionMembers(sessions: ReadonlySet<number>): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 0x39) continue; // not a pid
    const session = readProcStat(entry)?.processSession;
    if (session !== undefined && sessions.has(session)) members.push(Number(entry));
  }
  return members;
}

/** Every live process whose environment carries one of `marks` (PANE_MARK_ENV's values). */
function markedProcesses(marks: ReadonlySet<string>): number[] {
  if (marks.size === 0) return [];
  const needles = [...marks].map((mark) => `${PANE_MARK_ENV}=${mark}\0`);
  const marked: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 0x39) continue; // not a pid
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue; // gone, or another user's
    }
    if (needles.some((needle) => environ.startsWith(needle) || environ.includes(`\0${needle}`))) marked.push(Number(entry));
  }
  return marked;
}

/**
 * Ends what carries the panes' marks: SIGTERM now (the caller hung up their sessions; a
 * daemon that left one ignores a hangup), SIGKILL after the grace to whatever still
 * carries them.
 */
export function endMarkedProcesses(marks: readonly string[]): void {
  const wanted = new Set(marks.filter((mark) => mark !== ''));
  if (wanted.size === 0) return;
  for (const pid of markedProcesses(wanted)) if (pid !== process.pid) signal(pid, 'SIGTERM');
  setTimeout(() => {
    for (const pid of markedProcesses(wanted)) if (pid !== process.pid) signal(pid, 'SIGKILL');
  }, KILL_GRACE_MS).unref();
}

/** SIGHUP to each pane's process session, at once (one /proc scan for all of them). */
export function hangUpPanes(leaders: readonly number[]): void {
  if (leaders.length === 0) return;
  for (const pid of leaders) {
    signal(-pid, 'SIGHUP');
    signal(pid, 'SIGHUP');
  }
  for (const pid of processSessionMembers(new Set(leaders))) signal(pid, 'SIGHUP');
}

/** SIGKILL to what is left of each pane's foreground: its shell and the shell's process group. */
export function killPanes(leaders: readonly number[]): void {
  for (const pid of leaders) {
    signal(-pid, 'SIGKILL');
    signal(pid, 'SIGKILL');
  }
}

/** Hang up now, kill after the grace, and end what carries their marks: for panes whose shard can no longer do it. */
export function endPaneProcesses(leaders: readonly number[], marks: readonly string[]): void {
  if (leaders.length > 0) {
    hangUpPanes(leaders);
    setTimeout(() => killPanes(leaders), KILL_GRACE_MS);
  }
  endMarkedProcesses(marks);
}
