/**
 * /proc/<pid>/stat (proc(5)), the fields we read. The command name (field 2)
 * may hold spaces and parentheses, so fields are counted after its last ')'.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export interface ProcStat {
  /** Field 3: R, S, Z, … */
  state: string;
  /** Field 4. */
  parentPid: number;
  /** Field 5: the process group it belongs to. */
  processGroup: number;
  /** Field 6: the process session (setsid(2)) it belongs to. */
  processSession: number;
  /** Field 8: the foreground process group of its terminal (0 or -1 without one). */
  tpgid: number;
  /** Fields 14 and 15, in clock ticks (USER_HZ, 100 a second on Linux). */
  utimeTicks: number;
  stimeTicks: number;
  /** Field 19. */
  nice: number;
}

/** The share of one core that `ticks` of CPU time (USER_HZ, 100 a second on Linux) are over `ms` of wall time. */
export function coreShare(ticks: number, ms: number): number {
  return ms <= 0 ? 0 : ticks / 100 / (ms / 1000);
}

export function parseProcStat(text: string): ProcStat {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  return {
    state: fields[0] ?? '',
    parentPid: field(4),
    processGroup: field(5),
    processSession: field(6),
    tpgid: field(8),
    utimeTicks: field(14),
    stimeTicks: field(15),
    nice: field(19),
  };
}

/** Field 2: the command name the kernel keeps (at most 15 bytes), without its parentheses. */
export function procStatName(text: string): string {
  return text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
}

/** One read's room: a stat line, a comm or a command line the checks read is far shorter. */
const scratch = Buffer.allocUnsafe(16 * 1024);

/**
 * A small /proc file as text, or undefined when its process is gone. /proc reports a size of
 * 0, so readFileSync reads it in chunks and joins them: a third of the cost of an idle pane's
 * process check went there. One read into a buffer kept for it instead.
 */
export function readProcText(path: string, encoding: 'latin1' | 'utf8' = 'latin1'): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return scratch.toString(encoding, 0, readSync(fd, scratch, 0, scratch.length, 0));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The stat of a process (or `<pid>/task/<tid>`, a thread), or undefined when it is gone. */
export function readProcStat(pid: number | string): ProcStat | undefined {
  const text = readProcText(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseProcStat(text);
}
