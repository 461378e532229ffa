/** docs/protocol.md §9 events.subscribe: lifecycle order, edge-triggered matches, seq, since, errors, slow readers. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EventClient } from './helpers/events.js';
import { REPO_ROOT, type TestServer, eventually, newWorkspace, promptShown, readUntil, sleep, startServer } from './helpers/server.js';

const FAKE_AGENTS = join(REPO_ROOT, 'test', 'fixtures', 'bin');
const LIFECYCLE = ['workspace.created', 'workspace.focused', 'pane.created', 'pane.focused', 'pane.agent_detected', 'pane.closed', 'workspace.closed'];
const substring = (value: string) => ({ type: 'substring' as const, value });

async function withServer(run: (server: TestServer) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const server = await startServer({ env });
  try {
    await run(server);
  } finally {
    await server.stop();
  }
}

const subscribe = (server: TestServer, subscriptions: object[], extra: object = {}) =>
  EventClient.subscribe(server.socketPath, { subscriptions, ...extra });

describe('events.subscribe', () => {
  it('case 3: the lifecycle stream, in order, ack first', () =>
    withServer(async (server) => {
      const stream = await subscribe(server, LIFECYCLE.map((type) => ({ type })));
      assert.deepEqual(stream.ack, { id: 'sub', result: { type: 'subscription_started' } });
      const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: true });
      await stream.until((e) => e.length >= 4, 'the four create events');
      assert.deepEqual(stream.names(), ['workspace_created', 'workspace_focused', 'pane_created', 'pane_focused']);
      const [created, focused, paneCreated, paneFocused] = stream.events;
      assert.deepEqual(created?.data, { type: 'workspace_created', workspace });
      assert.deepEqual(focused?.data, { type: 'workspace_focused', workspace_id: '1' });
      assert.equal((paneCreated?.data as { pane: { pane_id: string } }).pane.pane_id, '1-1');
      assert.deepEqual(paneFocused?.data, { type: 'pane_focused', pane_id: '1-1', workspace_id: '1' });

      // The fake pi runs; its pane_agent_detected is checked in agents.test.ts.
      await server.call('pane.send_input', { pane_id: '1-1', text: 'pi' });
      await server.call('pane.wait_for_output', { pane_id: '1-1', source: 'visible', match: substring('done'), timeout_ms: 10_000 });

      await server.call('pane.split', { target_pane_id: '1-1', direction: 'right' });
      await stream.until((e) => e.some((x) => x.event === 'pane_created' && (x.data as any).pane.pane_id === '1-2'), 'the split');
      await server.call('pane.close', { pane_id: '1-2' });
      await stream.until((e) => e.some((x) => x.event === 'pane_closed'), 'pane_closed');
      await server.call('workspace.close', { workspace_id: '1' });
      const all = await stream.until((e) => e.some((x) => x.event === 'workspace_closed'), 'workspace_closed');
      assert.deepEqual(all.find((x) => x.event === 'pane_closed')?.data, { type: 'pane_closed', pane_id: '1-2', workspace_id: '1' });
      assert.deepEqual(all.at(-1)?.data, { type: 'workspace_closed', workspace_id: '1' });
      const seqs = all.map((x) => x.seq ?? 0);
      assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'events arrive in seq order');
      assert.equal(new Set(seqs).size, seqs.length);
      stream.close();
    }, { PATH: `${FAKE_AGENTS}:${process.env.PATH}` }));

  it('a process that exits: pane_exited (with its code), then pane_closed, then workspace_closed', () =>
    withServer(async (server) => {
      const stream = await subscribe(server, [{ type: 'pane.exited' }, { type: 'pane.closed' }, { type: 'workspace.closed' }]);
      await newWorkspace(server);
      await newWorkspace(server, { command: ['/bin/sh', '-c', 'sleep 0.3; exit 3'] });
      const events = await stream.until((e) => e.length >= 3, 'the exit events');
      assert.deepEqual(
        events.map((e) => e.data),
        [
          { type: 'pane_exited', pane_id: '2-1', workspace_id: '2', exit_code: 3 },
          { type: 'pane_closed', pane_id: '2-1', workspace_id: '2' },
          { type: 'workspace_closed', workspace_id: '2' },
        ],
      );
      stream.close();
    }));

  it('case 4: echo makes the very next line an output_matched carrying the line', () =>
    withServer(async (server) => {
      const { paneId } = await newWorkspace(server);
      const stream = await subscribe(server, [
        { type: 'pane.output_matched', pane_id: paneId, source: 'recent', match: substring('hello from socket') },
        { type: 'pane.agent_state_changed', pane_id: paneId, state: 'idle' },
      ]);
      await server.call('pane.send_input', { pane_id: paneId, text: 'echo hello from socket' });
      const [first] = await stream.until((e) => e.length >= 1, 'output_matched');
      assert.equal(first?.event, 'pane.output_matched');
      const data = first?.data as { pane_id: string; matched_line: string; read: { text: string } };
      assert.equal(data.pane_id, paneId);
      assert.match(data.matched_line, /hello from socket/);
      assert.match(data.read.text, /hello from socket/);
      assert.equal('type' in (first?.data ?? {}), false, 'dotted events carry no type');
      // The `idle` with agent "pi" after the fake pi runs: agents.test.ts.
      stream.close();
    }));

  it('output_matched is edge-triggered: at once for text present, not again while it stays, again after clear', () =>
    withServer(async (server) => {
      const { paneId } = await newWorkspace(server);
      await promptShown(server, paneId); // `^MARK` needs the output on a line of its own
      await server.call('pane.send_input', { pane_id: paneId, text: 'echo MARK-1' });
      await server.call('pane.wait_for_output', { pane_id: paneId, source: 'visible', match: { type: 'regex', value: '^MARK' }, timeout_ms: 10_000 });
      const stream = await subscribe(server, [
        { type: 'pane.output_matched', pane_id: paneId, source: 'visible', match: { type: 'regex', value: '^MARK-\\d$' } },
      ]);
      await stream.until((e) => e.length === 1, 'the match already on screen');
      await server.call('pane.send_input', { pane_id: paneId, text: 'echo MARK-2; echo other' });
      await server.call('pane.wait_for_output', { pane_id: paneId, source: 'visible', match: { type: 'regex', value: '^other' }, timeout_ms: 10_000 });
      await sleep(300); // the quiet period; MARK-3 below is the positive control
      assert.equal(stream.events.length, 1, 'no second event while a match stays on screen');
      // A witness on the same pane that can only match the cleared screen: the shard looks at all of a
      // pane's matchers at once, so when the witness fires, the MARK matcher has seen its match leave.
      const witness = await subscribe(server, [
        { type: 'pane.output_matched', pane_id: paneId, source: 'visible', match: { type: 'regex', value: '^CLEARED$' } },
      ]);
      await server.call('pane.send_input', { pane_id: paneId, text: 'clear; echo CLEARED' });
      await readUntil(server, paneId, (t) => !t.includes('MARK'), { source: 'visible' });
      await witness.until((e) => e.length === 1, 'the shard to look at the cleared screen');
      await server.call('pane.send_input', { pane_id: paneId, text: 'echo MARK-3' });
      const events = await stream.until((e) => e.length >= 2, 'a new match after the clear');
      // The first event after the quiet period is MARK-3's: nothing for MARK-2 came late.
      assert.deepEqual(events.map((e) => (e.data as { matched_line: string }).matched_line), ['MARK-1', 'MARK-3']);
      stream.close();
      witness.close();
    }));

  it('replays nothing from before the subscription, but `since` replays retained events', () =>
    withServer(async (server) => {
      await newWorkspace(server);
      const seqBefore = (await server.call('server.stats', {})).events_emitted;
      await newWorkspace(server);
      const fresh = await subscribe(server, LIFECYCLE.map((type) => ({ type })));
      await sleep(200); // the quiet period; workspace 3 below is the positive control
      assert.deepEqual(fresh.events, []);
      // What comes first after the quiet period is the new workspace: nothing from before was replayed late.
      await newWorkspace(server);
      const [first] = await fresh.until((e) => e.length >= 1, 'the new workspace on the fresh subscription');
      assert.equal(first?.event, 'workspace_created');
      assert.equal((first?.data as { workspace: { workspace_id: string } }).workspace.workspace_id, '3');
      const replayed = await subscribe(server, [{ type: 'workspace.created' }], { since: seqBefore });
      const [event] = await replayed.until((e) => e.length >= 1, 'the replayed event');
      assert.equal(event?.event, 'workspace_created');
      assert.equal((event?.data as { workspace: { workspace_id: string } }).workspace.workspace_id, '2');
      assert.ok((event?.seq ?? 0) > seqBefore);
      fresh.close();
      replayed.close();
    }));

  it('`since` older than the retained log fails with events_lost', () =>
    withServer(async (server) => {
      await newWorkspace(server);
      await newWorkspace(server);
      const connection = await server.keepAlive();
      // Each focus change is two events; 2 100 changes push seq 1 out of the 4 096 retained.
      await Promise.all(Array.from({ length: 2100 }, (_, i) => connection.call('workspace.focus', { workspace_id: String((i % 2) + 1) })));
      connection.close();
      const lost = await subscribe(server, [{ type: 'workspace.created' }], { since: 0 });
      assert.equal(lost.ack.error.code, 'events_lost');
      assert.equal(lost.ack.id, 'sub');
      await eventually(() => lost.closed, 'the connection to close');
    }));

  it('agent_state_changed: per pane or every pane, with initial:true reporting the current state', () =>
    withServer(async (server) => {
      const { paneId } = await newWorkspace(server);
      const one = await subscribe(server, [{ type: 'pane.agent_state_changed', pane_id: paneId, state: 'unknown', initial: true }]);
      const [initial] = await one.until((e) => e.length === 1, 'the initial state');
      assert.deepEqual(initial?.data, { pane_id: paneId, workspace_id: '1', state: 'unknown', agent_status: 'unknown' });
      const every = await subscribe(server, [{ type: 'pane.agent_state_changed', initial: true }]);
      await every.until((e) => e.length === 1, 'every pane\'s initial state');
      const filtered = await subscribe(server, [{ type: 'pane.agent_state_changed', pane_id: paneId, state: 'idle', initial: true }]);
      await sleep(200); // the quiet period; the idle report below is the positive control
      assert.deepEqual(filtered.events, [], 'a state the filter rejects is not reported');
      // A state the filter takes is the first thing it reports: the unknown one did not come late.
      await server.call('pane.report_agent', { pane_id: paneId, source: 'test', agent: 'claude', state: 'idle' });
      const [idle] = await filtered.until((e) => e.length >= 1, 'the idle state');
      assert.equal(idle?.event, 'pane.agent_state_changed');
      assert.equal((idle?.data as { pane_id: string; state: string }).pane_id, paneId);
      assert.equal((idle?.data as { state: string }).state, 'idle');
      for (const s of [one, every, filtered]) s.close();
    }));

  it('errors carry the request id and close the connection; an empty list is acknowledged and silent', () =>
    withServer(async (server) => {
      await newWorkspace(server);
      const cases: Array<[object[], string]> = [
        [[{ type: 'pane.created' }, { nope: 'no type' }], 'invalid_request'],
        [[{ type: 'pane.output_matched', pane_id: '1-1', source: 'recent' }], 'invalid_request'],
        [[{ type: 'pane.output_matched', pane_id: '9-9', source: 'recent', match: substring('x') }], 'pane_not_found'],
        [[{ type: 'pane.agent_state_changed', pane_id: '9-9' }], 'pane_not_found'],
        [[{ type: 'pane.output_matched', pane_id: '1-1', source: 'recent', match: { type: 'regex', value: '(' } }], 'invalid_regex'],
      ];
      for (const [subscriptions, code] of cases) {
        const stream = await EventClient.subscribe(server.socketPath, { subscriptions }, 'my-own-id');
        assert.equal(stream.ack.id, 'my-own-id');
        assert.equal(stream.ack.error.code, code, JSON.stringify(subscriptions));
        await eventually(() => stream.closed, 'the connection to close');
      }
      const empty = await subscribe(server, []);
      assert.equal(empty.ack.result.type, 'subscription_started');
      // Nothing can ever be routed to an empty list, so its control is a sibling subscribed after it:
      // the hub hands each event to the empty one first, and the sibling must receive it.
      const sibling = await subscribe(server, [{ type: 'workspace.created' }]);
      await newWorkspace(server);
      await sibling.until((e) => e.length === 1, 'the sibling to receive workspace_created');
      await sleep(200); // the quiet period, after the event certainly went out
      assert.deepEqual(empty.events, []);
      assert.equal(empty.closed, false);
      empty.close();
      sibling.close();
    }));

  it('a subscriber that never reads is cut off with subscription_overflow; others are unaffected', () =>
    withServer(async (server) => {
      // Each match carries the whole read window, 3 000 lines printed before MARK: ~300 KB an event.
      const script =
        "while :; do yes 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789 | head -n 3000; echo MARK; sleep 0.05; printf '\\033[H\\033[2J\\033[3J'; sleep 0.05; done";
      const { paneId } = await newWorkspace(server, { command: ['/bin/sh', '-c', script] });
      const baseline = (await server.call('server.stats', {})).rss_bytes;
      const slow = await subscribe(server, [
        { type: 'pane.output_matched', pane_id: paneId, source: 'recent', lines: 10_000, match: substring('MARK') },
      ]);
      slow.pause();
      const reader = await subscribe(server, [{ type: 'workspace.created' }]);
      await eventually(async () => (await server.call('server.stats', {})).subscriptions === 1, 'the slow subscriber to be cut off', 60_000);
      assert.equal((await server.call('ping', {})).type, 'pong');
      await newWorkspace(server);
      await reader.until((e) => e.length === 1, 'the other subscriber to keep receiving');
      const rss = (await server.call('server.stats', {})).rss_bytes;
      assert.ok(rss - baseline < 200 * 1024 * 1024, `server memory stayed bounded (+${((rss - baseline) / 1e6).toFixed(0)} MB)`);
      slow.resume();
      await eventually(() => slow.closed, 'the slow connection to close', 20_000);
      const last = slow.lines.at(-1);
      assert.equal(last?.event, 'subscription_overflow');
      const delivered = slow.events.filter((e) => e.event === 'pane.output_matched');
      assert.equal(last?.data.dropped_after_seq, delivered.at(-1)?.seq ?? 0);
      reader.close();
    }));
});
