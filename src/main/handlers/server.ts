/** `ping` and the `server.*` extensions. */
import { SERVER_CAPABILITIES, protocolOfDialect } from '../../protocol/dialect.js';
import { VERSION } from '../../protocol/version.js';
import type { Router } from '../router.js';
import type { ServerStats } from '../../protocol/objects.js';

export interface ServerControl {
  stats(): Promise<ServerStats>;
  stop(): void;
}

export function registerServerHandlers(router: Router, control: ServerControl): void {
  // docs/protocol.md §15: the number tells a client which dialect this connection is answered in.
  router.register('ping', (_params, { dialect }) => ({
    type: 'pong',
    version: VERSION,
    protocol: protocolOfDialect(dialect),
    capabilities: SERVER_CAPABILITIES,
    dialect,
  }));

  router.register('server.stats', async () => ({
    type: 'server_stats',
    ...(await control.stats()),
  }));

  router.register('server.stop', (_params, { afterResponse }) => {
    afterResponse(() => control.stop());
    return { type: 'ok' };
  });
}
