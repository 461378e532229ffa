/** `herdr watch [--once]` (docs/protocol.md §11.2). */
import type { Command } from 'commander';
import { HerdrClient } from '../client.js';
import { type SocketOption, fail, targetOf } from '../output.js';
import { Fleet } from '../watch/fleet.js';
import { plainTable } from '../watch/table.js';
import { WatchView } from '../watch/watch-view.js';

export function addWatchCommand(program: Command): void {
  program
    .command('watch')
    .description('every pane\'s agent and state, live; Enter attaches to the selected pane')
    .option('--once', 'print the table once, as plain text, and exit')
    .option('--socket <path>', 'socket path')
    .action(async (flags: SocketOption & { once?: boolean }) => {
      const dialer = targetOf(flags);
      try {
        if (flags.once || !process.stdout.isTTY || !process.stdin.isTTY) {
          const client = new HerdrClient({ dialer, keepAlive: false });
          const [{ workspaces }, { panes }] = await Promise.all([client.workspace.list(), client.pane.list()]);
          const fleet = new Fleet();
          fleet.load(workspaces, panes);
          process.stdout.write(plainTable(fleet.rows(), Date.now(), process.env.HOME ?? ''));
          return;
        }
        process.exit(await new WatchView({ dialer, input: process.stdin, output: process.stdout }).run());
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    });
}
