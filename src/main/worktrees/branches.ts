/** Local branches, as `worktree.create` needs to know them before it adds anything. */
import { randomBytes } from 'node:crypto';
import { ProtocolError } from '../../protocol/errors.js';
import { GitRefused, git } from './git.js';

/** Refuses, before anything is made, a name git would not take as a branch (`-x`, `a..b`, `x.lock`, …). */
export async function checkBranchName(repositoryDir: string, branch: string): Promise<void> {
  try {
    await git(['-C', repositoryDir, 'check-ref-format', '--branch', branch]);
  } catch (error) {
    if (error instanceof GitRefused) throw new ProtocolError('git_failed', `${JSON.stringify(branch)} is not a valid branch name`);
    throw error;
  }
}

export async function localBranchExists(repositoryDir: string, branch: string): Promise<boolean> {
  try {
    await git(['-C', repositoryDir, 'show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);
    return true;
  } catch (error) {
    if (error instanceof GitRefused) return false;
    throw error;
  }
}

/** The branch of a `worktree.create` that named none: new, and unlikely ever to meet another. */
export function generatedBranchName(): string {
  return `herdr/${randomBytes(4).toString('hex')}`;
}

/** Undoes a branch this server just created (never one the user had). */
export async function deleteBranch(repositoryDir: string, branch: string): Promise<void> {
  await git(['-C', repositoryDir, 'branch', '-D', '--', branch]);
}
