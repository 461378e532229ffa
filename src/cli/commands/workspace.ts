/** `herdr workspace …` (docs/protocol.md §11): each prints the answer, for a person as text (reader.ts). */
import type { Command } from 'commander';
import { type SocketOption, given, lookUp, send, shown } from '../output.js';
import { workspaceCreated, workspaceFields, workspaceFocused, workspaceRenamed, workspaceTable } from '../human/workspaces.js';
import { type FocusFlags, focusOf, focusOptions } from './focus-flags.js';
import { envAssignment } from './parse.js';
import { addWorkspaceMetadataCommand } from './pane-details.js';
import { callerCwd, callerEnv } from '../../client/caller-place.js';

export function addWorkspaceCommands(program: Command): void {
  const workspace = program.command('workspace').description('list, create and manage workspaces');
  const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

  socket(workspace.command('list').description('list workspaces')).action((flags: SocketOption) =>
    send('cli:workspace:list', 'workspace.list', {}, flags, shown(workspaceTable)),
  );

  socket(
    focusOptions(
      workspace
        .command('create')
        .description('create a workspace (focused unless --no-focus)')
        .option('--cwd <path>', 'start directory (default: this shell\'s directory)')
        .option('--label <label>', 'fixed label instead of the derived one')
        .option('--env <KEY=VALUE>', 'environment of its first pane (repeatable)', envAssignment),
      'the new workspace',
    ),
  ).action((flags: SocketOption & FocusFlags & { cwd?: string; label?: string; env?: Record<string, string> }) =>
    send(
      'cli:workspace:create',
      'workspace.create',
      {
        cwd: callerCwd(flags.cwd),
        // herdr 0.2.0's CLI focused a new workspace unless --no-focus; that default stays (§11.3).
        focus: focusOf(flags, true),
        ...given('label', flags.label),
        ...given('env', callerEnv(flags.env)),
      },
      flags,
      shown(async (result) => {
        // herdr 0.2.0's answer has no root pane: the new workspace's first pane, asked for.
        if (result.type === 'workspace_created') return workspaceCreated(result.workspace, result.root_pane);
        const panes = await lookUp('cli:workspace:create', 'pane.list', { workspace_id: result.workspace.workspace_id }, flags);
        return workspaceCreated(result.workspace, panes?.panes[0]);
      }),
    ),
  );

  socket(workspace.command('get').argument('<id>').description('show one workspace')).action(
    (id: string, flags: SocketOption) => send('cli:workspace:get', 'workspace.get', { workspace_id: id }, flags, shown(workspaceFields)),
  );

  socket(workspace.command('focus').argument('<id>').description('make a workspace active')).action(
    (id: string, flags: SocketOption) => send('cli:workspace:focus', 'workspace.focus', { workspace_id: id }, flags, shown(workspaceFocused)),
  );

  socket(
    workspace.command('rename').argument('<id>').argument('<label...>').description('set a workspace\'s label'),
  ).action((id: string, words: string[], flags: SocketOption) =>
    send('cli:workspace:rename', 'workspace.rename', { workspace_id: id, label: words.join(' ') }, flags, shown(workspaceRenamed)),
  );

  socket(workspace.command('close').argument('<id>').description('close a workspace and end its panes')).action(
    (id: string, flags: SocketOption) => send('cli:workspace:close', 'workspace.close', { workspace_id: id }, flags, shown(() => `closed workspace ${id} and ended its panes\n`)),
  );

  addWorkspaceMetadataCommand(workspace);
}
