/**
 * `notification.show` (herdr's current protocol) and our `notification.list` (docs/protocol.md
 * §5.6): a client asks the people watching to be told something. Here no screen is drawn, so a
 * notification is an event, `notification.shown`, that `herdr watch`, `herdr web` and
 * `herdr pane attach` show; the last ones are kept for views that start later. Spread into
 * `METHODS` (methods.ts).
 */
import { z } from 'zod';
import { optional } from '../optional.js';
import type { MethodEntry } from '../params.js';

/** herdr's limits: text is cut to this many characters once cleaned. */
export const NOTIFICATION_TITLE_CHARS = 80;
export const NOTIFICATION_BODY_CHARS = 240;
/** herdr shows at most one notification from the API a second; a faster one is `rate_limited`. */
export const NOTIFICATION_INTERVAL_MS = 1000;
/** How many `notification.list` keeps. */
export const KEPT_NOTIFICATIONS = 20;

export const NOTIFICATION_SOUNDS = ['none', 'done', 'request'] as const;
export const NOTIFICATION_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
/** herdr's answers: `shown`, or why not. */
export const NOTIFICATION_REASONS = ['shown', 'disabled', 'rate_limited', 'no_foreground_client', 'busy'] as const;

/** A notification as the event carries it and `notification.list` keeps it. */
export const notificationSchema = z.object({
  title: z.string().describe('cleaned as herdr cleans it: control characters dropped, whitespace runs one space, at most 80 characters'),
  body: z.string().optional().describe('cleaned the same way, at most 240 characters'),
  position: z.enum(NOTIFICATION_POSITIONS).optional().describe('where herdr would place its toast; a view may follow it'),
  sound: z.enum(NOTIFICATION_SOUNDS).describe('none, or which of herdr\'s sounds a view may play'),
  at: z.number().int().min(0).describe('when it was shown, ms since the Unix epoch'),
  pane_id: z.string().optional().describe('the pane the asking process runs in, when it runs in one (as pane.current finds it)'),
  workspace_id: z.string().optional(),
  stable_id: z.string().optional().describe('that pane\'s stable id (§3), what a view shows'),
});
export type NotificationInfo = z.output<typeof notificationSchema>;

export const NOTIFICATION_METHODS = {
  'notification.show': {
    params: z.object({
      title: z.string(),
      body: optional(z.string()),
      position: optional(z.enum(NOTIFICATION_POSITIONS)),
      sound: optional(z.enum(NOTIFICATION_SOUNDS)),
    }),
    result: z.object({
      type: z.literal('notification_show'),
      shown: z.boolean().describe('true: someone watching was told (a subscriber of notification.shown)'),
      reason: z.enum(NOTIFICATION_REASONS).describe('shown; rate_limited (another came less than a second ago); no_foreground_client (nobody watches)'),
    }),
    changesState: false,
  },
  'notification.list': {
    params: z.object({}),
    result: z.object({
      type: z.literal('notification_list'),
      notifications: z.array(notificationSchema).describe(`EXT: the last ${KEPT_NOTIFICATIONS} shown (rate-limited ones are not), oldest first`),
    }),
    changesState: false,
  },
} as const satisfies Record<string, MethodEntry>;
