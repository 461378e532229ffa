/**
 * Claiming the socket path safely (docs/protocol.md §1 hardening): a live server keeps its
 * path, a stale socket is replaced, anything that is not a socket is never
 * deleted, and a directory we create is private (0700).
 */
import { lstatSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';

export class StartupError extends Error {}

function someoneListens(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Makes `path` free to listen on, or throws StartupError saying why it is not. */
export async function claimSocketPath(path: string): Promise<void> {
  if (path === '') throw new StartupError('the socket path is empty (HERDR_SOCKET_PATH is set but empty?)');
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return; // nothing there
  }
  if (!stats.isSocket()) throw new StartupError(`${path} exists and is not a socket; refusing to replace it`);
  if (await someoneListens(path)) throw new StartupError(`a herdr server is already listening on ${path}`);
  unlinkSync(path);
}

/** The socket file's inode, to remove on shutdown only the file we created. */
export function socketInode(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

export function removeSocketFile(path: string, inode: number | undefined): void {
  try {
    const stats = lstatSync(path);
    if (stats.isSocket() && (inode === undefined || stats.ino === inode)) unlinkSync(path);
  } catch {
    // already gone
  }
}
