/**
 * Where a caller on this machine stands (the CLI, `herdr mcp`), for a pane it starts: its
 * directory, and the PATH its shell searches. A server started elsewhere (a service, another
 * terminal) would otherwise start the program in its own directory and look it up on its own
 * PATH (docs/protocol.md §11, docs/mcp.md).
 */
import { resolve } from 'node:path';

/** The new pane's directory: `--cwd` (resolved here, against the caller's), else the caller's. */
export function callerCwd(cwd: string | undefined): string {
  return resolve(cwd ?? process.cwd());
}

/** The new pane's environment: the caller's PATH, then its `--env` assignments (which may set PATH). */
export function callerEnv(env: Record<string, string> | undefined): Record<string, string> | undefined {
  const path = process.env.PATH;
  if (path === undefined || path === '') return env;
  return { PATH: path, ...env };
}
