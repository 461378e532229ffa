/**
 * Which pane a connecting process runs in (`pane.current`, docs/protocol.md §5.6): the
 * kernel's record of the socket's peer (SO_PEERCRED, through our addon native/peer-cred,
 * built at install; Linux), then /proc. A process belongs to a pane when it is in the
 * process session the pane's shell leads (node-pty starts it with setsid), or when its
 * environment carries the pane's mark (os/pane-processes.ts: every process started in a pane
 * inherits it, a daemon that left the session included); failing both, its parent is asked,
 * up the tree. A pane's mark is read from its own process's environment. A process that left
 * the session and cleared its environment is in no pane.
 */
import { readFile } from 'node:fs/promises';
import { nativeAddon } from './native-addon.js';
import { PANE_MARK_ENV } from './pane-processes.js';
import { parseProcStat } from './proc-stat.js';

interface PeerCred {
  peerPid(fd: number): number;
}

const addon = nativeAddon<PeerCred>('peer-cred', 'peer_cred');

/** Whether the peer of a connection can be known here (the addon loaded). */
export function peerCredentialsAvailable(): boolean {
  return addon() !== undefined;
}

/** The pid of the process at the other end of the unix socket `fd`; undefined without the addon or for another kind of fd. */
export function peerPid(fd: number): number | undefined {
  const pid = addon()?.peerPid(fd);
  return pid === undefined || pid <= 0 ? undefined : pid;
}

/** A pane as this lookup needs it: its shell's pid, which leads its process session and carries its mark. */
export interface PaneProcess {
  pid: number;
}

/** How many ancestors are asked at most (a process tree is rarely more than a few deep). */
const MAX_ANCESTORS = 64;

async function processFacts(pid: number): Promise<{ session: number; parent: number; environ: string } | undefined> {
  try {
    const stat = parseProcStat(await readFile(`/proc/${pid}/stat`, 'latin1'));
    // Another user's process keeps its environment to itself: the session still tells.
    const environ = await readFile(`/proc/${pid}/environ`, 'latin1').catch(() => '');
    return { session: stat.processSession, parent: stat.parentPid, environ };
  } catch {
    return undefined; // gone
  }
}

/** The mark a process's environment carries, if any. */
function markOf(environ: string): string | undefined {
  const key = `${PANE_MARK_ENV}=`;
  let at = 0;
  if (!environ.startsWith(key)) {
    const found = environ.indexOf(`\0${key}`);
    if (found < 0) return undefined;
    at = found + 1;
  }
  const start = at + key.length;
  const end = environ.indexOf('\0', start);
  return environ.slice(start, end < 0 ? undefined : end);
}

/** The mark of each pane's own process, read once a lookup needs them (a pane whose process is gone has none). */
async function paneMarks<P extends PaneProcess>(panes: readonly P[]): Promise<Map<string, P>> {
  const marks = new Map<string, P>();
  await Promise.all(
    panes.map(async (pane) => {
      const mark = markOf(await readFile(`/proc/${pane.pid}/environ`, 'latin1').catch(() => ''));
      if (mark) marks.set(mark, pane);
    }),
  );
  return marks;
}

/** The pane `pid` runs in, from `panes`; undefined when it is in none (or is gone). */
export async function paneOfProcess<P extends PaneProcess>(pid: number, panes: readonly P[]): Promise<P | undefined> {
  const bySession = new Map(panes.map((pane) => [pane.pid, pane]));
  let byMark: Map<string, P> | undefined;
  let current = pid;
  for (let asked = 0; asked < MAX_ANCESTORS && current > 1; asked++) {
    const facts = await processFacts(current);
    if (!facts) return undefined;
    const inSession = bySession.get(facts.session);
    if (inSession) return inSession;
    const mark = markOf(facts.environ);
    if (mark) {
      byMark ??= await paneMarks(panes);
      const marked = byMark.get(mark);
      if (marked) return marked;
    }
    current = facts.parent;
  }
  return undefined;
}
