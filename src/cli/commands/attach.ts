/** `herdr pane attach` (docs/protocol.md §11): the command around src/cli/attach. */
import type { Command } from 'commander';
import { DEFAULT_DETACH_KEY, attach } from '../attach/attach.js';
import { EXIT } from '../exit-codes.js';
import { exitWith } from '../failure.js';
import { type SocketOption, targetOf } from '../output.js';
import { keyName } from './parse.js';

interface AttachFlags extends SocketOption {
  readOnly?: boolean;
  detachKey?: string;
  resize?: boolean;
}

export function addAttachCommand(pane: Command): void {
  pane
    .command('attach')
    .argument('<id>')
    .description('show a pane live and type into it; the detach key (Ctrl-\\) leaves it running')
    .option('--read-only', 'only watch: nothing typed reaches the pane')
    .option('--detach-key <key>', `the key that detaches, named as send-keys names keys (default ${DEFAULT_DETACH_KEY})`, keyName)
    .option('--resize', 'make the pane follow this terminal\'s size (it keeps its own otherwise)')
    .option('--socket <path>', 'socket path')
    .action(async (id: string, flags: AttachFlags) => {
      let end;
      try {
        const target = { pane_id: id };
        const dialer = targetOf(flags, target);
        end = await attach({
          dialer,
          paneId: target.pane_id,
          readOnly: flags.readOnly ?? false,
          detachBytes: flags.detachKey ?? keyName(DEFAULT_DETACH_KEY),
          resize: flags.resize ?? false,
          input: process.stdin,
          output: process.stdout,
        });
      } catch (error) {
        exitWith(error, 'message');
      }
      if (end.reason === 'exited') process.exit(end.exitCode ?? EXIT.failure);
      process.exit(end.reason === 'detached' ? EXIT.ok : EXIT.failure);
    });
}
