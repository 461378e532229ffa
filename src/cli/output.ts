/** How CLI commands send one request and report its outcome. */
import { isErrorResponse } from '../protocol/envelope.js';
import type { MethodInput, MethodName, MethodResults } from '../protocol/methods.js';
import { request } from './client.js';
import { EXIT } from './exit-codes.js';

export interface SocketOption {
  socket?: string;
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
    response = await request(method, params, { id, ...(options.socket ? { socketPath: options.socket } : {}) });
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
