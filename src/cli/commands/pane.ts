/** `herdr pane …` (docs/protocol.md §11). */
import type { Command } from 'commander';
import { type SocketOption, printNothing, send, shown } from '../output.js';
import { paneFields, paneTable } from '../human/panes.js';
import { addAgentReportCommands } from './agent-reports.js';
import { addAttachCommand } from './attach.js';
import { addPaneDetailCommands } from './pane-details.js';
import { addPaneReadCommands } from './pane-read.js';
import { addPaneSplitCommands } from './pane-split.js';
import { sendKey } from './parse.js';

export function addPaneCommands(program: Command): void {
  const pane = program.command('pane').description('list, read, drive and arrange panes');
  const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

  socket(pane.command('list').description('list panes in layout order').option('--workspace <id>', 'only this workspace'))
    .action((flags: SocketOption & { workspace?: string }) =>
      send('cli:pane:list', 'pane.list', flags.workspace === undefined ? {} : { workspace_id: flags.workspace }, flags, shown(paneTable)),
    );

  socket(pane.command('get').argument('<id>').description('show one pane')).action((id: string, flags: SocketOption) =>
    send('cli:pane:get', 'pane.get', { pane_id: id }, flags, shown(paneFields)),
  );

  addPaneReadCommands(pane);
  addPaneSplitCommands(pane);

  socket(pane.command('close').argument('<id>').description('close a pane and end its processes')).action(
    (id: string, flags: SocketOption) => send('cli:pane:close', 'pane.close', { pane_id: id }, flags, shown(() => `closed pane ${id} and ended its processes\n`)),
  );

  socket(pane.command('send-text').argument('<id>').argument('<text...>').description('type text (no Enter)')).action(
    (id: string, words: string[], flags: SocketOption) =>
      send('cli:pane:send-text', 'pane.send_text', { pane_id: id, text: words.join(' ') }, flags, printNothing),
  );

  socket(pane.command('send-keys').argument('<id>').argument('<keys...>', 'keys: a character, Enter, Tab, Esc, Up, C-c, M-x, F1…F12', sendKey).description('press keys (Enter, C-c, Up, …)'))
    .action((id: string, keys: string[], flags: SocketOption) =>
      send('cli:pane:send-keys', 'pane.send_keys', { pane_id: id, keys }, flags, printNothing),
    );

  socket(pane.command('run').argument('<id>').argument('<command...>').description('type a command and press Enter'))
    .action((id: string, words: string[], flags: SocketOption) =>
      send('cli:pane:run', 'pane.send_input', { pane_id: id, text: words.join(' '), keys: ['Enter'] }, flags, printNothing),
    );

  addAttachCommand(pane);
  addAgentReportCommands(pane);
  addPaneDetailCommands(pane);
}
