/**
 * The client library used directly against a real server: many requests on
 * one kept-alive connection, answers out of order, typed errors, and
 * subscriptions as async iterators that end on close and resume with `since`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConnectionError, HerdrClient, HerdrError } from '../src/index.js';
import type { TypedEventLine } from '../src/protocol/events.js';
import { type TestServer, promptShown, startServer, tempDir } from './helpers/server.js';

/** The next `count` lines of a subscription, or fails after `timeoutMs`. */
async function take(iterator: AsyncIterator<TypedEventLine>, count: number, timeoutMs = 10_000): Promise<TypedEventLine[]> {
  const lines: TypedEventLine[] = [];
  const deadline = setTimeout(() => assert.fail(`only ${lines.length} of ${count} event lines came`), timeoutMs);
  try {
    while (lines.length < count) {
      const next = await iterator.next();
      if (next.done) break;
      lines.push(next.value);
    }
  } finally {
    clearTimeout(deadline);
  }
  return lines;
}

describe('the client library', () => {
  let server: TestServer;
  let client: HerdrClient;
  before(async () => {
    server = await startServer();
    client = new HerdrClient({ socketPath: server.socketPath });
  });
  after(async () => {
    client.close();
    await server.stop();
  });

  it('answers 1 000 requests in flight at once on one connection, each its own', async () => {
    const { workspace } = await client.call('workspace.create', { label: 'many' });
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        i % 2 === 0 ? client.call('ping', {}) : client.call('workspace.get', { workspace_id: workspace.workspace_id }),
      ),
    );
    answers.forEach((answer, i) => {
      if (i % 2 === 0) assert.equal(answer.type, 'pong');
      else assert.equal(answer.type === 'workspace_info' && answer.workspace.label, 'many');
    });
    const stats = await client.call('server.stats', {});
    assert.ok(stats.connections <= 2, `connections: ${stats.connections}`);
  });

  it('lets a fast answer overtake a slow one on the same connection', async () => {
    const { workspace } = await client.call('workspace.create', {});
    const order: string[] = [];
    const slow = client
      .call('pane.wait_for_output', { pane_id: `${workspace.workspace_id}-1`, source: 'recent', match: { type: 'substring', value: 'never-printed' }, timeout_ms: 300 })
      .catch((error: unknown) => order.push(error instanceof HerdrError ? error.code : 'other'));
    await client.call('ping', {}).then(() => order.push('pong'));
    await slow;
    assert.deepEqual(order, ['pong', 'timeout']);
  });

  it('rejects with HerdrError carrying the code, and with ConnectionError when there is no server', async () => {
    await assert.rejects(client.call('pane.get', { pane_id: '99-99' }), (error: unknown) => error instanceof HerdrError && error.code === 'pane_not_found');
    const nowhere = new HerdrClient({ socketPath: `${tempDir()}/none.sock` });
    await assert.rejects(nowhere.call('ping', {}), (error: unknown) => error instanceof ConnectionError && /no server at/.test(error.message));
    const oneShot = new HerdrClient({ socketPath: server.socketPath, keepAlive: false });
    assert.equal((await oneShot.call('ping', {})).type, 'pong');
  });

  it('has a typed function for every method, grouped as the names are, the same as call', async () => {
    const created = await client.workspace.create({ label: 'typed' });
    const got = await client.call('workspace.get', { workspace_id: created.workspace.workspace_id });
    assert.deepEqual((await client.workspace.get({ workspace_id: created.workspace.workspace_id })).workspace, got.workspace);
    assert.equal((await client.ping()).type, 'pong');
    assert.ok((await client.pane.list()).panes.some((pane) => pane.workspace_id === created.workspace.workspace_id));
    await promptShown(server, `${created.workspace.workspace_id}-1`);
    await client.pane.sendInput({ pane_id: `${created.workspace.workspace_id}-1`, text: 'echo typed-$((6*7))' });
    const matched = await client.pane.waitForOutput({ pane_id: `${created.workspace.workspace_id}-1`, source: 'recent', match: { type: 'substring', value: 'typed-42' }, timeout_ms: 10_000 });
    assert.equal(matched.matched_line, 'typed-42');
    await assert.rejects(client.pane.get({ pane_id: '99-99' }), (error: unknown) => error instanceof HerdrError && error.code === 'pane_not_found');
    // @ts-expect-error not a method of the table; at run time the server says so
    await assert.rejects(client.pane.readAll({ pane_id: '1-1' }), (error: unknown) => error instanceof HerdrError && error.code === 'invalid_request');
  });

  it('subscribes: typed lines in order, an end when the connection closes, and a resume with since', async () => {
    const subscription = await client.subscribe([{ type: 'workspace.created' }, { type: 'workspace.closed' }]);
    const { workspace } = await client.call('workspace.create', { label: 'watched' });
    const [created] = await take(subscription, 1);
    assert.equal(created?.event, 'workspace_created');
    if (created?.event === 'workspace_created') assert.equal(created.data.workspace.label, 'watched');
    const seen = subscription.lastSeq;
    assert.equal(typeof seen, 'number');
    subscription.close();
    assert.deepEqual(await subscription.next(), { done: true, value: undefined });

    // Missed while no one listened, then replayed from `since`.
    await client.call('workspace.close', { workspace_id: workspace.workspace_id });
    const resumed = await client.subscribe([{ type: 'workspace.closed' }], { since: seen });
    const [closed] = await take(resumed, 1);
    assert.equal(closed?.event, 'workspace_closed');
    assert.ok((closed?.seq ?? 0) > (seen ?? 0));
    resumed.close();
  });

  it('ends a subscription’s iteration when the server goes away', async () => {
    const own = await startServer();
    const subscription = await new HerdrClient({ socketPath: own.socketPath }).subscribe([{ type: 'pane.created' }]);
    const lines: TypedEventLine[] = [];
    const iterated = (async () => {
      for await (const line of subscription) lines.push(line);
    })();
    await own.stop();
    await iterated;
    assert.deepEqual(lines, []);
  });

  it('waits for output and for an agent state, and times out with HerdrError timeout', async () => {
    const { workspace } = await client.call('workspace.create', { command: ['/bin/sh', '-c', 'echo ready-42; exec sleep 60'] });
    const pane = `${workspace.workspace_id}-1`;
    const waited = await client.waitForOutput(pane, '^ready-\\d+$', { regex: true, timeoutMs: 10_000 });
    assert.equal(waited.matched_line, 'ready-42');
    await assert.rejects(client.waitForOutput(pane, 'absent', { timeoutMs: 100 }), (error: unknown) => error instanceof HerdrError && error.code === 'timeout');
    // No agent runs in the pane: its state is unknown, at once (initial), and never working.
    const now = await client.waitForAgentState(pane, 'unknown', { timeoutMs: 10_000 });
    assert.equal(now.data.state, 'unknown');
    await assert.rejects(client.waitForAgentState(pane, 'working', { timeoutMs: 200 }), (error: unknown) => error instanceof HerdrError && error.code === 'timeout');
  });

  it('rejects a bad subscription with the server’s error', async () => {
    await assert.rejects(
      client.subscribe([{ type: 'pane.output_matched', pane_id: '1-1', source: 'recent', match: { type: 'regex', value: '(a' } }]),
      (error: unknown) => error instanceof HerdrError && error.code === 'invalid_regex',
    );
  });
});
