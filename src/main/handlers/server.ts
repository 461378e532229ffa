/** `ping` and the `server.*` extensions. */
import { VERSION } from '../../protocol/version.js';
import type { Router } from '../router.js';
import type { ServerStats } from '../../protocol/objects.js';

export interface ServerControl {
  stats(): Promise<ServerStats>;
  stop(): void;
}

export function registerServerHandlers(router: Router, control: ServerControl): void {
  router.register('ping', () => ({ type: 'pong', version: VERSION }));

  router.register('server.stats', async () => ({
    type: 'server_stats',
    ...(await control.stats()),
  }));

  router.register('server.stop', (_params, { afterResponse }) => {
    afterResponse(() => control.stop());
    return { type: 'ok' };
  });
}
