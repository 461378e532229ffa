/** docs/protocol.md §1–2: the socket file, start-up refusals, framing, limits and bad input. */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { HERDR_BIN, type TestServer, rawExchange, startServer, tempDir } from './helpers/server.js';

const run = promisify(execFile);

function herdrServer(socketPath: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HERDR_BIN, 'server', '--socket', socketPath], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('the CLI without a server', () => {
  it('says there is no server and how to start one, exit 1, for a request and for a wait', async () => {
    const socketPath = join(tempDir(), 'none.sock');
    for (const args of [['pane', 'list'], ['wait', 'agent-state', '1', '--state', 'idle']]) {
      const failed = await run(process.execPath, [HERDR_BIN, ...args, '--socket', socketPath]).then(
        () => assert.fail(`${args.join(' ')} succeeded without a server`),
        (error: { code: number; stderr: string; stdout: string }) => error,
      );
      assert.equal(failed.code, 1);
      assert.equal(failed.stderr, `herdr: no server at ${socketPath} (start one with: herdr server)\n`);
      assert.equal(failed.stdout, '');
    }
  });

  it('prints its version', async () => {
    const { stdout } = await run(process.execPath, [HERDR_BIN, '--version']);
    assert.match(stdout, /^\d+\.\d+\.\d+\n$/);
  });
});

describe('socket file and start-up', () => {
  it('creates the socket 0600 in a new 0700 directory, and removes it on SIGTERM', async () => {
    const base = tempDir();
    const socketPath = join(base, 'nested', 'herdr.sock');
    const server = await startServer({ socketPath });
    assert.equal(statSync(socketPath).mode & 0o777, 0o600);
    assert.equal(statSync(join(base, 'nested')).mode & 0o777, 0o700);
    server.child.kill('SIGTERM');
    assert.equal(await server.waitExit(), 0);
    assert.equal(existsSync(socketPath), false);
    await server.stop();
  });

  it('refuses to start when a server already listens on the path, and leaves it serving', async () => {
    const server = await startServer();
    try {
      const { code, stderr } = await herdrServer(server.socketPath);
      assert.equal(code, 1);
      assert.match(stderr, /already listening/);
      assert.equal((await server.call('ping', {})).type, 'pong');
    } finally {
      await server.stop();
    }
  });

  it('replaces a stale socket file nobody listens on', async () => {
    const dir = tempDir();
    const socketPath = join(dir, 'stale.sock');
    // A crashed server: a process that listened, then died by SIGKILL, leaving its socket file.
    await run(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]).catch(() => undefined);
    assert.ok(statSync(socketPath).isSocket());
    const server = await startServer({ socketPath });
    assert.equal((await server.call('ping', {})).type, 'pong');
    await server.stop();
  });

  it('never deletes a path that is not a socket', async () => {
    const dir = tempDir();
    const path = join(dir, 'precious.txt');
    writeFileSync(path, 'keep me');
    const { code, stderr } = await herdrServer(path);
    assert.equal(code, 1);
    assert.match(stderr, /not a socket/);
    assert.ok(statSync(path).isFile());
    mkdirSync(join(dir, 'adir'));
    assert.equal((await herdrServer(join(dir, 'adir'))).code, 1);
  });

  it('server.stop answers ok, ends pane processes and removes the socket', async () => {
    const server = await startServer();
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const { pane } = await server.call('pane.get', { pane_id: `${workspace.workspace_id}-1` });
    const { stdout } = await run(process.execPath, [HERDR_BIN, 'server', 'stop', '--socket', server.socketPath]);
    assert.deepEqual(JSON.parse(stdout).result, { type: 'ok' });
    assert.equal(await server.waitExit(), 0);
    assert.equal(existsSync(server.socketPath), false);
    assert.throws(() => process.kill(pane.pid, 0), /ESRCH/);
    await server.stop();
  });
});

describe('framing and bad input', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  const exchange = async (payload: string | Buffer) => {
    const { lines, closedByServer } = await rawExchange(server.socketPath, payload);
    return { responses: lines.map((l) => JSON.parse(l) as Record<string, any>), closedByServer };
  };

  it('answers a line that is not JSON with invalid_request and id ""', async () => {
    const { responses } = await exchange('this is not json\n');
    assert.equal(responses[0]?.id, '');
    assert.equal(responses[0]?.error.code, 'invalid_request');
    assert.match(responses[0]?.error.message, /JSON/);
  });

  it('echoes the id and names the missing or mistyped field', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ id: 'a1', params: {} }, /method/],
      [{ id: 'a2', method: 'ping' }, /params/],
      [{ id: 'a3', method: 'ping', params: [] }, /params/],
      [{ id: 'a4', method: 'no.such.method', params: {} }, /unknown method no\.such\.method/],
      [{ id: 'a5', method: 'pane.get', params: {} }, /pane_id/],
      [{ id: 'a6', method: 'pane.read', params: { pane_id: '1-1', source: 'everything' } }, /source/],
      [{ id: 'a7', method: 'pane.read', params: { pane_id: '1-1', source: 'recent', lines: -1 } }, /lines/],
      [{ id: 'a8', method: 'pane.resize', params: { pane_id: '1-1', cols: 0, rows: 10 } }, /cols/],
      [{ id: 'a9', method: 'pane.send_keys', params: { pane_id: '1-1', keys: 'Enter' } }, /keys/],
    ];
    for (const [request, message] of cases) {
      const { responses } = await exchange(`${JSON.stringify(request)}\n`);
      const id = (request as { id: string }).id;
      assert.equal(responses[0]?.id, id);
      assert.equal(responses[0]?.error.code, 'invalid_request', JSON.stringify(responses[0]));
      assert.match(responses[0]?.error.message, message);
    }
    const { responses } = await exchange(`${JSON.stringify({ id: 7, method: 'ping', params: {} })}\n`);
    assert.equal(responses[0]?.id, '');
    assert.match(responses[0]?.error.message, /id/);
  });

  it('tolerates a trailing \\r and surrounding whitespace; an empty line gets no answer', async () => {
    const { responses } = await exchange(`  ${JSON.stringify({ id: 'cr', method: 'ping', params: {} })}  \r\n`);
    assert.equal(responses[0]?.result.type, 'pong');
    const empty = await exchange('\n');
    assert.deepEqual(empty.responses, []);
    assert.equal(empty.closedByServer, true);
  });

  it('answers one request per connection and closes', async () => {
    const ping = (id: string) => `${JSON.stringify({ id, method: 'ping', params: {} })}\n`;
    const { responses, closedByServer } = await exchange(ping('one') + ping('two'));
    assert.deepEqual(responses.map((r) => r.id), ['one']);
    assert.equal(closedByServer, true);
  });

  it('keeps a keep_alive connection open across requests and errors', async () => {
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    const socketPayload =
      line({ id: 'k1', method: 'ping', params: {}, keep_alive: true }) +
      'garbage\n' +
      line({ id: 'k2', method: 'workspace.list', params: {} });
    const { lines, closedByServer } = await rawExchange(server.socketPath, socketPayload, 1500);
    const responses = lines.map((l) => JSON.parse(l) as Record<string, any>);
    assert.deepEqual(responses.map((r) => r.id).sort(), ['', 'k1', 'k2']);
    assert.equal(closedByServer, false);
    const connection = await server.keepAlive();
    const answers = await Promise.all([connection.call('ping', {}), connection.call('workspace.list', {})]);
    assert.equal(answers[0].type, 'pong');
    connection.close();
  });

  it('answers a 2 MiB line with invalid_request (too long), closes, and keeps serving', async () => {
    const huge = `{"id":"big","method":"ping","params":{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}}\n`;
    const { responses, closedByServer } = await exchange(huge);
    assert.equal(responses[0]?.error.code, 'invalid_request');
    assert.match(responses[0]?.error.message, /too long/);
    assert.equal(closedByServer, true);
    assert.equal((await server.call('ping', {})).type, 'pong');
  });

  it('closes a connection that never sends a newline within 10 s', async () => {
    const started = Date.now();
    const { lines, closedByServer } = await rawExchange(server.socketPath, '{"id":"slow"', 20_000);
    assert.deepEqual(lines, []);
    assert.equal(closedByServer, true);
    assert.ok(Date.now() - started >= 9_000, 'not before the idle timeout');
    assert.equal((await server.call('ping', {})).type, 'pong');
  });
});
