/**
 * Checks and environment for starting a pane's process, done before anything
 * is spawned so a bad request changes nothing and gets a clear error.
 * The program is exec'd directly (argv), never through a shell.
 */
import { randomUUID } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PANE_MARK_ENV } from '../os/pane-processes.js';

/** The CLI of this installation (dist/src/main/ → bin/), for integrations that shell out to `herdr`. */
export const HERDR_BIN_PATH = fileURLToPath(new URL('../../../bin/herdr.js', import.meta.url));

/** Why `cwd` cannot be a pane's directory, or undefined when it can. */
export function directoryProblem(cwd: string): string | undefined {
  try {
    if (!statSync(cwd).isDirectory()) return `cwd ${cwd} is not a directory`;
    accessSync(cwd, constants.X_OK);
    return undefined;
  } catch {
    return `cwd ${cwd} does not exist or cannot be entered`;
  }
}

/** Why `program` cannot be run with this PATH and cwd, or undefined when it can. */
export function programProblem(program: string, path: string | undefined, cwd: string): string | undefined {
  const candidates = program.includes('/')
    ? [isAbsolute(program) ? program : resolve(cwd, program)]
    : (path ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return undefined;
      }
    } catch {
      // try the next one
    }
  }
  return `command not found or not executable: ${program}`;
}

export interface PaneEnvIds {
  socketPath: string;
  currentSocketPath: string | undefined;
  workspaceStableId: string;
  paneStableId: string;
  tabStableId: string;
}

/**
 * The variables by which programs tell a CI job from a person (the `is-in-ci` convention:
 * `CI`, `CONTINUOUS_INTEGRATION`, any `CI_*`). A pane is an interactive terminal even when
 * the server runs in a CI job, and an Ink TUI that sees one of them draws nothing or exits
 * (gemini-cli exits 42), so a pane does not inherit them from the server; a client may still set them.
 */
function marksCiJob(name: string): boolean {
  return name === 'CI' || name === 'CONTINUOUS_INTEGRATION' || name.startsWith('CI_');
}

/** The server's environment (less its CI markers), the client's additions, then the HERDR_* values nobody overrides. */
export function paneEnvironment(clientEnv: Record<string, string> | undefined, ids: PaneEnvIds): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !marksCiJob(name)) env[name] = value;
  env.TERM = 'xterm-256color';
  Object.assign(env, clientEnv);
  env.HERDR_ENV = '1';
  env.HERDR_SOCKET_PATH = ids.socketPath;
  // For a current-protocol client run in the pane (docs/protocol.md §15.1); absent when the server has no such socket.
  if (ids.currentSocketPath === undefined) delete env.HERDR_CURRENT_SOCKET_PATH;
  else env.HERDR_CURRENT_SOCKET_PATH = ids.currentSocketPath;
  env.HERDR_WORKSPACE_ID = ids.workspaceStableId;
  env.HERDR_PANE_ID = ids.paneStableId;
  env.HERDR_TAB_ID = ids.tabStableId;
  env.HERDR_BIN_PATH = HERDR_BIN_PATH;
  // Every process started from the pane inherits it, so none outlives the pane (os/pane-processes.ts).
  env[PANE_MARK_ENV] = randomUUID();
  return env;
}
