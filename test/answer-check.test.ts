/**
 * Answers checked against their method's result schema: against a fake server
 * whose answers are chosen per method, a wrong shape is a ConnectionError that
 * names the method and the field, never a value handed on; a right one comes
 * back as it was sent, fields the schema does not know included.
 */
import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConnectionError, HerdrClient, HerdrError } from '../src/index.js';
import { call } from '../src/client/client.js';
import { lineReader } from '../src/client/wire.js';
import { tempDir } from './helpers/server.js';

const pane = (i: number) => ({
  pane_id: `1-${i}`, workspace_id: '1', focused: false, agent_state: 'idle', agent_status: 'idle', agent_state_since: 1, revision: 0,
  stable_id: `p${i}`, cols: 80, rows: 24, pid: 100 + i,
});

/** The fake server's answer to each method (by the request's `params.case` where a method has several). */
function answerTo(method: string, params: { case?: string }): object {
  if (method === 'ping') return { result: { type: 'pong', version: 'fake', added_later: true } };
  if (method === 'pane.get') return { result: { type: 'pane_info', pane: { ...pane(1), cols: 'wide' } } };
  if (method === 'pane.list' && params.case === 'stray') return { result: { type: 'pane_list', panes: [...Array.from({ length: 299 }, (_, i) => pane(i)), null] } };
  if (method === 'pane.list') return { result: { type: 'pane_list', panes: Array.from({ length: 300 }, (_, i) => pane(i)) } };
  if (method === 'workspace.list') return { result: { type: 'pane_list', panes: [] } };
  if (method === 'pane.stream') return { result: { type: 'stream_started', pane_id: '1-1' } };
  return { error: { code: 'pane_not_found', message: 'no such pane' } };
}

describe('answers checked against the result schemas', () => {
  let server: Server;
  let socketPath: string;
  before(async () => {
    socketPath = join(tempDir(), 'fake.sock');
    server = createServer((socket) => {
      socket.on('error', () => undefined);
      lineReader(socket, (line) => {
        const request = JSON.parse(line) as { id: string; method: string; params: { case?: string }; keep_alive?: boolean };
        socket.write(`${JSON.stringify({ id: request.id, ...answerTo(request.method, request.params) })}\n`);
        if (request.keep_alive !== true && request.method !== 'pane.stream') socket.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  });
  after(() => server.close());

  for (const keepAlive of [true, false]) {
    it(`hands on a right answer as it came, and refuses a wrong one (keepAlive ${keepAlive})`, async () => {
      const client = new HerdrClient({ socketPath, keepAlive });
      try {
        assert.deepEqual(await client.ping(), { type: 'pong', version: 'fake', added_later: true });
        assert.equal((await client.pane.list()).panes.length, 300);
        await assert.rejects(client.pane.get({ pane_id: '1-1' }), (error: unknown) =>
          error instanceof ConnectionError && /answered pane\.get with a result this client does not know \(pane\.cols: .*\)/.test(error.message));
        await assert.rejects(client.workspace.list(), (error: unknown) => error instanceof ConnectionError && /workspace\.list/.test(error.message));
        await assert.rejects(client.pane.close({ pane_id: '1-1' }), (error: unknown) => error instanceof HerdrError && error.code === 'pane_not_found');
      } finally {
        client.close();
      }
    });
  }

  it('refuses a list with an element of another kind than the first, wherever it is', async () => {
    await assert.rejects(call('pane.list', { case: 'stray' } as { workspace_id?: string }, { socketPath }), (error: unknown) =>
      error instanceof ConnectionError && /panes\.299: expected object, received null/.test(error.message));
  });

  it('checks the ack of a stream', async () => {
    await assert.rejects(new HerdrClient({ socketPath }).stream('1-1'), (error: unknown) =>
      error instanceof ConnectionError && /answered pane\.stream with a result this client does not know/.test(error.message));
  });
});
