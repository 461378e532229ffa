/** Facts about a pane's processes read from Linux /proc. */
import { existsSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The current directory of a process, or undefined when it is gone or unreadable. */
export function processCwd(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/**
 * The workspace label a directory gives (docs/protocol.md §4): the name of the nearest
 * ancestor holding a `.git` entry; else `~` for the home directory; else the
 * basename (`/` for the root).
 */
export function cwdLabel(cwd: string, home: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir === '/' ? '/' : basename(dir);
    if (dirname(dir) === dir) break;
  }
  if (cwd === home) return '~';
  return cwd === '/' ? '/' : basename(cwd);
}

/** A directory as /proc will report it (symlinks resolved), or as given if that fails. */
export function realDirectory(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
