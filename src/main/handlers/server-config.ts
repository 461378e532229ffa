/**
 * `server.agent_manifests`, `server.reload_agent_manifests` (docs/protocol.md §10.8) and
 * `server.reload_config` (§5): herdr's answers about what the server reads from its user's
 * configuration directory.
 */
import type { AgentManifests } from '../agent-manifests.js';
import type { Router } from '../router.js';

/** Why `server.reload_config` changes nothing here: the server's settings are its flags. */
const NO_CONFIG_FILE = [
  'this server reads no configuration file, so nothing was reloaded: its settings are the flags `herdr server` was started with (--cols, --rows, --shell, --worktrees-dir, --workers, …), read once at start; restart the server to change them',
  'agent detection manifests are read again by server.reload_agent_manifests (herdr server reload-agent-manifests)',
];

export function registerServerConfigHandlers(router: Router, manifests: AgentManifests): void {
  router.register('server.agent_manifests', () => ({
    type: 'agent_manifest_status',
    manifests: manifests.list(),
    ...(manifests.dir !== undefined ? { directory: manifests.dir } : {}),
  }));
  router.register('server.reload_agent_manifests', async () => ({
    type: 'agent_manifest_reload',
    manifests: await manifests.reload(),
  }));
  router.register('server.reload_config', () => ({
    type: 'config_reload',
    status: 'failed',
    diagnostics: NO_CONFIG_FILE,
  }));
}
