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

const MARK_ASSIGNMENT = `${PANE_MARK_ENV}=`;

/** Whether a process's environment (NUL-separated, as /proc gives it) assigns PANE_MARK_ENV one of `marks`. */
function carriesMark(environ: string, marks: ReadonlySet<string>): boolean {
  for (let at = environ.indexOf(MARK_ASSIGNMENT); at >= 0; at = environ.indexOf(MARK_ASSIGNMENT, at + 1)) {
    if (at > 0 && environ.charCodeAt(at - 1) !== 0) continue; // the text inside another variable
    const start = at + MARK_ASSIGNMENT.length;
    const end = environ.indexOf('\0', start);
    if (marks.has(environ.slice(start, end < 0 ? undefined : end))) return true;
  }
  return false;
}

/** Every live process whose environment carries one of `marks` (PANE_MARK_ENV's values): one pass, any number of marks. */
function markedProcesses(marks: ReadonlySet<string>): number[] {
  if (marks.size === 0) return [];
  const marked: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 0x39) continue; // not a pid
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue; // gone, or another user's
    }
    if (carriesMark(environ, marks)) marked.push(Number(entry));
  }
  return marked;
}

/**
 * Ends what carries the panes' marks: SIGTERM now (the caller hung up their sessions; a
 * daemon that left one ignores a hangup), SIGKILL after the grace to whatever still
 * carries them.
 */
function endMarkedProcesses(marks: readonly string[]): void {
  const wanted = new Set(marks.filter((mark) => mark !== ''));
  if (wanted.size === 0) return;
  for (const pid of markedProcesses(wanted)) if (pid !== process.pid) signal(pid, 'SIGTERM');
  setTimeout(() => {
    for (const pid of markedProcesses(wanted)) if (pid !== process.pid) signal(pid, 'SIGKILL');
  }, KILL_GRACE_MS).unref();
}

/** SIGHUP to each pane's process session, at once (one /proc scan for all of them). */
function hangUpPanes(leaders: readonly number[]): void {
  if (leaders.length === 0) return;
  for (const pid of leaders) {
    signal(-pid, 'SIGHUP');
    signal(pid, 'SIGHUP');
  }
  for (const pid of processSessionMembers(new Set(leaders))) signal(pid, 'SIGHUP');
}

/** The panes whose ends wait for the end of this turn of the event loop (endPaneSoon); a batch is due while it has a leader. */
const ending = { leaders: new Set<number>(), marks: new Set<string>() };

/**
 * Hangs up a pane's process session and ends what carries its mark, together with every
 * other pane that ends in this turn of the event loop: each end walks all of /proc three
 * times, so 300 panes closed one by one would walk it 900 times (ARCHITECTURE.md, "Panes
 * that end together share their /proc scans").
 */
export function endPaneSoon(leader: number, mark: string): void {
  const batchScheduled = ending.leaders.size > 0;
  ending.leaders.add(leader);
  if (mark !== '') ending.marks.add(mark);
  if (batchScheduled) return;
  setImmediate(() => {
    const leaders = [...ending.leaders];
    const marks = [...ending.marks];
    ending.leaders.clear();
    ending.marks.clear();
    hangUpPanes(leaders);
    endMarkedProcesses(marks);
  });
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
