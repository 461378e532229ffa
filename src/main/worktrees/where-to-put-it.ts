/**
 * Where `worktree.create` puts a worktree the caller gave no path for
 * (docs/protocol.md §14): under `--worktrees-dir`, else
 * `$XDG_DATA_HOME/herdr/worktrees`, else `~/.local/share/herdr/worktrees`,
 * in `<repo name>-<8 hex of the repository's key>/<branch slug>`. Outside the
 * repository, so its worktrees never show up in its own `git status`, file
 * watchers or searches; data, not state or cache, because the user's work
 * lives there; one folder per repository, so two repositories called `app`
 * never meet.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Repository } from './repository.js';

export function defaultWorktreesDir(env: NodeJS.ProcessEnv = process.env): string {
  // The XDG spec: a relative XDG_DATA_HOME is invalid and ignored.
  const dataHome = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(env.HOME ?? '/tmp', '.local', 'share');
  return join(dataHome, 'herdr', 'worktrees');
}

/** A name that is one path component: `feature/login` → `feature-login`. */
export function slug(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 80);
  return cleaned || 'worktree';
}

export function repositoryFolder(worktreesDir: string, repository: Repository): string {
  return join(worktreesDir, `${slug(repository.name)}-${repository.key.slice(0, 8)}`);
}

/** The branch's directory under the repository's folder; `-2`, `-3`, … when taken (two branch names can share a slug). */
export function freeWorktreePath(worktreesDir: string, repository: Repository, branch: string): string {
  const base = join(repositoryFolder(worktreesDir, repository), slug(branch));
  if (!existsSync(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!existsSync(candidate)) return candidate;
  }
}
