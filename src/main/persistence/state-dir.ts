/**
 * Where a server keeps its session (docs/persistence.md): `--state-dir`, else
 * `$XDG_STATE_HOME/herdr`, else `~/.local/state/herdr`; inside it one
 * directory per socket, so two servers on different sockets keep separate
 * state. Directories are 0700, files 0600: a session holds what panes printed.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'herdr');
  return join(env.HOME ?? '/tmp', '.local', 'state', 'herdr');
}

export interface SessionPaths {
  /** This socket's directory. */
  dir: string;
  /** The session file (workspaces, panes, last screens, the newest history rows). */
  session: string;
  /** The shards' history block files. */
  blocks: string;
}

/** This socket's paths under `stateDir`, created private. */
export function sessionPaths(stateDir: string, socketPath: string): SessionPaths {
  const absolute = resolve(socketPath);
  const tag = createHash('sha256').update(absolute).digest('hex').slice(0, 12);
  const name = basename(absolute).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40);
  const dir = join(stateDir, 'sessions', `${name}-${tag}`);
  const blocks = join(dir, 'blocks');
  for (const path of [stateDir, join(stateDir, 'sessions'), dir, blocks]) {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    chmodSync(path, 0o700);
  }
  return { dir, session: join(dir, 'session.msgpack'), blocks };
}
