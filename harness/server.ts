/**
 * A real herdr server (the `herdr server` command, in a child process) on a
 * private temporary socket, for the tests and the bench alike.
 */
import { currentSocketPathFor } from '../src/protocol/socket-path.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HerdrConnection, call, request } from '../src/client/client.js';
import type { ResponseEnvelope } from '../src/protocol/envelope.js';
import type { MethodInput, MethodName, MethodResults } from '../src/protocol/methods.js';
import { eventually } from './poll.js';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const HERDR_BIN = join(REPO_ROOT, 'bin', 'herdr.js');

export interface StartOptions {
  workers?: number;
  /**
   * The environment the server (and so its panes) starts from. Default: this
   * process's environment with `PS1='$ '`.
   */
  baseEnv?: Record<string, string>;
  /** Extra environment on top of `baseEnv`. */
  env?: Record<string, string>;
  /** Use this socket path instead of a fresh one. */
  socketPath?: string;
  shell?: string;
  /** Extra arguments for node before the script (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Extra arguments for `herdr server` (e.g. `--shard-timeout 2000`). */
  serverArgs?: string[];
  /** The server's `--state-dir` (default: `state` in its own temporary directory, gone with it). */
  stateDir?: string;
  /**
   * Start the server in a session of its own, as a server started from its own
   * terminal or a service is (the bench: with autogroup scheduling a server in
   * the measuring process's session would share its CPU share with it).
   */
  ownSession?: boolean;
}

export class LocalServer {
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

  /** The socket beside it whose clients speak herdr's current protocol (docs/protocol.md §15.1). */
  get currentSocketPath(): string {
    return currentSocketPathFor(this.socketPath);
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  get pid(): number {
    return this.child.pid ?? 0;
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
    // The deadline's timer is cleared once the process is gone: a pending one kept every test process alive ~10 s after its last server stopped.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
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

/** Directories tempDir made, removed when this process exits: a test file leaves none behind, failed or not. */
const madeDirs: string[] = [];
process.on('exit', () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'herdr-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

/** Servers still running; killed when this process exits, so a test that timed out leaves none behind (with its panes). */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Spawns `herdr server` and waits until it answers ping. */
export async function startServer(options: StartOptions = {}): Promise<LocalServer> {
  const dir = tempDir();
  const socketPath = options.socketPath ?? join(dir, 'herdr.sock');
  const args = [...(options.nodeArgs ?? []), HERDR_BIN, 'server', '--socket', socketPath, '--shell', options.shell ?? '/bin/sh'];
  args.push('--state-dir', options.stateDir ?? join(dir, 'state'));
  // The user's own agent manifests (~/.config/herdr/agent-detection) stay out of tests and the bench; `serverArgs` may name a directory.
  args.push('--no-agent-manifests');
  if (options.workers !== undefined) args.push('--workers', String(options.workers));
  args.push(...(options.serverArgs ?? []));
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { ...(options.baseEnv ?? { ...process.env, PS1: '$ ' }), ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: options.ownSession ?? false,
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  const server = new LocalServer(socketPath, dir, child);
  await eventually(
    async () => {
      if (!server.running) throw new Error(`server exited: ${server.stderr}`);
      return (await server.call('ping', {})).type === 'pong';
    },
    'the server to answer ping',
  );
  return server;
}
