/** `integration.install|uninstall|list` (docs/protocol.md §13.9): the agent CLIs' hooks, written under the server's home or the one given. */
import { INSTALLABLE_TARGETS, isInstallable } from '../../protocol/integration-targets.js';
import { ProtocolError } from '../../protocol/errors.js';
import { CURRENT_INTEGRATION_VERSION, IntegrationError, installIntegration, integrationStatus, serverPlace, uninstallIntegration } from '../../integrations/integrations.js';
import type { Router } from '../router.js';

/** Runs an integration's file work, its refusals as the protocol's errors. */
function writing(target: string, work: () => string[]): { messages: string[] } {
  if (!isInstallable(target)) {
    throw new ProtocolError('integration_unsupported', `this server has no integration for ${target}; it installs ${INSTALLABLE_TARGETS.join(', ')}`);
  }
  try {
    return { messages: work() };
  } catch (error) {
    if (error instanceof IntegrationError) throw new ProtocolError('integration_failed', error.message);
    const { code, path } = error as NodeJS.ErrnoException & { path?: string };
    if (code) throw new ProtocolError('integration_failed', `could not write ${path ?? 'a file'} (${code}); nothing more was changed`);
    throw error;
  }
}

export function registerIntegrationHandlers(router: Router): void {
  router.register('integration.install', (params) => ({
    type: 'integration_install',
    target: params.target,
    details: writing(params.target, () => installIntegration(params.target, serverPlace(params.home))),
  }));
  router.register('integration.uninstall', (params) => ({
    type: 'integration_uninstall',
    target: params.target,
    details: writing(params.target, () => uninstallIntegration(params.target, serverPlace(params.home))),
  }));
  router.register('integration.list', (params) => ({
    type: 'integration_list',
    integrations: INSTALLABLE_TARGETS.map((target) => ({ ...integrationStatus(target, serverPlace(params.home)), current_version: CURRENT_INTEGRATION_VERSION })),
  }));
}
