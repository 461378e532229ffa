/**
 * `herdr worktree …` (docs/protocol.md §14): git worktrees as workspaces; each
 * prints the response JSON (for a person at a terminal, as text). Without --workspace or --cwd the repository is the
 * one this shell is in (the raw method would take the active workspace's).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type SocketOption, lookUp, send, shown } from '../output.js';
import { worktreeOpened, worktreeRemoved, worktreeTable } from '../human/worktrees.js';

interface RepositoryFlags extends SocketOption {
  workspace?: string;
  cwd?: string;
}

interface OpenFlags extends RepositoryFlags {
  branch?: string;
  path?: string;
  label?: string;
  focus?: boolean;
}

interface CreateFlags extends OpenFlags {
  base?: string;
}

/** A usage error: commander prints it, the command exits 2 (exit-codes.ts). */
function usage(command: Command, message: string): never {
  command.error(`error: ${message}`, { code: 'herdr.usage', exitCode: 2 });
}

/** `--workspace ID` or `--cwd PATH`, else this shell's directory. */
function repository(flags: RepositoryFlags, command: Command): { workspace_id: string } | { cwd: string } {
  if (flags.workspace !== undefined && flags.cwd !== undefined) usage(command, 'give --workspace or --cwd, not both');
  return flags.workspace !== undefined ? { workspace_id: flags.workspace } : { cwd: resolve(flags.cwd ?? process.cwd()) };
}

/** The flags both `create` and `open` pass on as they are, when given. */
function placement(flags: OpenFlags) {
  return {
    ...(flags.branch === undefined ? {} : { branch: flags.branch }),
    ...(flags.path === undefined ? {} : { path: resolve(flags.path) }),
    ...(flags.label === undefined ? {} : { label: flags.label }),
    ...(flags.focus === undefined ? {} : { focus: flags.focus }),
  };
}

export function addWorktreeCommands(program: Command): void {
  const worktree = program.command('worktree').description('git worktrees as workspaces: list, create, open and remove them');
  const common = (cmd: Command) =>
    cmd
      .option('--workspace <id>', 'the repository of this workspace')
      .option('--cwd <path>', 'the repository this directory is in (default: this shell\'s directory)')
      .option('--socket <path>', 'socket path');
  const focusFlags = (cmd: Command) =>
    cmd.option('--focus', 'make the new workspace the active one').option('--no-focus', 'leave the active workspace as it is (the default)');

  common(worktree.command('list').description('list the repository\'s worktrees and which workspace each is open in')).action(
    (flags: RepositoryFlags, command: Command) =>
      send(
        'cli:worktree:list',
        'worktree.list',
        repository(flags, command),
        flags,
        shown(async (result) => {
          // The open workspaces by the stable ids a person sees (herdr 0.2.0's socket answers compact ones).
          const open = result.worktrees.some((worktree) => worktree.open_workspace_id !== undefined);
          const workspaces = open ? (await lookUp('cli:worktree:list', 'workspace.list', {}, flags))?.workspaces : undefined;
          return worktreeTable(result, new Map((workspaces ?? []).map((workspace) => [workspace.workspace_id, workspace.stable_id])));
        }),
      ),
  );

  focusFlags(
    common(
      worktree
        .command('create')
        .description('add a worktree (a new branch from --base or HEAD, or an existing branch checked out nowhere) and open a workspace in it')
        .option('--branch <name>', 'the branch: checked out if it exists, else created (default: a new herdr/<hex> branch)')
        .option('--base <ref>', 'where a new branch starts (default: HEAD)')
        .option('--path <path>', 'where the worktree goes (default: under the server\'s --worktrees-dir)')
        .option('--label <text>', 'the workspace\'s label'),
    ),
  ).action((flags: CreateFlags, command: Command) =>
    send(
      'cli:worktree:create',
      'worktree.create',
      { ...repository(flags, command), ...placement(flags), ...(flags.base === undefined ? {} : { base: flags.base }) },
      flags,
      shown(worktreeOpened),
    ),
  );

  focusFlags(
    common(
      worktree
        .command('open')
        .description('open a workspace in an existing worktree (the open one, if it has one already)')
        .option('--path <path>', 'the worktree\'s directory')
        .option('--branch <name>', 'the branch checked out in it')
        .option('--label <text>', 'the workspace\'s label'),
    ),
  ).action((flags: OpenFlags, command: Command) => {
    if ((flags.path === undefined) === (flags.branch === undefined)) usage(command, 'give exactly one of --path and --branch');
    return send('cli:worktree:open', 'worktree.open', { ...repository(flags, command), ...placement(flags) }, flags, shown(worktreeOpened));
  });

  worktree
    .command('remove')
    .description('remove a worktree workspace\'s worktree (git worktree remove) and close the workspace; the branch stays')
    .requiredOption('--workspace <id>', 'the workspace made by worktree create or open')
    .option('--force', 'remove it even with changes or untracked files')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption & { workspace: string; force?: boolean }) =>
      send('cli:worktree:remove', 'worktree.remove', { workspace_id: flags.workspace, force: flags.force ?? false }, flags, shown(worktreeRemoved)),
    );
}
