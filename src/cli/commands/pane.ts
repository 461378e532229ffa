/** `herdr pane …` (docs/protocol.md §11). */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { SPLIT_DIRECTIONS, type SplitDirection } from '../../protocol/enums.js';
import { type SocketOption, printNothing, send } from '../output.js';
import { addAgentReportCommands } from './agent-reports.js';
import { addAttachCommand } from './attach.js';
import { addPaneDetailCommands } from './pane-details.js';
import { nonNegativeInt, oneOf } from './parse.js';

export function addPaneCommands(program: Command): void {
  const pane = program.command('pane').description('list, read, drive and arrange panes');
  const socket = (cmd: Command) => cmd.option('--socket <path>', 'socket path');

  socket(pane.command('list').description('list panes in layout order').option('--workspace <id>', 'only this workspace'))
    .action((flags: SocketOption & { workspace?: string }) =>
      send('cli:pane:list', 'pane.list', flags.workspace === undefined ? {} : { workspace_id: flags.workspace }, flags),
    );

  socket(pane.command('get').argument('<id>').description('show one pane')).action((id: string, flags: SocketOption) =>
    send('cli:pane:get', 'pane.get', { pane_id: id }, flags),
  );

  socket(
    pane
      .command('read')
      .argument('<id>')
      .description('print a pane\'s text')
      .option('--source <source>', 'visible | recent', oneOf('visible', 'recent'), 'recent')
      .option('--lines <n>', 'rows of recent text (at most 10000)', nonNegativeInt)
      .option('--raw', 'keep colour escapes (strip_ansi: false)'),
  ).action((id: string, flags: SocketOption & { source: 'visible' | 'recent'; lines?: number; raw?: boolean }) =>
    send(
      'cli:pane:read',
      'pane.read',
      {
        pane_id: id,
        source: flags.source,
        ...(flags.lines === undefined ? {} : { lines: flags.lines }),
        strip_ansi: !flags.raw,
      },
      flags,
      (response) => process.stdout.write(response.result.read.text),
    ),
  );

  socket(
    pane
      .command('split')
      .argument('<id>')
      .description('split a pane; the new pane starts in its directory unless --cwd')
      .requiredOption('--direction <direction>', SPLIT_DIRECTIONS.join(' | '), oneOf(...SPLIT_DIRECTIONS))
      .option('--cwd <path>', 'start directory of the new pane')
      .option('--no-focus', 'do not focus the new pane'),
  ).action((id: string, flags: SocketOption & { direction: SplitDirection; cwd?: string; focus: boolean }) =>
    send(
      'cli:pane:split',
      'pane.split',
      {
        target_pane_id: id,
        direction: flags.direction,
        focus: flags.focus,
        ...(flags.cwd === undefined ? {} : { cwd: resolve(flags.cwd) }),
      },
      flags,
    ),
  );

  socket(pane.command('close').argument('<id>').description('close a pane and end its processes')).action(
    (id: string, flags: SocketOption) => send('cli:pane:close', 'pane.close', { pane_id: id }, flags),
  );

  socket(pane.command('send-text').argument('<id>').argument('<text...>').description('type text (no Enter)')).action(
    (id: string, words: string[], flags: SocketOption) =>
      send('cli:pane:send-text', 'pane.send_text', { pane_id: id, text: words.join(' ') }, flags, printNothing),
  );

  socket(pane.command('send-keys').argument('<id>').argument('<keys...>').description('press keys (Enter, C-c, Up, …)'))
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
