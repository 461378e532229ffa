/**
 * Which repository a directory belongs to, and which of its checkouts: asked
 * of git (`rev-parse`, `worktree list`), so linked worktrees, bare
 * repositories and submodules answer as git sees them.
 */
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ProtocolError } from '../../protocol/errors.js';
import { GitRefused, git } from './git.js';
import { type WorktreeEntry, listWorktrees } from './worktree-list.js';

export interface Repository {
  /** Derived from the shared git directory: one key for all of a repository's worktrees. */
  key: string;
  name: string;
  /** The main checkout (a bare repository: its directory). */
  root: string;
  isBare: boolean;
}

export interface RepositoryAt {
  repository: Repository;
  /** The checkout `dir` is in (a bare repository's directory when it is in none). */
  checkoutPath: string;
  /** Its worktrees as git lists them now, the main one first. */
  worktrees: WorktreeEntry[];
}

export async function repositoryAt(dir: string): Promise<RepositoryAt> {
  if (!isDirectory(dir)) throw new ProtocolError('not_a_git_repository', `${dir} is not a directory`);
  let commonDir: string;
  let insideCheckout: boolean;
  try {
    const [common = '', inside = ''] = (await git(['-C', dir, 'rev-parse', '--path-format=absolute', '--git-common-dir', '--is-inside-work-tree'])).split('\n');
    commonDir = common;
    insideCheckout = inside === 'true';
  } catch (error) {
    if (error instanceof GitRefused) throw new ProtocolError('not_a_git_repository', `${dir} is not in a git repository (${error.message})`);
    throw error;
  }
  const checkoutPath = insideCheckout ? (await git(['-C', dir, 'rev-parse', '--path-format=absolute', '--show-toplevel'])).trimEnd() : undefined;
  const worktrees = await listWorktrees(dir);
  const main = worktrees[0];
  const root = main?.path ?? resolve(commonDir, '..');
  const isBare = main?.isBare ?? false;
  const name = isBare ? basename(root).replace(/\.git$/, '') || basename(root) : basename(root);
  const key = createHash('sha256').update(realPath(commonDir)).digest('hex').slice(0, 16);
  return { repository: { key, name, root, isBare }, checkoutPath: checkoutPath ?? root, worktrees };
}

/** Whether two paths name the same directory (symlinks followed where they exist). */
export function samePath(a: string, b: string): boolean {
  return a === b || realPath(a) === realPath(b);
}

function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
