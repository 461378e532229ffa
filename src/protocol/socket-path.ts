import { join } from 'node:path';

/**
 * The socket path resolution of docs/protocol.md §1, shared by the server and the CLI.
 * A variable that is set counts even when empty (as in herdr).
 */
export function resolveSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HERDR_SOCKET_PATH !== undefined) return env.HERDR_SOCKET_PATH;
  if (env.XDG_RUNTIME_DIR !== undefined) return join(env.XDG_RUNTIME_DIR, 'herdr.sock');
  if (env.XDG_CONFIG_HOME !== undefined) return join(env.XDG_CONFIG_HOME, 'herdr', 'herdr.sock');
  if (env.HOME !== undefined) return join(env.HOME, '.config', 'herdr', 'herdr.sock');
  return '/tmp/herdr.sock';
}

/**
 * Where a server also listens for clients of herdr's current protocol (docs/protocol.md
 * §15.1): beside its socket, `herdr.sock` → `herdr-current.sock`.
 */
export function currentSocketPathFor(socketPath: string): string {
  return `${socketPath.endsWith('.sock') ? socketPath.slice(0, -'.sock'.length) : socketPath}-current.sock`;
}
