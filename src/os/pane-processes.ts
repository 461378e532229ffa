/**
 * Ending a pane's processes, from whichever thread has to: its shard when the
 * pane is closed or the server stops, main when the shard itself is dead
 * (crashed, out of memory, hung) and cannot.
 *
 * A pane's shell leads a process session of its own (node-pty calls setsid). Ending it
 * is what closing a terminal does, extended to the background jobs a shell
 * such as dash leaves in process groups of their own: SIGHUP to every process
 * of the process session now, then SIGKILL to the shell's process group after a grace.
 * A job that chose to outlive its terminal (nohup, or a SIGHUP trap, outside
 * the foreground group) is left alone, as a terminal would; one that left the
 * process session (setsid, daemons) is not ours.
 *
 * For a dead shard this matters beyond tidiness: node-pty reaps each child on
 * a thread of the shard's own, and the shard's thread cannot finish exiting
 * (nor close its PTY masters) until those children are gone.
 */
import { readdirSync } from 'node:fs';
import { readProcStat } from './proc-stat.js';

/** How long a pane's processes get after SIGHUP before SIGKILL. */
export const KILL_GRACE_MS = 2000;

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

/** Hang up now, kill after the grace: for panes whose shard can no longer do it. */
export function endPaneProcesses(leaders: readonly number[]): void {
  if (leaders.length === 0) return;
  hangUpPanes(leaders);
  setTimeout(() => killPanes(leaders), KILL_GRACE_MS);
}
