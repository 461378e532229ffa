/** CPU use of a process group: what a program (and the children it runs in its group) has used, and whether it waits for a core. */
import { readdirSync } from 'node:fs';
import { readProcStat } from './proc-stat.js';

export interface GroupCpu {
  /** Clock ticks (USER_HZ, 100 a second) every live member has used. */
  ticks: number;
  /** A member is running or waiting for a core (state R): a starved program uses little CPU but is not idle. */
  runnable: boolean;
}

/** A scan of /proc, for rare questions. */
export function groupCpu(pgid: number): GroupCpu {
  let ticks = 0;
  let runnable = false;
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 0x39) continue; // not a pid
    const stat = readProcStat(entry);
    if (stat?.processGroup !== pgid) continue;
    ticks += stat.utimeTicks + stat.stimeTicks;
    if (stat.state === 'R') runnable = true;
  }
  return { ticks, runnable };
}
