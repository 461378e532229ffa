/**
 * Slow and dead clients cost the server nothing lasting: a connection that
 * never finishes its line is closed; a subscriber that never reads while 50
 * panes flood events is cut off with memory bounded; clients that vanish
 * mid-wait and mid-subscription leave no wait, matcher, subscription, timer
 * or fd behind (`server.stats`, and the test-only `debug.inspect`).
 */
import assert from 'node:assert/strict';
import { type Socket, connect } from 'node:net';
import { describe, it } from 'node:test';
import { LINE_TIMEOUT_MS } from '../src/main/connection.js';
import { EventClient } from './helpers/events.js';
import { eventually, inspect, newWorkspace, promptShown, sleep, startServer } from './helpers/server.js';
import { fdCount, rssBytes } from './helpers/proc.js';

const DEBUG = { env: { HERDR_DEBUG_FAULTS: '1' } };
function open(socketPath: string): Promise<Socket & { closedAt?: number }> {
  return new Promise((resolve, reject) => {
    const socket: Socket & { closedAt?: number } = connect(socketPath);
    socket.on('close', () => (socket.closedAt = Date.now()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('slow and dead clients', () => {
  it('a line never finished is cut off after 10 s: a first line, and a kept-alive connection that stops mid-line', async () => {
    const server = await startServer();
    try {
      const silent = await open(server.socketPath);
      silent.write('{"id":"a","method":"pi');
      const kept = await open(server.socketPath);
      let answers = '';
      kept.on('data', (chunk) => (answers += chunk.toString()));
      kept.write('{"id":"k","method":"ping","params":{},"keep_alive":true}\n');
      await eventually(() => answers.includes('"pong"'), 'the first answer');
      const started = Date.now();
      kept.write('{"id":"k2","method":"pi');
      assert.equal((await server.call('server.stats', {})).connections, 3);
      await eventually(() => silent.closedAt && kept.closedAt, 'both connections to be closed', LINE_TIMEOUT_MS + 5000);
      assert.ok((kept.closedAt ?? 0) - started >= LINE_TIMEOUT_MS - 500, 'not before its time');
      assert.equal((await server.call('server.stats', {})).connections, 1);
    } finally {
      await server.stop();
    }
  });

  it('a subscriber that never reads while 50 panes flood events is cut off, memory bounded; a reader and requests go on', { timeout: 120_000 }, async (t) => {
    const server = await startServer({ workers: 2 });
    try {
      // Every pass: two agent-state changes (OSC 7501) and a notification with a 1 000-byte body, as fast
      // as the shell goes (the shard passes on 20 state changes and 10 notifications a second a pane).
      const flood = "b=$(printf '%01000d' 0); while :; do printf '\\033]7501;state=working\\007\\033]7501;state=idle\\007\\033]777;notify;flood;%s\\007' \"$b\"; done";
      const rssBefore = rssBytes(server.pid);
      const slow = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_state_changed' }, { type: 'pane.notification' }] });
      slow.pause();
      const reader = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.agent_state_changed', pane_id: undefined }] });
      for (let i = 0; i < 10; i++) {
        const { paneId } = await newWorkspace(server, { command: ['/bin/sh', '-c', flood] });
        for (let j = 0; j < 4; j++) await server.call('pane.split', { target_pane_id: paneId, direction: 'right', command: ['/bin/sh', '-c', flood] });
      }
      assert.equal((await server.call('server.stats', {})).panes, 50);
      const emittedBefore = (await server.call('server.stats', {})).events_emitted;
      const countingSince = Date.now();
      await eventually(async () => (await server.call('server.stats', {})).subscriptions === 1, 'the slow subscriber to be cut off', 30_000);
      // Reading again within the grace, it gets the notice of what it lost, then the end.
      slow.resume();
      await eventually(() => slow.closed, 'the slow connection to close', 20_000);
      assert.equal(slow.lines.at(-1)?.event, 'subscription_overflow');

      // Ten seconds of flood: the server answers, memory stays put, the reading subscriber keeps up.
      let peak = rssBytes(server.pid);
      let slowestPing = 0;
      for (const end = Date.now() + 10_000; Date.now() < end; ) {
        const started = Date.now();
        assert.equal((await server.call('ping', {})).type, 'pong');
        slowestPing = Math.max(slowestPing, Date.now() - started);
        peak = Math.max(peak, rssBytes(server.pid));
        await sleep(100);
      }
      const stats = await server.call('server.stats', {});
      const emitted = stats.events_emitted - emittedBefore;
      t.diagnostic(`${emitted} events in the flood; slowest ping ${slowestPing} ms; server RSS ${Math.round(rssBefore / 1e6)} → peak ${Math.round(peak / 1e6)} MB`);
      assert.ok(emitted > 3000, `the panes flooded events (${emitted})`);
      assert.ok(peak - rssBefore < 300 * 1024 * 1024, `server RSS grew ${Math.round((peak - rssBefore) / 1e6)} MB`);
      assert.ok(reader.events.length > 1000 && !reader.closed, `the reading subscriber kept receiving (${reader.events.length})`);
      // What reaches main stays within the shards' report limits: 20 state changes a second a pane, each
      // also a status change (docs/protocol.md §13.2), and 10 notifications; a fifth more for timing.
      const seconds = (Date.now() - countingSince) / 1000;
      assert.ok(emitted < 50 * (20 + 20 + 10) * seconds * 1.2, `${emitted} events in ${seconds.toFixed(1)} s from 50 panes`);
      reader.close();
    } finally {
      await server.stop();
    }
  });

  it('clients gone mid-wait and mid-subscription leave no wait, matcher, subscription, timer or fd', async () => {
    const server = await startServer(DEBUG);
    try {
      const { paneId } = await newWorkspace(server);
      await promptShown(server, paneId);
      const fdsBefore = fdCount(server.pid);
      const before = await inspect(server);
      const requests = [
        { method: 'pane.wait_for_output', params: { pane_id: paneId, source: 'recent', match: { type: 'regex', value: 'never-(seen|printed)' } } },
        { method: 'pane.wait_for_output', params: { pane_id: paneId, source: 'visible', match: { type: 'substring', value: 'never' }, timeout_ms: 600_000 } },
        { method: 'events.wait', params: { match_event: { event: 'pane_exited' }, timeout_ms: 600_000 } },
        { method: 'events.subscribe', params: { subscriptions: [{ type: 'pane.output_matched', pane_id: paneId, source: 'recent', match: { type: 'substring', value: 'never' } }, { type: 'pane.agent_state_changed' }] } },
        { method: 'events.subscribe', params: { subscriptions: [{ type: 'workspace.created' }, { type: 'pane.notification', pane_id: paneId }] } },
      ];
      const sockets: Socket[] = [];
      for (let round = 0; round < 4; round++) {
        for (const request of requests) {
          const socket = await open(server.socketPath);
          socket.write(`${JSON.stringify({ id: `r${round}`, ...request })}\n`);
          sockets.push(socket);
        }
      }
      await eventually(async () => {
        const stats = await server.call('server.stats', {});
        return stats.waits === 12 && stats.subscriptions === 16 && stats.matchers === 12;
      }, 'every wait and subscription to be set up');
      // Half of them vanish at once, the other half close their sending side (as `socat` does).
      sockets.forEach((socket, i) => (i % 2 === 0 ? socket.destroy() : socket.end()));
      await eventually(async () => {
        const stats = await server.call('server.stats', {});
        return stats.waits === 0 && stats.subscriptions === 0 && stats.matchers === 0 && stats.shards.every((s) => s.matchers === 0) && stats.connections === 1;
      }, 'no wait, subscription, matcher or connection left');
      for (const socket of sockets) socket.destroy();
      await eventually(() => fdCount(server.pid) <= fdsBefore, `fds back to ${fdsBefore} (now ${fdCount(server.pid)})`);
      const after = await inspect(server);
      assert.ok((after.active_resources.Timeout ?? 0) <= (before.active_resources.Timeout ?? 0), `timers: ${JSON.stringify(before.active_resources)} → ${JSON.stringify(after.active_resources)}`);
    } finally {
      await server.stop();
    }
  });
});
