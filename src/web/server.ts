/**
 * `herdr web` (docs/web.md): an HTTP server for one page and its WebSocket,
 * on 127.0.0.1 unless `--listen` names another address. It is a client of the
 * herdr servers it shows (the local socket, `--host`s over ssh), like
 * `herdr watch` or `herdr mcp`: every action the page takes is an API call.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { HostTarget } from '../client/transport.js';
import { SECURITY_HEADERS, loadAssets } from './assets.js';
import { Gate, newToken, withoutToken } from './auth.js';
import { FleetHub } from './fleet-hub.js';
import { allowedMethods } from './methods.js';
import { MAX_MESSAGE_BYTES, PageSession } from './page-session.js';

export const DEFAULT_PORT = 7400;
export const DEFAULT_LISTEN = '127.0.0.1';
export const DEFAULT_FPS = 10;

export interface WebOptions {
  targets: readonly HostTarget[];
  port?: number;
  listen?: string;
  readOnly?: boolean;
  fps?: number;
  /** A fixed token (tests, scripts); a new random one by default. */
  token?: string;
  version: string;
}

export interface RunningWeb {
  /** The URL to open, token included. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address);
}

export async function startWeb(options: WebOptions): Promise<RunningWeb> {
  const assets = loadAssets();
  const listen = options.listen ?? DEFAULT_LISTEN;
  const token = options.token ?? newToken();
  const hub = new FleetHub(options.targets);
  const readOnly = options.readOnly ?? false;
  const pageOptions = { version: options.version, readOnly, fps: options.fps ?? DEFAULT_FPS, methods: allowedMethods(readOnly), cwd: process.cwd(), home: homedir() };
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const sessions = new Set<PageSession>();
  let gate: Gate | undefined;

  const http: Server = createServer((request, response) => {
    const verdict = gate?.check(request, false);
    if (!gate || !verdict?.ok) return refuse(response, verdict && !verdict.ok ? verdict : { status: 503, reason: 'starting' });
    if (verdict.fromQuery) {
      response.writeHead(303, { ...SECURITY_HEADERS, 'set-cookie': gate.cookieHeader(), location: withoutToken(request.url) });
      return response.end();
    }
    const asset = request.method === 'GET' || request.method === 'HEAD' ? assets.get(new URL(request.url ?? '/', 'http://x').pathname) : undefined;
    if (!asset) return refuse(response, { status: 404, reason: 'not found' });
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.type, 'content-length': asset.body.length });
    response.end(request.method === 'HEAD' ? undefined : asset.body);
  });

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const verdict = gate?.check(request, true);
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (!gate || !verdict?.ok || path !== '/ws') {
      const status = verdict && !verdict.ok ? verdict.status : 404;
      socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const session = new PageSession(webSocket, hub, pageOptions);
      sessions.add(session);
      webSocket.on('close', () => sessions.delete(session));
    });
  });

  const wantedPort = options.port ?? DEFAULT_PORT;
  await new Promise<void>((resolve, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) => {
      hub.stop();
      reject(error.code === 'EADDRINUSE' ? new Error(`${listen}:${wantedPort} is taken (another herdr web?): choose another with --port, or --port 0 for any free one`) : error);
    });
    http.listen(wantedPort, listen, () => {
      http.removeAllListeners('error');
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  gate = new Gate(token, port, listen);
  hub.start();
  const urlHost = listen.includes(':') ? `[${listen}]` : listen;
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    port,
    close: async () => {
      for (const session of sessions) session.close();
      for (const client of sockets.clients) client.terminate();
      hub.stop();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function refuse(response: ServerResponse, { status, reason }: { status: number; reason: string }): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  response.end(`${reason}\n`);
}
