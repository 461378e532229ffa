/** docs/protocol.md §8 pane.wait_for_output, the CLI's waits, and events.wait (EXT). */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HerdrError } from '../src/client/client.js';
import { type TestServer, eventually, herdrCli, newWorkspace, readUntil, startServer, statsUntil } from './helpers/server.js';

/** One wait open on main and its matcher registered in the pane's shard: output from now on is new to it. */
const oneWaitWatching = (server: TestServer) =>
  statsUntil(server, (stats) => stats.waits === 1 && stats.matchers === 1, 'the wait and its matcher to be registered');

const substring = (value: string) => ({ type: 'substring' as const, value });
const regex = (value: string) => ({ type: 'regex' as const, value });

describe('pane.wait_for_output', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('case 2: substring and regex waits match, an absent string times out', async () => {
    const { paneId } = await newWorkspace(server);
    // The quotes keep the echoed command line from containing "gamma" itself, so the wait
    // can only match the printed line, however the shell's echo and its output interleave.
    await server.call('pane.send_input', { pane_id: paneId, text: 'echo alpha; echo beta; echo gam""ma' });
    const waited = await server.call('pane.wait_for_output', {
      pane_id: paneId, source: 'recent', lines: 40, match: substring('gamma'), timeout_ms: 5000,
    });
    assert.equal(waited.type, 'output_matched');
    assert.equal(waited.pane_id, paneId);
    assert.match(waited.matched_line, /^(?:[$#] )?gamma$/);
    assert.match(waited.read.text, /^(?:[$#] )?gamma$/m);
    assert.equal(waited.revision, waited.read.revision);
    const byRegex = await server.call('pane.wait_for_output', {
      pane_id: paneId, source: 'recent', match: regex('alp.*gam""ma'), timeout_ms: 5000,
    });
    assert.match(byRegex.matched_line, /echo alpha; echo beta; echo gam""ma/, 'the echoed command line comes first');
    await assert.rejects(
      server.call('pane.wait_for_output', { pane_id: paneId, source: 'recent', match: substring('absent-text'), timeout_ms: 200 }),
      (error: HerdrError) => error.code === 'timeout' && error.message.includes('timed out waiting for output match'),
    );
  });

  it('answers at once when the text is already there, and within moments of new output', async () => {
    const { paneId } = await newWorkspace(server, { command: ['/bin/sh', '-c', 'echo already-here; read x; echo "got $x"; exec sleep 600'] });
    await readUntil(server, paneId, (t) => t.includes('already-here'));
    const present = await server.call('pane.wait_for_output', { pane_id: paneId, source: 'visible', match: substring('already-here'), timeout_ms: 0 });
    assert.equal(present.matched_line, 'already-here');
    const pending = server.call('pane.wait_for_output', { pane_id: paneId, source: 'visible', match: regex('^got \\w+$'), timeout_ms: 10_000 });
    // Registered before the output comes, so it is the new-output path that answers.
    await oneWaitWatching(server);
    await server.call('pane.send_input', { pane_id: paneId, text: 'it' });
    assert.equal((await pending).matched_line, 'got it');
  });

  it('rejects a regex RE2 cannot take with invalid_regex, before anything else', async () => {
    for (const pattern of ['(?<=a)b', '(a', 'x{2,1}', '\\1']) {
      await assert.rejects(
        server.call('pane.wait_for_output', { pane_id: '99-99', source: 'recent', match: regex(pattern) }),
        (error: HerdrError) => error.code === 'invalid_regex' && error.message.length > pattern.length,
      );
    }
  });

  it('fails with pane_not_found when the pane goes away during the wait', async () => {
    const { paneId } = await newWorkspace(server);
    const failed = assert.rejects(
      server.call('pane.wait_for_output', { pane_id: paneId, source: 'recent', match: substring('never') }),
      (error: HerdrError) => error.code === 'pane_not_found',
    );
    // The pane must go while the wait is open, not before it was resolved.
    await oneWaitWatching(server);
    await server.call('pane.close', { pane_id: paneId });
    await failed;
  });

  it('a client that disconnects cancels its wait: no wait or matcher is left behind', async () => {
    const { paneId } = await newWorkspace(server);
    const socket = connect(server.socketPath);
    socket.write(`${JSON.stringify({ id: 'w', method: 'pane.wait_for_output', params: { pane_id: paneId, source: 'recent', match: substring('never') } })}\n`);
    await eventually(async () => {
      const stats = await server.call('server.stats', {});
      return stats.waits === 1 && stats.matchers === 1;
    }, 'the wait to be registered');
    socket.destroy();
    await eventually(async () => {
      const stats = await server.call('server.stats', {});
      return stats.waits === 0 && stats.matchers === 0 && stats.shards.every((s) => s.matchers === 0);
    }, 'the wait and its matcher to be gone');
  });

  it('follows its pane when ids renumber', async () => {
    const fresh = await startServer();
    try {
      await newWorkspace(fresh);
      const { paneId } = await newWorkspace(fresh);
      const { pane } = await fresh.call('pane.get', { pane_id: paneId });
      const pending = fresh.call('pane.wait_for_output', { pane_id: pane.stable_id, source: 'recent', match: substring('renumbered-ok'), timeout_ms: 10_000 });
      // Bound to its pane before the ids renumber.
      await oneWaitWatching(fresh);
      await fresh.call('workspace.close', { workspace_id: '1' });
      await fresh.call('pane.send_input', { pane_id: '1-1', text: 'echo renumbered-ok' });
      const result = await pending;
      assert.equal(result.pane_id, '1-1');
      assert.equal(result.read.stable_id, pane.stable_id);
    } finally {
      await fresh.stop();
    }
  });
});

describe('CLI waits', () => {
  it('case 6: run, wait output, read', async () => {
    const server = await startServer();
    const herdr = herdrCli(server);
    try {
      await herdr('workspace', 'create', '--cwd', server.dir);
      await herdr('pane', 'run', '1-1', "echo alpha && echo beta && printf 'ready\\n'");
      const { stdout } = await herdr('wait', 'output', '1-1', '--match', 'ready', '--timeout', '5000');
      assert.equal(JSON.parse(stdout).result.type, 'output_matched');
      const read = await herdr('pane', 'read', '1-1');
      assert.match(read.stdout, /alpha/);
      assert.match(read.stdout, /^(?:[$#] )?ready$/m);
      await assert.rejects(herdr('wait', 'output', '1-1', '--match', 'nope', '--timeout', '200'), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.equal(JSON.parse(error.stderr).error.code, 'timeout');
        return true;
      });
      // A shell pane has no agent, so it is `unknown`: waiting for that returns at once.
      const unknown = await herdr('wait', 'agent-state', '1-1', '--state', 'unknown', '--timeout', '5000');
      const event = JSON.parse(unknown.stdout);
      assert.equal(event.event, 'pane.agent_state_changed');
      assert.equal(event.data.state, 'unknown');
      await assert.rejects(herdr('wait', 'agent-state', '1-1', '--state', 'idle', '--timeout', '300'), (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stderr, /timed out waiting for agent state change/);
        return true;
      });
    } finally {
      await server.stop();
    }
  });
});

describe('events.wait', () => {
  it('returns the first matching event after the request, with filters, or times out', async () => {
    const server = await startServer();
    try {
      await newWorkspace(server);
      const pending = server.call('events.wait', { match_event: { event: 'pane_created', workspace_id: '1' }, timeout_ms: 5000 });
      // Listening before the events happen (registration and listening are one step on main).
      await statsUntil(server, (stats) => stats.waits === 1, 'the events.wait to be registered');
      await newWorkspace(server); // a pane_created in workspace 2: filtered out
      await server.call('pane.split', { target_pane_id: '1-1', direction: 'down' });
      const { event } = await pending;
      assert.equal(event.event, 'pane_created');
      assert.equal((event.data as { pane: { pane_id: string } }).pane.pane_id, '1-2');
      assert.ok((event.seq ?? 0) > 0);
      await assert.rejects(
        server.call('events.wait', { match_event: { event: 'workspace_closed' }, timeout_ms: 200 }),
        (error: HerdrError) => error.code === 'timeout',
      );
      assert.equal((await server.call('server.stats', {})).waits, 0);
    } finally {
      await server.stop();
    }
  });
});
