/**
 * `herdr tab …` (docs/protocol.md §11.3): herdr's current tab commands, each printing the
 * server's answer whole (for a person at a terminal, as text). A tab id is passed on as typed (`w1:t1`).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type SocketOption, given, send, shown } from '../output.js';
import { tabCreated, tabFields, tabFocused, tabRenamed, tabTable } from '../human/workspaces.js';
import { type FocusFlags, focusOf, focusOptions } from './focus-flags.js';
import { envAssignment } from './parse.js';
import { callerEnv } from '../../client/caller-place.js';

interface CreateFlags extends SocketOption, FocusFlags {
  workspace?: string;
  cwd?: string;
  label?: string;
  env?: Record<string, string>;
}

export function addTabCommands(program: Command): void {
  const tab = program.command('tab').description('list, create and manage the tabs of a workspace');
  const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

  socket(tab.command('list').description('list tabs').option('--workspace <id>', 'only this workspace')).action(
    (flags: SocketOption & { workspace?: string }) => send('cli:tab:list', 'tab.list', { ...given('workspace_id', flags.workspace) }, flags, shown(tabTable)),
  );

  socket(
    focusOptions(
      tab
        .command('create')
        .description('create a tab with one pane (in the active workspace unless --workspace; not focused unless --focus)')
        .option('--workspace <id>', 'the workspace to add it to')
        .option('--cwd <path>', 'start directory of its pane')
        .option('--label <label>', 'its label')
        .option('--env <KEY=VALUE>', 'environment of its pane (repeatable)', envAssignment),
      'the new tab',
    ),
  ).action((flags: CreateFlags) =>
    send(
      'cli:tab:create',
      'tab.create',
      {
        ...given('workspace_id', flags.workspace),
        ...given('cwd', flags.cwd === undefined ? undefined : resolve(flags.cwd)),
        // herdr's tab.create default (no 0.2.0 command to keep compatible with).
        focus: focusOf(flags, false),
        ...given('label', flags.label),
        ...given('env', callerEnv(flags.env)),
      },
      flags,
      shown(tabCreated),
    ),
  );

  socket(tab.command('get').argument('<tab_id>').description('show one tab')).action((id: string, flags: SocketOption) =>
    send('cli:tab:get', 'tab.get', { tab_id: id }, flags, shown(tabFields)),
  );

  socket(tab.command('focus').argument('<tab_id>').description('make a tab active (and its workspace)')).action((id: string, flags: SocketOption) =>
    send('cli:tab:focus', 'tab.focus', { tab_id: id }, flags, shown(tabFocused)),
  );

  socket(tab.command('rename').argument('<tab_id>').argument('<label...>').description('set a tab\'s label')).action(
    (id: string, words: string[], flags: SocketOption) => send('cli:tab:rename', 'tab.rename', { tab_id: id, label: words.join(' ') }, flags, shown(tabRenamed)),
  );

  socket(tab.command('close').argument('<tab_id>').description('close a tab and end its panes (its workspace too when it is the last)')).action(
    (id: string, flags: SocketOption) => send('cli:tab:close', 'tab.close', { tab_id: id }, flags, shown(() => `closed tab ${id} and ended its panes\n`)),
  );
}
