/**
 * The line `herdr watch` shows under its table for `notification.show` (docs/protocol.md
 * §11.2): the newest notification, while it is recent, with its age and the pane that asked.
 */
import { notificationText } from '../../client/notification-watch.js';
import type { NotificationInfo } from '../../protocol/methods/notifications.js';
import { age } from '../table.js';

/** How long a notification stays under the table. */
export const NOTIFICATION_SHOWN_MS = 10 * 60_000;

export interface ShownNotification {
  /** The server it came from (undefined: the local one). */
  host: string | undefined;
  notification: NotificationInfo;
}

/** `notification 5s ago: build failed — api workspace (from w1:p2)`; undefined once it is old. */
export function notificationLine(shown: ShownNotification, now: number, qualify: boolean): string | undefined {
  const ago = now - shown.notification.at;
  if (ago > NOTIFICATION_SHOWN_MS) return undefined;
  const where = qualify ? ` on ${shown.host ?? 'local'}` : '';
  return `notification${where} ${age(Math.max(0, ago))} ago: ${notificationText(shown.notification)}`;
}

/** The newest of several servers' newest. */
export function latestShown(candidates: readonly ShownNotification[]): ShownNotification | undefined {
  return [...candidates].sort((a, b) => b.notification.at - a.notification.at)[0];
}
