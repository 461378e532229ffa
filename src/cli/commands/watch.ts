/** `herdr watch [--once] [--host H]… [--no-local]` (docs/protocol.md §11.2, docs/remote.md). */
import type { Command } from 'commander';
import { exitWith } from '../failure.js';
import { WatchView } from '../watch/watch-view.js';
import { type FleetFlags, fleetOptions, fleetTargets } from './fleet-targets.js';
import { printFleetTable } from './fleet.js';

export function addWatchCommand(program: Command): void {
  fleetOptions(
    program
      .command('watch')
      .description('every pane\'s agent and state, live, across servers; Enter attaches to the selected pane')
      .option('--once', 'print the table once, as plain text, and exit'),
  ).action(async (flags: FleetFlags & { once?: boolean }) => {
    const targets = fleetTargets(flags);
    try {
      if (flags.once || !process.stdout.isTTY || !process.stdin.isTTY) {
        process.exit(await printFleetTable(targets, targets.length > 1, true));
      }
      process.exit(await new WatchView({ targets, input: process.stdin, output: process.stdout }).run());
    } catch (error) {
      exitWith(error);
    }
  });
}
