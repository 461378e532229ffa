/**
 * The server calling itself the way any client does: one kept-alive connection to its own
 * socket, one request line per call. Rules act through it, so what a rule does passes the
 * same validation, handlers, events and snapshots as a client's request, and nothing a
 * rule can do is out of a client's reach. (`src/main` may not import the client library;
 * this is the smallest client there is: lines out, answers matched by id.)
 */
import { type Socket, createConnection } from 'node:net';
import { ProtocolError, isErrorCode } from '../../protocol/errors.js';
import type { MethodInput, MethodName, MethodResults } from '../../protocol/methods.js';

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class LoopbackCaller {
  private socket: Socket | undefined;
  private buffer = '';
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  constructor(private readonly socketPath: string) {}

  call<M extends MethodName>(method: M, params: MethodInput<M>): Promise<MethodResults[M]> {
    if (this.closed) return Promise.reject(new ProtocolError('server_unavailable', 'the server is stopping'));
    const id = `rule-${this.nextId++}`;
    const socket = this.connected();
    return new Promise<MethodResults[M]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      socket.write(`${JSON.stringify({ id, method, params, keep_alive: true })}\n`);
    });
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connected(): Socket {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = createConnection(this.socketPath);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.received(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      this.buffer = '';
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        pending.reject(new ProtocolError('server_unavailable', 'the connection to the server closed'));
      }
    });
    this.socket = socket;
    return socket;
  }

  private received(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      let response: { id?: string; result?: unknown; error?: { code?: string; message?: string } };
      try {
        response = JSON.parse(line) as typeof response;
      } catch {
        continue; // never written by the server; nothing to answer
      }
      this.answer(response);
    }
  }

  private answer(response: { id?: string; result?: unknown; error?: { code?: string; message?: string } }): void {
    const pending = response.id === undefined ? undefined : this.pending.get(response.id);
    if (!pending || response.id === undefined) return;
    this.pending.delete(response.id);
    if (!response.error) return pending.resolve(response.result);
    const code = isErrorCode(response.error.code) ? response.error.code : 'internal_error';
    pending.reject(new ProtocolError(code, response.error.message ?? code));
  }
}
