/**
 * `git worktree list --porcelain -z`, read: one entry per worktree, the main
 * one first. With -z every field ends in NUL and an empty field ends an entry,
 * so paths with newlines or odd bytes come through unquoted.
 */
import { git } from './git.js';

export interface WorktreeEntry {
  path: string;
  /** The short branch name (refs/heads/ taken off); undefined when detached or bare. */
  branch: string | undefined;
  isBare: boolean;
  isDetached: boolean;
  isPrunable: boolean;
  isLocked: boolean;
  /** Not the first entry: a worktree added to the repository, not its main checkout. */
  isLinked: boolean;
}

const BRANCH_PREFIX = 'refs/heads/';

export function parseWorktreeList(output: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let current: WorktreeEntry | undefined;
  for (const field of output.split('\0')) {
    if (field === '') {
      current = undefined;
      continue;
    }
    const space = field.indexOf(' ');
    const name = space < 0 ? field : field.slice(0, space);
    const value = space < 0 ? '' : field.slice(space + 1);
    if (name === 'worktree') {
      current = { path: value, branch: undefined, isBare: false, isDetached: false, isPrunable: false, isLocked: false, isLinked: entries.length > 0 };
      entries.push(current);
      continue;
    }
    if (!current) continue;
    if (name === 'branch') current.branch = value.startsWith(BRANCH_PREFIX) ? value.slice(BRANCH_PREFIX.length) : value;
    else if (name === 'bare') current.isBare = true;
    else if (name === 'detached') current.isDetached = true;
    else if (name === 'prunable') current.isPrunable = true;
    else if (name === 'locked') current.isLocked = true;
  }
  return entries;
}

/** The worktrees of the repository `dir` belongs to. */
export async function listWorktrees(dir: string): Promise<WorktreeEntry[]> {
  return parseWorktreeList(await git(['-C', dir, 'worktree', 'list', '--porcelain', '-z']));
}
