/**
 * `notification.show` on a server that draws no screen (docs/protocol.md §5.6): the text is
 * cleaned as herdr cleans it, at most one a second gets through (herdr's limit), and what gets
 * through is the event `notification.shown`, for the views that watch (herdr watch, herdr web,
 * herdr pane attach) to show; the last few are kept for a view that starts later
 * (`notification.list`).
 */
import {
  KEPT_NOTIFICATIONS,
  NOTIFICATION_BODY_CHARS,
  NOTIFICATION_INTERVAL_MS,
  NOTIFICATION_TITLE_CHARS,
  type NotificationInfo,
  type NOTIFICATION_POSITIONS,
  type NOTIFICATION_REASONS,
  type NOTIFICATION_SOUNDS,
} from '../protocol/methods/notifications.js';
import type { EventBatch } from './event-hub.js';
import { paneIds, paneMeta, paneRef } from './ids.js';
import type { PaneRecord } from './registry.js';

export interface NotificationRequest {
  title: string;
  body?: string | undefined;
  position?: (typeof NOTIFICATION_POSITIONS)[number] | undefined;
  sound?: (typeof NOTIFICATION_SOUNDS)[number] | undefined;
}

export type NotificationReason = (typeof NOTIFICATION_REASONS)[number];

/**
 * herdr's cleaning: newlines and tabs become spaces, other control characters go, runs of
 * whitespace become one space, the text is cut at `max` characters and trimmed. Undefined when
 * nothing visible is left.
 */
export function cleanNotificationText(text: string, max: number): string | undefined {
  let out = '';
  let count = 0;
  let lastWasSpace = false;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const space = /\s/u.test(char) || char === '\n' || char === '\r' || char === '\t';
    if (!space && (code < 0x20 || (code >= 0x7f && code < 0xa0))) continue;
    if (space) {
      if (lastWasSpace) continue;
      out += ' ';
    } else out += char;
    lastWasSpace = space;
    if (++count >= max) break;
  }
  const trimmed = out.trim();
  return trimmed === '' ? undefined : trimmed;
}

export class Notifications {
  private readonly kept: NotificationInfo[] = [];
  /** performance.now() of the last one that got through (-Infinity: none yet). */
  private lastShownAt = -Infinity;
  /** Open subscriptions to `notification.shown` (the views that would show one). */
  private watchers = 0;

  /** A subscriber of `notification.shown` came; the returned function says it left. */
  watch(): () => void {
    this.watchers++;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.watchers--;
    };
  }

  /** The last ones shown, oldest first. */
  list(): NotificationInfo[] {
    return [...this.kept];
  }

  /**
   * Shows a cleaned notification: the event goes out with the request's other events, after its
   * answer. `caller` is the pane the asking process runs in, if any. Undefined when the title
   * is empty once cleaned.
   */
  show(request: NotificationRequest, caller: PaneRecord | undefined, batch: EventBatch): { shown: boolean; reason: NotificationReason } | undefined {
    const title = cleanNotificationText(request.title, NOTIFICATION_TITLE_CHARS);
    if (title === undefined) return undefined;
    const now = performance.now();
    if (now - this.lastShownAt < NOTIFICATION_INTERVAL_MS) return { shown: false, reason: 'rate_limited' };
    this.lastShownAt = now;
    const body = request.body === undefined ? undefined : cleanNotificationText(request.body, NOTIFICATION_BODY_CHARS);
    const notification: NotificationInfo = {
      title,
      ...(body === undefined ? {} : { body }),
      ...(request.position === undefined ? {} : { position: request.position }),
      sound: request.sound ?? 'none',
      at: Date.now(),
      ...(caller ? { ...paneRef(caller), stable_id: paneIds(caller).stable_id } : {}),
    };
    this.kept.push(notification);
    if (this.kept.length > KEPT_NOTIFICATIONS) this.kept.shift();
    batch.addEvent('notification.shown', notification, caller ? paneMeta(caller) : {});
    return this.watchers > 0 ? { shown: true, reason: 'shown' } : { shown: false, reason: 'no_foreground_client' };
  }
}
