/**
 * What a starting server does with the session it finds (docs/persistence.md):
 * restores it; or, with --no-restore, moves it aside and starts empty; or,
 * when it cannot be read, moves it aside as `.bad-<time>`, says so in one
 * line and starts empty. "Aside" takes the block files along, so the set
 * stays whole for whoever wants to look at it.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import type { RestoreCounts } from './restore.js';
import type { SavedSession } from './session-file.js';
import { readSessionFile, setAside } from './session-file.js';
import type { SessionPaths } from './state-dir.js';

export interface StartupChoice {
  restore: boolean;
  resumeAgents: boolean;
}

function moveAside(paths: SessionPaths, why: 'bad' | 'aside'): string {
  const moved = setAside(paths.session, why);
  const suffix = moved.slice(paths.session.length);
  if (existsSync(paths.blocks)) renameSync(paths.blocks, `${paths.blocks}${suffix}`);
  mkdirSync(paths.blocks, { recursive: true, mode: 0o700 });
  return moved;
}

export async function restoreAtStart(
  server: { restore(saved: SavedSession, options: { resumeAgents: boolean }): Promise<RestoreCounts> },
  paths: SessionPaths, choice: StartupChoice, log: (message: string) => void): Promise<void> {
  const read = await readSessionFile(paths.session).catch((error: unknown) => ({
    kind: 'bad' as const,
    reason: `it cannot be read (${error instanceof Error ? error.message : String(error)})`,
  }));
  if (read.kind === 'none') return;
  if (read.kind === 'bad') {
    log(`the session in ${paths.session} cannot be restored: ${read.reason}; moved to ${moveAside(paths, 'bad')}, starting empty`);
    return;
  }
  if (!choice.restore) {
    log(`--no-restore: the previous session is kept at ${moveAside(paths, 'aside')}; starting empty`);
    return;
  }
  const counts = await server.restore(read.session, { resumeAgents: choice.resumeAgents });
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  log(`restored ${plural(counts.workspaces, 'workspace')} and ${plural(counts.panes, 'pane')} from ${new Date(read.session.savedAt).toISOString()}`);
}
