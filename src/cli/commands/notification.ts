/**
 * `herdr notification show TITLE [--body B] [--position P] [--sound S]` (herdr's current CLI)
 * and `herdr notification list` (ours): docs/protocol.md §5.6, §11.
 */
import type { Command } from 'commander';
import { notificationText } from '../../client/notification-watch.js';
import { NOTIFICATION_POSITIONS, NOTIFICATION_SOUNDS } from '../../protocol/methods/notifications.js';
import { type SocketOption, given, send, shown } from '../output.js';
import { age } from '../table.js';
import { oneOf } from './parse.js';

interface ShowFlags extends SocketOption {
  body?: string;
  position?: (typeof NOTIFICATION_POSITIONS)[number];
  sound?: (typeof NOTIFICATION_SOUNDS)[number];
}

export function addNotificationCommands(program: Command): void {
  const notification = program.command('notification').description('tell the people watching something (herdr watch, herdr web, attached terminals)');

  notification
    .command('show')
    .argument('<title>')
    .description('show a notification to whoever watches; prints whether anyone was told')
    .option('--body <text>', 'a second line')
    .option('--position <corner>', NOTIFICATION_POSITIONS.join(' | '), oneOf(...NOTIFICATION_POSITIONS))
    .option('--sound <sound>', NOTIFICATION_SOUNDS.join(' | '), oneOf(...NOTIFICATION_SOUNDS))
    .option('--json', 'print the answer as JSON')
    .option('--socket <path>', 'socket path')
    .action((title: string, flags: ShowFlags) =>
      send(
        'cli:notification:show',
        'notification.show',
        { title, ...given('body', flags.body), ...given('position', flags.position), ...given('sound', flags.sound) },
        flags,
        shown((result) => (result.shown ? 'shown\n' : `not shown: ${result.reason.replaceAll('_', ' ')}\n`)),
      ),
    );

  notification
    .command('list')
    .description('the last notifications shown, oldest first')
    .option('--json', 'print the answer as JSON')
    .option('--socket <path>', 'socket path')
    .action((flags: SocketOption) =>
      send('cli:notification:list', 'notification.list', {}, flags, shown((result) => {
        const now = Date.now();
        return result.notifications.map((item) => `${age(now - item.at)} ago: ${notificationText(item)}\n`).join('') || 'no notifications\n';
      })),
    );
}
