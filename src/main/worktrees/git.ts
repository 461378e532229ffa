/**
 * Running `git` for the worktree methods: always execFile with an argv (never
 * a shell), asynchronously (the main thread goes on answering), with a
 * deadline, without prompts, and without the caller's GIT_DIR & co., which
 * would point every command at one repository whatever `-C` says.
 */
import { execFile } from 'node:child_process';
import { ProtocolError } from '../../protocol/errors.js';

/** Long enough for a checkout of a big tree and a slow post-checkout hook; a hung git is not waited for forever. */
export const GIT_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** Variables that would override `-C` (a server started from inside a git hook has them). */
const REPOSITORY_OVERRIDES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_PREFIX', 'GIT_NAMESPACE'];

function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  for (const name of REPOSITORY_OVERRIDES) delete env[name];
  return env;
}

/** git ran and said no: its exit code and what it printed on stderr. */
export class GitRefused extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed: ${firstLines(stderr) || `exit code ${exitCode}`}`);
    this.name = 'GitRefused';
  }
}

/** git's complaint without its hints, short enough for an error message. */
function firstLines(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('hint:'))
    .slice(0, 3)
    .join(' ')
    .slice(0, 500);
}

/**
 * Runs `git ARGS…` and answers its stdout. A git that exits non-zero rejects
 * with GitRefused (the caller decides what that means); one that cannot be run
 * or takes too long rejects with a ProtocolError.
 */
export function git(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { env: gitEnvironment(), timeout: GIT_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const { code, killed, signal } = error;
        if (code === 'ENOENT') return reject(new ProtocolError('git_unavailable', 'git could not be run: it is not installed or not on the server\'s PATH'));
        if (killed || signal) return reject(new ProtocolError('git_failed', `git ${args[0] ?? ''} took longer than ${GIT_TIMEOUT_MS / 1000} s and was stopped`));
        if (typeof code === 'number') return reject(new GitRefused(args, code, stderr));
        reject(new ProtocolError('git_failed', `git ${args[0] ?? ''} could not be run: ${error.message}`));
      },
    );
  });
}

/** A git refusal as the client sees it: `git_failed` with git's words; anything else as it was. */
export function asGitFailed(error: unknown): unknown {
  return error instanceof GitRefused ? new ProtocolError('git_failed', error.message) : error;
}
