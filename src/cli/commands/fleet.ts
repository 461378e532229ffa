/**
 * `herdr fleet list` and `herdr fleet events` (docs/remote.md): the panes of
 * several servers in one table, and their events merged into one stream,
 * each line tagged with its host and resumed with `since` after a drop.
 */
import type { Command } from 'commander';
import { EXIT } from '../exit-codes.js';
import { HostFeed, readFleet } from '../../client/fleet/host-feed.js';
import { printJson } from '../output.js';
import { Fleet, compareRows } from '../../client/fleet/fleet-model.js';
import { plainTable } from '../watch/table.js';
import { latestShown, notificationLine } from '../watch/notification-line.js';
import type { HostTarget } from '../../client/transport.js';
import { type FleetFlags, askEveryServer, fleetOptions, fleetTargets, reportUnreachable } from './fleet-targets.js';

/**
 * The table once (`watch --once`, `fleet list`); an unreachable server is one line on stderr and exit 1, after the others' rows.
 * With `notification` (`watch --once`), the line the live view shows under it: the newest recent notification.
 */
export async function printFleetTable(targets: HostTarget[], hosts: boolean, notification = false): Promise<number> {
  const { answers, failures } = await askEveryServer(targets, async (client) => {
    const fleet = new Fleet();
    await readFleet(client, fleet);
    // A server from before notification.list has none to tell.
    const kept = notification ? (await client.call('notification.list', {}).catch(() => ({ notifications: [] }))).notifications : [];
    return { fleet, newest: kept.at(-1) };
  });
  const rows = answers.flatMap(({ host, value }) => value.fleet.rows().map((row) => ({ ...row, host }))).sort(compareRows);
  const now = Date.now();
  process.stdout.write(plainTable(rows, now, process.env.HOME ?? '', hosts));
  const newest = latestShown(answers.flatMap(({ host, value }) => (value.newest ? [{ host, notification: value.newest }] : [])));
  const line = newest && notificationLine(newest, now, hosts);
  if (line !== undefined) process.stdout.write(`${line}\n`);
  return reportUnreachable(failures);
}

export function addFleetCommands(program: Command): void {
  const fleet = program.command('fleet').description('the panes and events of several servers at once (local and over ssh)');

  fleetOptions(fleet.command('list').description('every pane of every server, in one table with a HOST column')).action(
    async (flags: FleetFlags) => process.exit(await printFleetTable(fleetTargets(flags), true)),
  );

  fleetOptions(
    fleet.command('events').description('the lifecycle, state and command events of every server, merged; one JSON line each, with its host'),
  ).action((flags: FleetFlags) => {
    // Each status is told once, when it begins.
    const told = new WeakSet<object>();
    const feeds = fleetTargets(flags).map(
      (target) =>
        new HostFeed(target.host, target.dialer, {
          changed: (feed) => {
            if (feed.status.kind !== 'unreachable' || told.has(feed.status)) return;
            told.add(feed.status);
            process.stderr.write(`herdr: ${feed.host ?? 'local server'}: unreachable (${feed.status.message}); retrying\n`);
          },
          event: (feed, line) => printJson({ host: feed.host ?? 'local', ...line }),
        }),
    );
    for (const feed of feeds) feed.start();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        for (const feed of feeds) feed.stop();
        process.exit(EXIT.ok);
      });
    }
  });
}
