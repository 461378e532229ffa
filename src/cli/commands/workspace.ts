/** `herdr workspace …` (docs/protocol.md §11): each prints the response JSON. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type SocketOption, send } from '../output.js';
import { addWorkspaceMetadataCommand } from './pane-details.js';

export function addWorkspaceCommands(program: Command): void {
  const workspace = program.command('workspace').description('list, create and manage workspaces');
  const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

  socket(workspace.command('list').description('list workspaces')).action((flags: SocketOption) =>
    send('cli:workspace:list', 'workspace.list', {}, flags),
  );

  socket(
    workspace
      .command('create')
      .description('create a workspace (focused unless --no-focus)')
      .option('--cwd <path>', 'start directory (default: this shell\'s directory)')
      .option('--label <label>', 'fixed label instead of the derived one')
      .option('--no-focus', 'do not make it the active workspace'),
  ).action((flags: SocketOption & { cwd?: string; label?: string; focus: boolean }) =>
    send(
      'cli:workspace:create',
      'workspace.create',
      {
        cwd: resolve(flags.cwd ?? process.cwd()),
        focus: flags.focus,
        ...(flags.label === undefined ? {} : { label: flags.label }),
      },
      flags,
    ),
  );

  socket(workspace.command('get').argument('<id>').description('show one workspace')).action(
    (id: string, flags: SocketOption) => send('cli:workspace:get', 'workspace.get', { workspace_id: id }, flags),
  );

  socket(workspace.command('focus').argument('<id>').description('make a workspace active')).action(
    (id: string, flags: SocketOption) => send('cli:workspace:focus', 'workspace.focus', { workspace_id: id }, flags),
  );

  socket(
    workspace.command('rename').argument('<id>').argument('<label...>').description('set a workspace\'s label'),
  ).action((id: string, words: string[], flags: SocketOption) =>
    send('cli:workspace:rename', 'workspace.rename', { workspace_id: id, label: words.join(' ') }, flags),
  );

  socket(workspace.command('close').argument('<id>').description('close a workspace and end its panes')).action(
    (id: string, flags: SocketOption) => send('cli:workspace:close', 'workspace.close', { workspace_id: id }, flags),
  );

  addWorkspaceMetadataCommand(workspace);
}
