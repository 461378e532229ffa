/** How CLI commands send one request and report its outcome. */
import { isErrorResponse } from '../protocol/envelope.js';
import type { MethodInput, MethodName, MethodResults } from '../protocol/methods.js';
import { request } from '../client/client.js';
import { type Dialer, dialerFor } from '../client/transport.js';
import { EXIT } from './exit-codes.js';

export interface SocketOption {
  socket?: string;
  /** `[user@]host`: the server there, over ssh (HERDR_HOST when absent). */
  host?: string;
  /** The command that runs ssh (HERDR_SSH_COMMAND when absent; default `ssh -T`). */
  sshCommand?: string;
}

/** The id params a CLI command may pass as `host/id` (docs/remote.md): the part before the slash picks the host. */
const ID_PARAMS = ['pane_id', 'workspace_id', 'target_pane_id'] as const;

/**
 * Where a command's request goes: `--host`, else a `host/id` id (which is then
 * sent without its host), else HERDR_HOST, else the local socket.
 */
export function targetOf(options: SocketOption, params: Record<string, unknown> = {}): Dialer {
  let host = options.host;
  for (const name of ID_PARAMS) {
    const value = params[name];
    if (typeof value !== 'string') continue;
    const slash = value.indexOf('/');
    if (slash <= 0) continue;
    host ??= value.slice(0, slash);
    params[name] = value.slice(slash + 1);
  }
  host ??= process.env.HERDR_HOST || undefined;
  return dialerFor({
    ...(options.socket ? { socketPath: options.socket } : {}),
    ...(host ? { host, sshCommand: options.sshCommand ?? process.env.HERDR_SSH_COMMAND } : {}),
  });
}

export function fail(message: string): never {
  process.stderr.write(`herdr: ${message}\n`);
  process.exit(EXIT.failure);
}

/**
 * Sends `method` with the CLI's request id `cli:<group>:<command>`. An error
 * response is printed whole on stderr (exit 1); a success goes to `print`.
 */
export async function send<M extends MethodName>(
  id: string,
  method: M,
  params: MethodInput<M>,
  options: SocketOption,
  print: (response: { id: string; result: MethodResults[M] }) => void = printJson,
): Promise<void> {
  let response;
  try {
    const target = { ...(params as Record<string, unknown>) };
    const dialer = targetOf(options, target);
    response = await request(method, target, { id, dialer });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (isErrorResponse(response)) {
    process.stderr.write(`${JSON.stringify(response)}\n`);
    process.exit(EXIT.failure);
  }
  print(response as { id: string; result: MethodResults[M] });
}

/** For commands whose success says nothing (typing, hook reports). */
export const printNothing = (): void => undefined;

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
