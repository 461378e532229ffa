import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * herdr's configuration directory, shared by the server and the CLI: `$XDG_CONFIG_HOME/herdr`
 * (when set and not empty, as herdr reads it), else `~/.config/herdr`.
 */
export function herdrConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'herdr');
}

/** Where herdr keeps a user's agent detection manifests, one `<agent>.toml` each (docs/protocol.md §10.8). */
export function defaultAgentManifestDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(herdrConfigDir(env), 'agent-detection');
}
