/**
 * Test helpers over the shared harness (harness/server.ts starts a real
 * server): raw exchanges, workspaces, reads until a condition, the CLI.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HerdrError } from '../../src/client/client.js';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import type { MethodInput, MethodResults } from '../../src/protocol/methods.js';
import { eventually } from '../../harness/poll.js';
import { HERDR_BIN, type LocalServer, REPO_ROOT } from '../../harness/server.js';

export { eventually, sleep } from '../../harness/poll.js';
export { HERDR_BIN, REPO_ROOT, type StartOptions, startServer, tempDir } from '../../harness/server.js';
export type TestServer = LocalServer;

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

/** One request line on a fresh connection: its one answer, parsed. */
export async function oneAnswer(socketPath: string, request: object): Promise<Record<string, any>> {
  const { lines } = await rawExchange(socketPath, `${JSON.stringify(request)}\n`);
  assert.equal(lines.length, 1, `one response line for ${JSON.stringify(request)}`);
  return JSON.parse(lines[0] ?? '') as Record<string, any>;
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

/**
 * Waits for the shell's first prompt. Input typed before it is echoed by the
 * terminal ahead of the prompt, so the command's output lands after the prompt
 * ("$ ", or "# " for root) on one line; a test that anchors a pattern at a
 * line start waits for this first.
 */
export function promptShown(server: TestServer, paneId: string): Promise<string> {
  return readUntil(server, paneId, (text) => /^[$#]( |$)/m.test(text), { source: 'visible' });
}

/**
 * Polls `server.stats` until `predicate` holds, e.g. until a wait or a
 * subscription is registered: a test that causes an event only after that
 * cannot lose the race to a slow registration.
 */
export function statsUntil(
  server: TestServer,
  predicate: (stats: MethodResults['server.stats']) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<MethodResults['server.stats']> {
  return eventually(
    async () => {
      const stats = await server.call('server.stats', {});
      return predicate(stats) ? stats : undefined;
    },
    what,
    timeoutMs,
  );
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
export function herdrCli(server: TestServer, env?: Record<string, string>): (...args: string[]) => Promise<{ stdout: string; stderr: string }> {
  const run = promisify(execFile);
  const options = { cwd: server.dir, ...(env ? { env: { ...process.env, ...env } } : {}) };
  return (...args) => run(process.execPath, [HERDR_BIN, ...args, '--socket', server.socketPath], options);
}

/** What `debug.inspect` answers (a server started with HERDR_DEBUG_FAULTS=1, docs/testing.md). */
export interface Inspection {
  /** The main thread's heap in use right after a full GC. */
  heap_used_bytes: number;
  /** The main thread's active handles and timers, by kind. */
  active_resources: Record<string, number>;
  /** Each shard's heap in use right after its full GC. */
  shards: { shard_id: number; heap_used_bytes: number }[];
}

/** Runs a full GC on the server's shards and main thread and reports what they retain. */
export async function inspect(server: TestServer): Promise<Inspection> {
  return ((await server.request('debug.inspect', {})) as { result: Inspection }).result;
}

/** The error code a request failed with, or 'ok' when it succeeded. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof HerdrError) return error.code;
    throw error;
  }
}

/**
 * A bash that marks its commands (OSC 133) with the snippet docs/protocol.md gives users, so
 * the tests try what the reference says: the argv of a pane running it, its rc file in `dir`.
 */
export function markingBash(dir: string, name: string): string[] {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'protocol.md'), 'utf8');
  const snippet = /```bash\n(# herdr shell integration \(OSC 133\)[\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(snippet, 'docs/protocol.md has the bash snippet');
  const rc = join(dir, `${name}.bash`);
  writeFileSync(rc, `PS1='$ '\n${snippet}`);
  return ['bash', '--noprofile', '--rcfile', rc, '-i'];
}
