/** `ping` and the `server.*` extensions. */
import { VERSION } from '../../protocol/version.js';
import type { Router } from '../router.js';
import type { Session } from '../session.js';

export interface ServerControl {
  connectionCount(): number;
  stop(): void;
}

export function registerServerHandlers(router: Router, session: Session, control: ServerControl): void {
  router.register('ping', () => ({ type: 'pong', version: VERSION }));

  router.register('server.stats', async () => ({
    type: 'server_stats',
    ...(await session.stats(control.connectionCount())),
  }));

  router.register('server.stop', (_params, { afterResponse }) => {
    afterResponse(() => control.stop());
    return { type: 'ok' };
  });
}
