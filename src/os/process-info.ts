/**
 * What runs in a pane, read from /proc (proc(5)) without blocking the thread
 * that asks: the shell, its terminal's foreground process group, and each
 * process of that group with its argv and directory (docs/protocol.md §5,
 * `pane.process_info`).
 *
 * The group's members are found among the shell's descendants, walked through
 * /proc/<pid>/task/<tid>/children (one small read a thread) where the kernel
 * has that file (CONFIG_PROC_CHILDREN), else through one scan of /proc. A
 * foreground job's processes are the shell's children (a pipeline's too), so
 * this finds them without reading every process on the machine. The group's
 * leader is looked up directly as well, in case it was reparented away.
 *
 * Processes come and go while this reads: one that is gone before its stat is
 * read is left out, never an error.
 */
import { access, readFile, readdir, readlink } from 'node:fs/promises';
import { type ProcStat, parseProcStat, procStatName } from './proc-stat.js';

export interface ProcessDetails {
  pid: number;
  /** The kernel's command name (stat field 2, at most 15 bytes). */
  name: string;
  /** The process's argv (/proc/<pid>/cmdline); absent when unreadable or empty (a zombie). */
  argv: string[] | undefined;
  /** Its current directory; absent when unreadable. */
  cwd: string | undefined;
}

export interface PaneProcesses {
  shellPid: number;
  /** The shell's own argv; absent once it is gone. */
  shellArgv: string[] | undefined;
  /** The foreground process group of the shell's terminal; absent when the shell is gone or has no terminal. */
  foregroundGroup: number | undefined;
  /** The terminal the shell reads (its fd 0), e.g. /dev/pts/3. */
  tty: string | undefined;
  /** Every live process of the foreground group, by pid. */
  foreground: ProcessDetails[];
}

/** A bound on the descendants walked: a fork bomb in a pane must not make this read forever. */
const MAX_DESCENDANTS = 4096;

interface ReadStat {
  pid: number;
  stat: ProcStat;
  name: string;
}

async function readStat(pid: number): Promise<ReadStat | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'latin1');
    return { pid, stat: parseProcStat(text), name: procStatName(text) };
  } catch {
    return undefined;
  }
}

/** argv as the process holds it: NUL-separated, the last one NUL-terminated. */
async function readArgv(pid: number): Promise<string[] | undefined> {
  try {
    const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    if (raw === '') return undefined;
    const argv = raw.split('\0');
    if (argv.at(-1) === '') argv.pop();
    return argv;
  } catch {
    return undefined;
  }
}

async function readLinkOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readlink(path);
  } catch {
    return undefined;
  }
}

let childrenFilesExist: Promise<boolean> | undefined;

/** Whether this kernel has /proc/<pid>/task/<tid>/children (asked once, of our own process). */
function haveChildrenFiles(): Promise<boolean> {
  childrenFilesExist ??= access(`/proc/${process.pid}/task/${process.pid}/children`).then(
    () => true,
    () => false,
  );
  return childrenFilesExist;
}

/** The children of every thread of `pid` (a child belongs to the thread that forked it). */
async function childrenOf(pid: number): Promise<number[]> {
  let tids: string[];
  try {
    tids = await readdir(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const lists = await Promise.all(
    tids.map((tid) => readFile(`/proc/${pid}/task/${tid}/children`, 'latin1').catch(() => '')),
  );
  return lists.flatMap((list) => list.split(' ').filter((word) => word !== '').map(Number));
}

/** The descendants of `root` (not root itself), level by level, at most MAX_DESCENDANTS. */
async function descendantsByChildren(root: number): Promise<number[]> {
  const found: number[] = [];
  let level = [root];
  while (level.length > 0 && found.length < MAX_DESCENDANTS) {
    const next = (await Promise.all(level.map(childrenOf))).flat().slice(0, MAX_DESCENDANTS - found.length);
    found.push(...next);
    level = next;
  }
  return found;
}

/** The same, from one scan of /proc's parent links (for kernels without the children files). */
async function descendantsByScan(root: number): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const stats = await Promise.all(entries.filter((entry) => /^\d+$/.test(entry)).map((entry) => readStat(Number(entry))));
  const childrenByParent = new Map<number, number[]>();
  for (const read of stats) {
    if (!read) continue;
    const siblings = childrenByParent.get(read.stat.parentPid);
    if (siblings) siblings.push(read.pid);
    else childrenByParent.set(read.stat.parentPid, [read.pid]);
  }
  const found: number[] = [];
  let level = [root];
  while (level.length > 0 && found.length < MAX_DESCENDANTS) {
    level = level.flatMap((pid) => childrenByParent.get(pid) ?? []);
    found.push(...level);
  }
  return found.slice(0, MAX_DESCENDANTS);
}

async function details(read: ReadStat): Promise<ProcessDetails> {
  const [argv, cwd] = await Promise.all([readArgv(read.pid), readLinkOrUndefined(`/proc/${read.pid}/cwd`)]);
  return { pid: read.pid, name: read.name, argv, cwd };
}

/** The processes of the pane whose program (its shell, or the command it was started with) is `shellPid`. */
export async function paneProcesses(shellPid: number): Promise<PaneProcesses> {
  const [shell, shellArgv, tty] = await Promise.all([
    readStat(shellPid),
    readArgv(shellPid),
    readLinkOrUndefined(`/proc/${shellPid}/fd/0`),
  ]);
  const tpgid = shell?.stat.tpgid;
  if (!shell || tpgid === undefined || tpgid <= 0) {
    return { shellPid, shellArgv, foregroundGroup: undefined, tty, foreground: [] };
  }
  const descendants = (await haveChildrenFiles()) ? await descendantsByChildren(shellPid) : await descendantsByScan(shellPid);
  const candidates = new Set([shellPid, tpgid, ...descendants]);
  candidates.delete(shellPid);
  const reads = await Promise.all([...candidates].map(readStat));
  const members = [shell, ...reads].filter((read): read is ReadStat => read !== undefined && read.stat.processGroup === tpgid);
  members.sort((a, b) => a.pid - b.pid);
  const foreground = await Promise.all(members.map(details));
  return { shellPid, shellArgv, foregroundGroup: tpgid, tty, foreground };
}
