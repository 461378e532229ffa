/** `notification.show` and `notification.list` (docs/protocol.md §5.6): notifications.ts does the work. */
import { ProtocolError } from '../../protocol/errors.js';
import { callerPane } from '../caller-pane.js';
import type { Notifications } from '../notifications.js';
import type { Registry } from '../registry.js';
import type { Router } from '../router.js';

export function registerNotificationHandlers(router: Router, { registry, notifications }: { registry: Registry; notifications: Notifications }): void {
  router.register('notification.show', async (params, { connection, batch }) => {
    const caller = await callerPane(connection, registry);
    const answer = notifications.show(params, caller, batch);
    // herdr answers its own `invalid_params` here; ours for params the server refuses is invalid_request.
    if (!answer) throw new ProtocolError('invalid_request', 'notification title is empty (nothing visible once control characters and spaces are removed)');
    return { type: 'notification_show', ...answer };
  });

  router.register('notification.list', () => ({ type: 'notification_list', notifications: notifications.list() }));
}
