/** `plugin.*` (docs/protocol.md §16): herdr's plugins, served by main/plugins/plugin-host.ts. */
import { dirname, join } from 'node:path';
import { ProtocolError } from '../../protocol/errors.js';
import { defaultStateDir } from '../persistence/state-dir.js';
import type { SessionPaths } from '../persistence/state-dir.js';
import { PluginHost, type PluginHostParts } from '../plugins/plugin-host.js';
import type { Router } from '../router.js';
import { paneInfo } from '../wire-views.js';

/**
 * Where plugins are kept: `plugins.json` and `plugins/` in the server's state directory
 * (the one that holds `sessions/`); with `--no-state` the list is kept in memory and the
 * plugins' own directories go under the default state directory.
 */
export function pluginPlaces(paths: SessionPaths | undefined): PluginHostParts['places'] {
  if (!paths) return { registryFile: undefined, dataRoot: join(defaultStateDir(), 'plugins') };
  const stateDir = dirname(dirname(paths.dir));
  return { registryFile: join(stateDir, 'plugins.json'), dataRoot: join(stateDir, 'plugins') };
}

/** A pane command that cannot start is the plugin pane's failure, as herdr names it. */
async function opening<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ProtocolError && (error.code === 'pane_split_failed' || error.code === 'tab_create_failed')) {
      throw new ProtocolError('plugin_pane_open_failed', error.message, error.currentMessage);
    }
    throw error;
  }
}

export function registerPluginHandlers(router: Router, parts: PluginHostParts): PluginHost {
  const host = new PluginHost(parts);
  const { registry } = parts;

  router.register('plugin.link', async (params) => ({
    type: 'plugin_linked',
    plugin: await host.link(params.path, params.enabled ?? true, params.source),
  }));
  router.register('plugin.list', async (params) => ({ type: 'plugin_list', plugins: await host.list(params.plugin_id) }));
  router.register('plugin.unlink', async (params) => ({ type: 'plugin_unlinked', ...(await host.unlink(params.plugin_id)) }));
  router.register('plugin.enable', async (params) => ({ type: 'plugin_enabled', plugin: await host.setEnabled(params.plugin_id, true) }));
  router.register('plugin.disable', async (params) => ({ type: 'plugin_disabled', plugin: await host.setEnabled(params.plugin_id, false) }));
  router.register('plugin.action.list', async (params) => ({ type: 'plugin_action_list', actions: await host.actions(params.plugin_id) }));
  router.register('plugin.action.invoke', async (params) => ({
    type: 'plugin_action_invoked',
    ...(await host.invoke(params.action_id, params.plugin_id, params.context)),
  }));
  router.register('plugin.log.list', (params) => ({ type: 'plugin_log_list', logs: host.logs(params.plugin_id, params.limit) }));
  router.register('plugin.pane.open', async (params, { batch }) => {
    const { pluginId, entrypoint, pane } = await opening(host.openPane(params, batch));
    return { type: 'plugin_pane_opened', plugin_pane: { plugin_id: pluginId, entrypoint, pane: paneInfo(registry, pane) } };
  });
  router.register('plugin.pane.focus', (params, { batch }) => {
    const { pluginId, entrypoint, pane } = host.focusPane(params.pane_id, batch);
    return { type: 'plugin_pane_focused', plugin_pane: { plugin_id: pluginId, entrypoint, pane: paneInfo(registry, pane) } };
  });
  router.register('plugin.pane.close', (params, { batch }) => {
    host.closePane(params.pane_id, batch);
    return { type: 'plugin_pane_closed', pane_id: params.pane_id };
  });
  return host;
}
