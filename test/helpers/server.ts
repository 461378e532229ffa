/**
 * Starts a real herdr server (the `herdr server` command, in a child process)
 * on a private temporary socket, and talks to it over that socket.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { HerdrConnection, call, request } from '../../src/cli/client.js';
import type { ResponseEnvelope } from '../../src/protocol/envelope.js';
import type { MethodInput, MethodName, MethodResults } from '../../src/protocol/methods.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const HERDR_BIN = join(REPO_ROOT, 'bin', 'herdr.js');

export interface StartOptions {
  workers?: number;
  /** Extra environment for the server (and so for its panes). */
  env?: Record<string, string>;
  /** Use this socket path instead of a fresh one. */
  socketPath?: string;
  shell?: string;
}

export class TestServer {
  stderr = '';
  private exitCode: number | null | undefined;
  private readonly exited: Promise<void>;

  constructor(
    readonly socketPath: string,
    readonly dir: string,
    readonly child: ChildProcess,
  ) {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) =>
      child.on('exit', (code) => {
        this.exitCode = code;
        resolve();
      }),
    );
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  call<M extends MethodName>(method: M, params: MethodInput<M>): Promise<MethodResults[M]> {
    return call(method, params, { socketPath: this.socketPath, id: `test:${method}` });
  }

  request(method: string, params: object, id = 'test'): Promise<ResponseEnvelope> {
    return request(method, params, { socketPath: this.socketPath, id });
  }

  keepAlive(): Promise<HerdrConnection> {
    return HerdrConnection.open(this.socketPath);
  }

  /** Waits for the process to end; resolves with its exit code. */
  async waitExit(timeoutMs = 15_000): Promise<number | null | undefined> {
    await Promise.race([this.exited, sleep(timeoutMs)]);
    return this.exitCode;
  }

  async stop(): Promise<void> {
    if (this.running) {
      await this.request('server.stop', {}).catch(() => undefined);
      if ((await this.waitExit(10_000)) === undefined) this.child.kill('SIGKILL');
      await this.exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await sleep(25);
  }
}

export function tempDir(prefix = 'herdr-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Spawns `herdr server` and waits until it answers ping. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dir = tempDir();
  const socketPath = options.socketPath ?? join(dir, 'herdr.sock');
  const args = [HERDR_BIN, 'server', '--socket', socketPath, '--shell', options.shell ?? '/bin/sh'];
  if (options.workers !== undefined) args.push('--workers', String(options.workers));
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { ...process.env, PS1: '$ ', ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const server = new TestServer(socketPath, dir, child);
  await eventually(
    async () => {
      if (!server.running) throw new Error(`server exited: ${server.stderr}`);
      return (await server.call('ping', {})).type === 'pong';
    },
    'the server to answer ping',
  );
  return server;
}

/**
 * Writes raw bytes on a fresh connection and collects every line the server
 * sends until it closes the connection (or `timeoutMs` passes).
 */
export function rawExchange(
  socketPath: string,
  payload: string | Buffer,
  timeoutMs = 5_000,
): Promise<{ lines: string[]; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ lines: splitLines(data), closedByServer: false });
    }, timeoutMs);
    socket.on('connect', () => socket.write(payload));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while we still write a huge line.
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ lines: splitLines(data), closedByServer: true });
    });
  });
}

function splitLines(data: string): string[] {
  return data.split('\n').filter((line) => line.trim() !== '');
}

/** Creates a workspace and returns its first pane's compact id. */
export async function newWorkspace(
  server: TestServer,
  params: MethodInput<'workspace.create'> = {},
): Promise<{ workspaceId: string; paneId: string }> {
  const { workspace } = await server.call('workspace.create', { cwd: server.dir, ...params });
  return { workspaceId: workspace.workspace_id, paneId: `${workspace.workspace_id}-1` };
}

/** Reads a pane until `predicate` holds for its text. */
export function readUntil(
  server: TestServer,
  paneId: string,
  predicate: (text: string) => boolean,
  params: { source?: 'visible' | 'recent'; lines?: number; strip_ansi?: boolean } = {},
  timeoutMs = 10_000,
): Promise<string> {
  return eventually(
    async () => {
      const { read } = await server.call('pane.read', { pane_id: paneId, source: 'recent', ...params });
      return predicate(read.text) ? read.text : undefined;
    },
    `pane ${paneId} text to match`,
    timeoutMs,
  );
}

/** Runs the `herdr` CLI against `server` (its socket appended), from the server's directory. */
export function herdrCli(server: TestServer): (...args: string[]) => Promise<{ stdout: string; stderr: string }> {
  const run = promisify(execFile);
  return (...args) => run(process.execPath, [HERDR_BIN, ...args, '--socket', server.socketPath], { cwd: server.dir });
}
