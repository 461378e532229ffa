/** How CLI commands send one request and print its outcome. */
import type { SuccessResponse } from '../protocol/envelope.js';
import type { MethodInput, MethodName, MethodResults } from '../protocol/methods.js';
import { request } from '../client/client.js';
import { successOrThrow } from '../client/errors.js';
import { type Dialer, dialerFor } from '../client/transport.js';
import { exitWith } from './failure.js';
import { personReadsStdout } from './reader.js';

export interface SocketOption {
  socket?: string;
  /** `[user@]host`: the server there, over ssh (HERDR_HOST when absent). */
  host?: string;
  /** The command that runs ssh (HERDR_SSH_COMMAND when absent; default `ssh -T`). */
  sshCommand?: string;
}

/** The id params a CLI command may pass as `host/id` (docs/remote.md): the part before the slash picks the host. */
const ID_PARAMS = ['pane_id', 'workspace_id', 'target_pane_id', 'target', 'tab_id'] as const;

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

/**
 * Sends `method` with the CLI's request id `cli:<group>:<command>`. A success
 * goes to `print` as the server wrote it (by default printed whole, as JSON);
 * a failure ends the command (exitWith).
 */
export async function send<M extends MethodName>(
  id: string,
  method: M,
  params: MethodInput<M>,
  options: SocketOption,
  print: (response: { id: string; result: MethodResults[M] }) => unknown = printJson,
): Promise<void> {
  let response: SuccessResponse;
  try {
    const target = { ...(params as Record<string, unknown>) };
    const dialer = targetOf(options, target);
    response = successOrThrow(await request(method, target, { id, dialer }));
  } catch (error) {
    exitWith(error);
  }
  // Printed as it came, not checked against the result schema: the CLI passes answers on.
  await print(response as { id: string; result: MethodResults[M] });
}

/**
 * How a command's success is printed (docs/protocol.md §11): for a person at a terminal,
 * the text `show` makes of the result (a table, `key: value` lines, a sentence); for a
 * program (stdout not a terminal) or with `--json`, the whole answer line as the server
 * wrote it, unchanged.
 */
export function shown<R>(show: (result: R) => string | Promise<string>): (response: { id: string; result: R }) => Promise<void> {
  return async (response) => {
    if (!personReadsStdout()) return printJson(response);
    process.stdout.write(await show(response.result));
  };
}

/**
 * One more request for what a person is shown (a new workspace's first pane, a
 * workspace's stable id): its result, or undefined when it fails (the text then
 * leaves that out; the command itself succeeded).
 */
export async function lookUp<M extends MethodName>(id: string, method: M, params: MethodInput<M>, options: SocketOption): Promise<MethodResults[M] | undefined> {
  try {
    const target = { ...(params as Record<string, unknown>) };
    const dialer = targetOf(options, target);
    return successOrThrow(await request(method, target, { id, dialer })).result as MethodResults[M];
  } catch {
    return undefined;
  }
}

/** A param only when its flag was given: `{...given('lines', flags.lines)}`. */
export const given = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** For commands whose success says nothing (typing, hook reports). */
export const printNothing = (): void => undefined;

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
