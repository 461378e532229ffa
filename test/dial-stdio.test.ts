/**
 * `herdr dial-stdio`, the remote end of an SSH connection: requests and
 * answers pass through byte for byte (kept-alive connections and
 * subscriptions included); it ends when stdin closes (after the answers owed)
 * or when the server goes away; without a server it fails in one line.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { HERDR_BIN, eventually, startServer } from './helpers/server.js';

function dial(socketPath: string): { child: ChildProcessWithoutNullStreams; lines: () => Array<Record<string, unknown>>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [HERDR_BIN, 'dial-stdio', '--socket', socketPath]);
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, lines: () => out.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const send = (child: ChildProcessWithoutNullStreams, message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);

describe('herdr dial-stdio', () => {
  it('passes a kept-alive connection through and ends when stdin closes', async () => {
    const server = await startServer();
    try {
      const { child, lines, exited } = dial(server.socketPath);
      send(child, { id: 'a', method: 'ping', params: {}, keep_alive: true });
      send(child, { id: 'b', method: 'workspace.create', params: { cwd: server.dir, label: 'via-dial' }, keep_alive: true });
      await eventually(() => lines().length === 2, 'two answers');
      child.stdin.end();
      assert.equal(await exited, 0);
      assert.deepEqual(lines().map((line) => line.id), ['a', 'b']);
      assert.equal((await server.call('workspace.list', {})).workspaces[0]?.label, 'via-dial');
    } finally {
      await server.stop();
    }
  });

  it('carries a subscription, and ends when the server goes away', async () => {
    const server = await startServer();
    const { child, lines, exited } = dial(server.socketPath);
    try {
      send(child, { id: 'sub', method: 'events.subscribe', params: { subscriptions: [{ type: 'workspace.created' }] } });
      await eventually(() => lines().length === 1, 'the ack');
      await server.call('workspace.create', { cwd: server.dir });
      await eventually(() => lines().some((line) => line.event === 'workspace_created'), 'the event through the pipe');
    } finally {
      await server.stop();
    }
    assert.equal(await exited, 0);
  });

  it('fails in one line when there is no server', async () => {
    const { child, exited } = dial('/nonexistent/herdr.sock');
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    assert.equal(await exited, 1);
    assert.equal(stderr, 'herdr: no server at /nonexistent/herdr.sock (start one with: herdr server)\n');
  });
});
