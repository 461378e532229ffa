/**
 * The herdr server: listens on the unix socket, turns lines into requests for
 * the router, writes responses, and shuts down in order (no new connections,
 * panes ended, socket file removed).
 */
import { chmodSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import type { Dialect } from '../protocol/dialect.js';
import type { ResponseEnvelope } from '../protocol/envelope.js';
import { Connection, type ConnectionHandler, MAX_LINE_BYTES } from './connection.js';
import { METHODS, isMethodName } from '../protocol/methods.js';
import { ServerCore, type ServerCoreOptions } from './core.js';
import { EventBatch } from './event-hub.js';
import { registerAgentReportHandlers } from './handlers/agent-reports.js';
import { registerAgentHandlers } from './handlers/agents.js';
import { registerDebugHandlers } from './handlers/debug.js';
import { registerLayoutHandlers } from './handlers/layouts.js';
import { registerNavigationHandlers } from './handlers/navigation.js';
import { registerPaneScrollHandler } from './handlers/pane-scroll.js';
import { registerPaneDetailHandlers } from './handlers/pane-details.js';
import { registerPaneHandlers } from './handlers/pane.js';
import { registerPaneResizeHandler } from './handlers/pane-resize.js';
import { pluginPlaces, registerPluginHandlers } from './handlers/plugins.js';
import type { PluginHost } from './plugins/plugin-host.js';
import { registerServerHandlers } from './handlers/server.js';
import { registerServerConfigHandlers } from './handlers/server-config.js';
import { registerSessionSnapshotHandler } from './handlers/session-snapshot.js';
import { registerScreenOnlyHandlers } from './handlers/screen-only.js';
import { registerPaneExtraHandlers } from './handlers/pane-extras.js';
import { registerNotificationHandlers } from './handlers/notifications.js';
import { registerStreamHandlers } from './handlers/stream.js';
import { registerApprovalHandlers } from './handlers/approvals.js';
import { registerRuleHandlers } from './handlers/rules.js';
import { registerIntegrationHandlers } from './handlers/integrations.js';
import { LoopbackCaller } from './rules/loopback-caller.js';
import { registerSubscriptionHandlers } from './handlers/subscriptions.js';
import { registerEventWaitHandler } from './handlers/event-wait.js';
import { registerWaitHandlers } from './handlers/waits.js';
import { registerTabHandlers } from './handlers/tabs.js';
import { registerWorkspaceHandlers } from './handlers/workspace.js';
import { registerWorktreeHandlers } from './handlers/worktrees.js';
import { LoopDelayMonitor } from './loop-delay.js';
import { RequestLineError, Router, parseRequestLine } from './router.js';
import { claimSocketPath, removeSocketFile, socketInode } from './socket-file.js';
import { restoreAtStart } from './persistence/startup.js';

/** The environment variable that makes `herdr server` register the fault-injection methods (handlers/debug.ts). */
export { DEBUG_FAULTS_ENV } from './handlers/debug.js';

export type ServerOptions = ServerCoreOptions & {
  /** Lines for the server's log (startup notes). */
  log: (message: string) => void;
  /** Where `worktree.create` puts worktrees given no path (default: where-to-put-it.ts). */
  worktreesDir?: string | undefined;
};

export class HerdrServer implements ConnectionHandler {
  private readonly connections = new Set<Connection>();
  private readonly router = new Router();
  private readonly loopDelay = new LoopDelayMonitor();
  readonly core: ServerCore;
  /** herdr's plugins (docs/protocol.md §16): their startup hooks run once the server listens. */
  private readonly plugins: PluginHost;
  private readonly listeners: Array<{ server: Server; path: string; inode: number | undefined }> = [];
  private stopping: Promise<void> | undefined;
  private readonly stoppedCallbacks: Array<() => void> = [];

  private constructor(readonly options: ServerOptions) {
    const core = new ServerCore(options, this.loopDelay);
    this.core = core;
    registerServerHandlers(this.router, {
      stats: () => core.stats(this.connections.size),
      stop: () => void this.stop(),
    });
    registerWorkspaceHandlers(this.router, core);
    registerTabHandlers(this.router, core);
    registerPaneHandlers(this.router, core);
    registerPaneResizeHandler(this.router, core);
    registerAgentReportHandlers(this.router, core);
    registerSubscriptionHandlers(this.router, {
      registry: core.registry,
      events: core.events,
      open: core.open,
      matchers: core.matchers,
      shards: core.shards,
      panes: core.panes,
      restoredEvent: () => core.restoredEvent,
      notifications: core.notifications,
    });
    registerEventWaitHandler(this.router, core);
    registerStreamHandlers(this.router, core);
    registerWaitHandlers(this.router, core);
    registerAgentHandlers(this.router, core);
    registerApprovalHandlers(this.router, core);
    registerRuleHandlers(this.router, core);
    registerIntegrationHandlers(this.router);
    registerLayoutHandlers(this.router, core);
    registerNavigationHandlers(this.router, core);
    registerPaneScrollHandler(this.router, core);
    registerPaneDetailHandlers(this.router, core);
    registerWorktreeHandlers(this.router, core, { worktreesDir: options.worktreesDir });
    this.plugins = registerPluginHandlers(this.router, {
      registry: core.registry,
      events: core.events,
      panes: core.panes,
      tabs: core.tabs,
      navigation: core.navigation,
      socketPath: options.socketPath,
      currentSocketPath: options.currentSocketPath,
      places: pluginPlaces(options.persistence?.paths),
    });
    registerSessionSnapshotHandler(this.router, core);
    registerServerConfigHandlers(this.router, core.agentManifests);
    registerScreenOnlyHandlers(this.router);
    registerPaneExtraHandlers(this.router, core);
    registerNotificationHandlers(this.router, core);
    if (options.shards.debugFaults) registerDebugHandlers(this.router, core);
    const unhandled = this.router.unhandled();
    if (unhandled.length > 0) throw new Error(`methods without a handler: ${unhandled.join(', ')}`);
  }

  /** Claims the socket path and listens; throws StartupError when the path is not ours to take. */
  static async start(options: ServerOptions): Promise<HerdrServer> {
    await claimSocketPath(options.socketPath);
    if (options.currentSocketPath !== undefined) await claimSocketPath(options.currentSocketPath);
    const server = new HerdrServer(options);
    // Before any pane starts: a restored agent is detected by the user's manifests too.
    await server.core.agentManifests.start(options.log);
    // Before listening: no client sees a half-restored server.
    const persistence = options.persistence;
    if (persistence) await restoreAtStart(server.core, persistence.paths, persistence, options.log);
    await server.listen(options.socketPath, '0.2.0');
    if (options.currentSocketPath !== undefined) await server.listen(options.currentSocketPath, 'current');
    // Rules act through the socket, as a client would: from now on they can.
    server.core.rules.start(new LoopbackCaller(options.socketPath));
    void server.plugins.runStartupHooks();
    return server;
  }

  /** Called once the server has stopped (by request or signal). */
  onStopped(callback: () => void): void {
    this.stoppedCallbacks.push(callback);
  }

  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  // ConnectionHandler

  onLine(connection: Connection, rawLine: string): void {
    const line = rawLine.trim();
    if (line === '') {
      if (!connection.keepAlive) {
        connection.stopReading();
        connection.end();
      }
      return;
    }
    connection.requestRead();
    this.loopDelay.asked();
    let request;
    try {
      request = parseRequestLine(line);
    } catch (error) {
      if (!connection.keepAlive) connection.stopReading();
      const id = error instanceof RequestLineError ? error.requestId : '';
      const message = error instanceof Error ? error.message : String(error);
      this.respond(connection, { id, error: { code: 'invalid_request', message } });
      return;
    }
    if (request.dialect) connection.dialect = request.dialect;
    if (request.keepAlive) connection.keepAlive = true;
    else if (!connection.keepAlive) connection.stopReading();
    this.dispatch(connection, request).catch((error: unknown) => {
      // The router answers every failure of a handler itself; what is left (publishing the request's
      // events, its after-response actions) is a bug, logged, never the end of the server.
      console.error(`herdr: after answering ${request.method.slice(0, 100)}:`, error);
    });
  }

  onLineTooLong(connection: Connection): void {
    connection.send({
      id: '',
      error: { code: 'invalid_request', message: `request line too long (limit ${MAX_LINE_BYTES} bytes)` },
    });
    connection.end();
  }

  onClose(connection: Connection): void {
    this.connections.delete(connection);
  }

  private async dispatch(connection: Connection, request: ReturnType<typeof parseRequestLine>): Promise<void> {
    const batch = new EventBatch(this.core.events);
    const after: Array<() => void> = [];
    const response = await this.router.dispatch(request, {
      batch,
      connection,
      dialect: connection.dialect,
      afterResponse: (action) => after.push(action),
    });
    this.respond(connection, response);
    // A method outside the table (debug faults) changes nothing a snapshot keeps.
    if (isMethodName(request.method) && METHODS[request.method].changesState) this.core.changed();
    batch.flush();
    for (const action of after) action();
  }

  private respond(connection: Connection, response: ResponseEnvelope): void {
    connection.answer(response);
    if (!connection.keepAlive && !connection.streaming) connection.end();
  }

  /** Listens on `path`; its clients speak `dialect` until a request says otherwise. */
  private listen(path: string, dialect: Dialect): Promise<void> {
    // Half-open: a client that closes its sending side after its request still gets the answer.
    const listener = createServer({ allowHalfOpen: true }, (socket) => {
      if (this.stopping) return void socket.destroy();
      this.connections.add(new Connection(socket, this, dialect));
    });
    return new Promise((resolve, reject) => {
      // Socket created 0600 from the start (umask), then made sure of (chmod).
      const umask = process.umask(0o177);
      listener.once('error', (error) => {
        process.umask(umask);
        reject(error);
      });
      listener.listen(path, () => {
        process.umask(umask);
        chmodSync(path, 0o600);
        this.listeners.push({ server: listener, path, inode: socketInode(path) });
        resolve();
      });
    });
  }

  private async shutdown(): Promise<void> {
    for (const { server, path, inode } of this.listeners) {
      server.close();
      removeSocketFile(path, inode);
    }
    await this.core.stop();
    for (const connection of this.connections) connection.end();
    this.loopDelay.stop();
    for (const callback of this.stoppedCallbacks) callback();
  }
}
