/**
 * One server's notifications (`notification.show`, docs/protocol.md §5.6) as they are shown:
 * a subscription of its own to `notification.shown`, resumed with `since` after a drop (each
 * once, none lost while it was away, as long as the server still keeps them), retried with
 * backoff while the server cannot be reached. A server that has no such events (older than
 * them) refuses the subscription or leaves the kind out: the watch then stays quiet. What
 * `herdr watch`, `herdr web` and `herdr pane attach` show notifications from.
 */
import type { NotificationInfo } from '../protocol/methods/notifications.js';
import { HerdrError } from './errors.js';
import { Subscription } from './subscription.js';
import type { Dialer } from './transport.js';

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

export class NotificationWatch {
  private subscription: Subscription | undefined;
  private lastSeq: number | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly dialer: Dialer,
    private readonly shown: (notification: NotificationInfo) => void,
  ) {}

  start(): void {
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.subscription?.close();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let subscription: Subscription;
    try {
      const since = this.lastSeq === undefined ? {} : { since: this.lastSeq };
      subscription = await Subscription.open(this.dialer, [{ type: 'notification.shown' }], { id: 'cli:notifications', ...since });
    } catch (error) {
      if (error instanceof HerdrError && error.code === 'events_lost') {
        this.lastSeq = undefined;
        return this.connect();
      }
      // A server without these events says so; there is nothing to wait for.
      if (error instanceof HerdrError) return;
      return this.again();
    }
    if (this.stopped) return subscription.close();
    this.subscription = subscription;
    this.retryMs = FIRST_RETRY_MS;
    for await (const line of subscription) {
      if (typeof line.seq === 'number') this.lastSeq = line.seq;
      if (line.event === 'notification.shown') this.shown(line.data);
    }
    this.again();
  }

  private again(): void {
    if (this.stopped) return;
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }
}

/** One line for a person: `title — body (from w1:p2)`. */
export function notificationText(notification: NotificationInfo): string {
  const pane = notification.stable_id ?? notification.pane_id;
  const from = pane === undefined ? '' : ` (from ${pane})`;
  return `${notification.title}${notification.body === undefined ? '' : ` — ${notification.body}`}${from}`;
}
