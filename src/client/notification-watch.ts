/**
 * One server's notifications (`notification.show`, docs/protocol.md §5.6) as they are shown:
 * a subscription of its own to `notification.shown`, resumed with `since` after a drop (each
 * once, none lost while it was away, as long as the server still keeps them), retried with
 * backoff while the server cannot be reached (resuming-subscription.ts). A server that has no such events (older than
 * them) refuses the subscription or leaves the kind out: the watch then stays quiet. What
 * `herdr watch`, `herdr web` and `herdr pane attach` show notifications from.
 */
import type { NotificationInfo } from '../protocol/methods/notifications.js';
import { ResumingSubscription } from './resuming-subscription.js';
import { Subscription } from './subscription.js';
import type { Dialer } from './transport.js';

export class NotificationWatch {
  private readonly subscription: ResumingSubscription;

  constructor(dialer: Dialer, shown: (notification: NotificationInfo) => void) {
    this.subscription = new ResumingSubscription(
      {
        open: (since) => Subscription.open(dialer, [{ type: 'notification.shown' }], { id: 'cli:notifications', ...(since === undefined ? {} : { since }) }),
        line: (line) => {
          if (line.event === 'notification.shown') shown(line.data);
        },
        // A server without these events says so; there is nothing to wait for.
        refused: () => 'stop',
      },
      true,
    );
  }

  start(): void {
    this.subscription.start();
  }

  stop(): void {
    this.subscription.stop();
  }
}

/** One line for a person: `title — body (from w1:p2)`. */
export function notificationText(notification: NotificationInfo): string {
  const pane = notification.stable_id ?? notification.pane_id;
  const from = pane === undefined ? '' : ` (from ${pane})`;
  return `${notification.title}${notification.body === undefined ? '' : ` — ${notification.body}`}${from}`;
}
