/**
 * The typed client library of the herdr socket API, used by the CLI, the tests
 * and the bench, and importable by any Node program.
 *
 * - `request` / `call`: one request per connection, as herdr 0.2.0 clients do.
 * - `HerdrConnection`: one keep-alive connection (docs/protocol.md §1 EXT) for many
 *   requests, answers correlated by id.
 * - `HerdrClient`: the library's front: either of the above, and subscriptions.
 */
import type { Duplex } from 'node:stream';
import type { ReadSource } from '../protocol/enums.js';
import type { ResponseEnvelope } from '../protocol/envelope.js';
import type { TypedEventLine } from '../protocol/events.js';
import type { MethodInput, MethodName, MethodResults, SubscriptionSpec } from '../protocol/methods.js';
import type { AgentState } from '../protocol/objects.js';
import { resolveSocketPath } from '../protocol/socket-path.js';
import { resultOf } from './answer-check.js';
import { ConnectionError, HerdrError, closedUnanswered, connectionFailure } from './errors.js';
import { type MethodGroup, methodGroup } from './method-groups.js';
import { PaneOutputStream } from './pane-output-stream.js';
import { Subscription } from './subscription.js';
import { type Dialer, type TargetOptions, asDialer, dialerFor } from './transport.js';
import { jsonLine, lineReader } from './wire.js';

export { ConnectionError, HerdrError, lineReader, PaneOutputStream, Subscription };

/** Where a one-shot request goes: the local socket (default), or `dialer` (a remote host over ssh). */
export interface RequestOptions extends TargetOptions {
  id?: string;
  dialer?: Dialer;
}

/** Sends one request on its own connection and returns the raw response envelope. */
export async function request(method: string, params: object, options: RequestOptions = {}): Promise<ResponseEnvelope> {
  const dialer = options.dialer ?? dialerFor(options);
  const id = options.id ?? `${method}:${process.pid}:${Date.now()}`;
  const requestLine = await jsonLine({ id, method, params });
  const link = await dialer.dial();
  return new Promise((resolve, reject) => {
    let answered = false;
    link.write(requestLine);
    lineReader(link, (line) => {
      if (answered) return;
      answered = true;
      link.end();
      try {
        resolve(JSON.parse(line) as ResponseEnvelope);
      } catch {
        reject(new ConnectionError(`${dialer.where} sent a line that is not JSON: ${line.slice(0, 200)}`));
      }
    });
    link.on('error', (error) => reject(connectionFailure(dialer.where, error)));
    link.on('close', () => {
      if (!answered) reject(closedUnanswered(dialer.where));
    });
  });
}

/** One request on its own connection; resolves with the result, or throws HerdrError (the server said no) or ConnectionError. */
export async function call<M extends MethodName>(method: M, params: MethodInput<M>, options: RequestOptions = {}): Promise<MethodResults[M]> {
  const dialer = options.dialer ?? dialerFor(options);
  return resultOf(method, await request(method, params, { ...options, dialer }), dialer.where);
}

/** A keep-alive connection: many requests, in flight at once, answered by id. */
export class HerdrConnection {
  private readonly pending = new Map<string, { resolve(r: ResponseEnvelope): void; reject(e: Error): void }>();
  private nextId = 1;
  private closedError: Error | undefined;
  private readonly closedListeners: Array<() => void> = [];

  private constructor(
    private readonly socket: Duplex,
    private readonly where: string,
  ) {
    lineReader(socket, (line) => this.receive(line));
    socket.on('error', (error) => this.fail(connectionFailure(where, error)));
    socket.on('close', () => this.fail(new ConnectionError(`${where} closed the connection`)));
  }

  /** A kept-alive connection to the local socket (a path), or through `dialer`. */
  static async open(target: string | Dialer = resolveSocketPath()): Promise<HerdrConnection> {
    const dialer = asDialer(target);
    return new HerdrConnection(await dialer.dial(), dialer.where);
  }

  async request(method: string, params: object): Promise<ResponseEnvelope> {
    const id = `k${this.nextId++}`;
    const line = await jsonLine({ id, method, params, keep_alive: true });
    if (this.closedError) throw this.closedError;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(line);
    });
  }

  async call<M extends MethodName>(method: M, params: MethodInput<M>): Promise<MethodResults[M]> {
    return resultOf(method, await this.request(method, params), this.where);
  }

  close(): void {
    this.socket.end();
  }

  /** Calls back once the connection is gone (the server closed it, or ssh ended): requests on it fail from then on. */
  onClosed(listener: () => void): void {
    if (this.closedError) listener();
    else this.closedListeners.push(listener);
  }

  private receive(line: string): void {
    let response: ResponseEnvelope;
    try {
      response = JSON.parse(line) as ResponseEnvelope;
    } catch {
      return this.fail(new ConnectionError(`${this.where} sent a line that is not JSON`));
    }
    const waiter = this.pending.get(response.id);
    if (!waiter) return;
    this.pending.delete(response.id);
    waiter.resolve(response);
  }

  private fail(error: Error): void {
    this.closedError ??= error;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    for (const listener of this.closedListeners.splice(0)) listener();
  }
}

/** The event line `waitForAgentState` resolves with. */
export type AgentStateLine = Extract<TypedEventLine, { event: 'pane.agent_state_changed' }>;

export interface HerdrClientOptions extends TargetOptions {
  /** Connections made this way (overrides socketPath and host). */
  dialer?: Dialer;
  /** Default: resolved as the server resolves it (`HERDR_SOCKET_PATH`, `$XDG_RUNTIME_DIR/herdr.sock`, …). Ignored with `host`. */
  socketPath?: string;
  /** One kept-alive connection for every request (default), or a connection per request. */
  keepAlive?: boolean;
}

/**
 * The library's client: `call(method, params)` resolves to that method's
 * result or rejects with HerdrError (the server said no) or ConnectionError.
 * With keepAlive (the default) one connection is opened at the first call and
 * reused, answers matched by id; it is opened again after it is lost.
 */
export class HerdrClient {
  readonly socketPath: string;
  /** How connections are made: the local socket, or `host` over ssh. */
  readonly dialer: Dialer;
  /** Typed methods: `client.workspace.create({ cwd })` is `call('workspace.create', { cwd })`. */
  readonly workspace: MethodGroup<'workspace'>;
  readonly pane: MethodGroup<'pane'>;
  readonly events: MethodGroup<'events'>;
  readonly server: MethodGroup<'server'>;
  readonly agent: MethodGroup<'agent'>;
  readonly session: MethodGroup<'session'>;
  readonly layout: MethodGroup<'layout'>;
  readonly worktree: MethodGroup<'worktree'>;
  readonly tab: MethodGroup<'tab'>;
  readonly approvals: MethodGroup<'approvals'>;
  readonly rules: MethodGroup<'rules'>;
  readonly integration: MethodGroup<'integration'>;
  private readonly keepAlive: boolean;
  private connection: Promise<HerdrConnection> | undefined;

  constructor(options: HerdrClientOptions = {}) {
    this.socketPath = options.socketPath ?? resolveSocketPath();
    this.dialer = options.dialer ?? dialerFor({ ...options, socketPath: this.socketPath });
    this.keepAlive = options.keepAlive ?? true;
    const call = (method: MethodName, params: object) => this.call(method, params as MethodInput<typeof method>);
    this.workspace = methodGroup('workspace', call);
    this.pane = methodGroup('pane', call);
    this.events = methodGroup('events', call);
    this.server = methodGroup('server', call);
    this.agent = methodGroup('agent', call);
    this.session = methodGroup('session', call);
    this.layout = methodGroup('layout', call);
    this.worktree = methodGroup('worktree', call);
    this.tab = methodGroup('tab', call);
    this.approvals = methodGroup('approvals', call);
    this.rules = methodGroup('rules', call);
    this.integration = methodGroup('integration', call);
  }

  ping(): Promise<MethodResults['ping']> {
    return this.call('ping', {});
  }

  async call<M extends MethodName>(method: M, params: MethodInput<M>): Promise<MethodResults[M]> {
    if (!this.keepAlive) return call(method, params, { dialer: this.dialer });
    return (await (this.connection ??= this.connect())).call(method, params);
  }

  /** The kept-alive connection; forgotten the moment it fails to open or closes, so the next call opens another. */
  private connect(): Promise<HerdrConnection> {
    const forget = () => {
      if (this.connection === opening) this.connection = undefined;
    };
    const opening: Promise<HerdrConnection> = HerdrConnection.open(this.dialer).then(
      (connection) => {
        connection.onClosed(forget);
        return connection;
      },
      (error: unknown) => {
        forget();
        throw error;
      },
    );
    return opening;
  }

  /**
   * `events.subscribe` on a connection of its own: an async iterator of typed
   * event lines that ends when the connection closes; `lastSeq` is where to
   * resume from (`since`) after it was lost.
   */
  subscribe(subscriptions: SubscriptionSpec[], options: { since?: number; id?: string } = {}): Promise<Subscription> {
    return Subscription.open(this.dialer, subscriptions, options);
  }

  /**
   * `pane.stream` on a connection of its own: `started` holds the pane's size
   * and screen, then the iterator yields its output (base64), resizes,
   * resyncs and, last, its exit. Closing it ends the stream.
   */
  stream(paneId: string, options: { id?: string; look?: boolean } = {}): Promise<PaneOutputStream> {
    return PaneOutputStream.open(this.dialer, paneId, options);
  }

  /**
   * Resolves with the first line of the pane that matches (substring, or an
   * RE2 regex with `regex: true`), at once when one is already there; rejects
   * with HerdrError `timeout` after `timeoutMs` (default: waits until matched).
   */
  waitForOutput(
    paneId: string,
    match: string,
    options: { regex?: boolean; source?: ReadSource; lines?: number; timeoutMs?: number } = {},
  ): Promise<MethodResults['pane.wait_for_output']> {
    return this.call('pane.wait_for_output', {
      pane_id: paneId,
      source: options.source ?? 'recent',
      match: { type: options.regex ? 'regex' : 'substring', value: match },
      ...(options.lines === undefined ? {} : { lines: options.lines }),
      ...(options.timeoutMs === undefined ? {} : { timeout_ms: options.timeoutMs }),
    });
  }

  /**
   * Resolves with the `pane.agent_state_changed` line once the pane's agent is
   * in `state` (at once when it already is); rejects with HerdrError `timeout`
   * after `timeoutMs`, or ConnectionError when the server goes away first.
   */
  async waitForAgentState(paneId: string, state: AgentState, options: { timeoutMs?: number; id?: string } = {}): Promise<AgentStateLine> {
    const subscription = await this.subscribe(
      [{ type: 'pane.agent_state_changed', pane_id: paneId, state, initial: true }],
      options.id === undefined ? {} : { id: options.id },
    );
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            subscription.close();
          }, options.timeoutMs);
    try {
      for await (const line of subscription) {
        if (line.event === 'pane.agent_state_changed' && line.data.state === state) return line;
      }
    } finally {
      clearTimeout(timer);
      subscription.close();
    }
    if (timedOut) {
      throw new HerdrError({ id: 'waitForAgentState', error: { code: 'timeout', message: 'timed out waiting for agent state change' } });
    }
    throw new ConnectionError(`${this.dialer.where} closed the event stream`);
  }

  close(): void {
    const opening = this.connection;
    this.connection = undefined;
    void opening?.then((connection) => connection.close(), () => undefined);
  }
}
