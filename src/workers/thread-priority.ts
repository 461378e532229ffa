/**
 * A shard's thread runs at a lower priority than the main thread (nice is per
 * thread on Linux). Under contention the thread that answers every client
 * (ping, pane.get, reads, events) is then scheduled before parsing, which
 * only loses what it would have lost to the main thread anyway: the main
 * thread is idle most of the time. Measured in ARCHITECTURE.md ("Priorities").
 *
 * What a shard spawns inherits its niceness: pane processes run at the same
 * nice value, and an unprivileged process cannot lower it again. Where the
 * kernel schedules by process session (autogroup, the default on most desktops) a
 * process's nice value only orders it within its process session, and each pane leads
 * one of its own: the pane's process session is given the same nice value, so
 * the panes rank below the server on those kernels too.
 */
import { readlinkSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Lowers the calling thread's priority to `nice` (1–19; 0 leaves it); false where that is not possible. */
export function lowerThreadPriority(nice: number): boolean {
  if (nice <= 0) return false;
  try {
    // /proc/thread-self → "<pid>/task/<tid>"; setpriority on a tid changes that thread only.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/** Gives the process session that `sessionLeader` leads the nice value `nice` where the kernel groups by process session (0 leaves it). */
export function lowerProcessSessionPriority(sessionLeader: number, nice: number): boolean {
  if (nice <= 0) return false;
  try {
    writeFileSync(`/proc/${sessionLeader}/autogroup`, String(nice));
    return true;
  } catch {
    return false; // no autogroup in this kernel, or the process is gone
  }
}
