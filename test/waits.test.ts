/** docs/protocol.md §8 pane.wait_for_output, the CLI's waits, and events.wait (EXT). */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HerdrError, call } from '../src/client/client.js';
import { METHOD_RESULTS } from '../src/protocol/methods.js';
import { currentSocketPathFor } from '../src/protocol/socket-path.js';
import { type TestServer, codeOf, eventually, herdrCli, newWorkspace, rawExchange, readUntil, startServer, statsUntil } from './helpers/server.js';

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

describe('events.wait with herdr\'s kinds', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  const oneWait = () => statsUntil(server, (stats) => stats.waits === 1, 'the events.wait to be registered');
  /** Reports `state` for the pane as an agent hook would: its status changes. */
  let seq = 0;
  const report = (paneId: string, state: 'working' | 'blocked') =>
    server.call('pane.report_agent', { pane_id: paneId, source: 'waits-test', agent: 'mybot', state, seq: ++seq });

  it('over herdr-current.sock: wait_matched with herdr\'s envelope and stable ids', async () => {
    const { paneId } = await newWorkspace(server);
    const { pane } = await server.call('pane.get', { pane_id: paneId });
    const current = { socketPath: currentSocketPathFor(server.socketPath) };
    const pending = call('events.wait', { match_event: { event: 'pane_agent_status_changed', pane_id: pane.stable_id, agent_status: 'blocked' }, timeout_ms: 10_000 }, current);
    await oneWait();
    await report(paneId, 'working'); // filtered out by agent_status
    await report(paneId, 'blocked');
    const answer = await pending;
    assert.ok(METHOD_RESULTS['events.wait'].safeParse(answer).success);
    assert.equal(answer.type, 'wait_matched');
    const workspace = pane.stable_id.split(':')[0];
    assert.deepEqual({ ...answer.event, seq: undefined }, {
      event: 'pane_agent_status_changed',
      data: { type: 'pane_agent_status_changed', pane_id: pane.stable_id, workspace_id: workspace, agent_status: 'blocked', agent: 'mybot' },
      seq: undefined,
    });
    // A lifecycle kind: the same line subscribers get, in stable ids.
    const created = call('events.wait', { match_event: { event: 'pane_created', workspace_id: workspace }, timeout_ms: 10_000 }, current);
    await oneWait();
    await server.call('pane.split', { target_pane_id: paneId, direction: 'right' });
    const { event } = await created;
    assert.equal(event.event, 'pane_created');
    const data = event.data as { type: string; pane: { pane_id: string; workspace_id: string } };
    assert.deepEqual([data.type, data.pane.pane_id, data.pane.workspace_id], ['pane_created', `${workspace}:p2`, workspace]);
  });

  it('over the 0.2.0 socket: event_matched with our line and compact ids, for the same herdr kind', async () => {
    const { workspaceId, paneId } = await newWorkspace(server);
    const pending = server.call('events.wait', { match_event: { event: 'pane_agent_status_changed', pane_id: paneId, agent_status: 'working' }, timeout_ms: 10_000 });
    await oneWait();
    await report(paneId, 'working');
    const answer = await pending;
    assert.equal(answer.type, 'event_matched');
    assert.equal(answer.event.event, 'pane.agent_status_changed');
    assert.deepEqual(answer.event.data, { pane_id: paneId, workspace_id: workspaceId, agent_status: 'working', agent: 'mybot' });
  });

  it('the envelope\'s protocol 22 asks for wait_matched on the 0.2.0 socket', async () => {
    const { paneId } = await newWorkspace(server);
    const line = { id: 'w', protocol: 22, method: 'events.wait', params: { match_event: { event: 'pane_agent_status_changed', pane_id: paneId }, timeout_ms: 10_000 } };
    const exchange = rawExchange(server.socketPath, `${JSON.stringify(line)}\n`, 10_000);
    await oneWait();
    await report(paneId, 'working');
    const { lines } = await exchange;
    const answer = JSON.parse(lines[0] ?? '{}') as { result?: { type: string; event: { event: string; data: { pane_id: string } } } };
    assert.equal(answer.result?.type, 'wait_matched');
    assert.equal(answer.result?.event.event, 'pane_agent_status_changed');
    assert.match(answer.result?.event.data.pane_id ?? '', /^w\d+:p\d+$/);
  });

  it('refuses a herdr kind this server has no event for, naming the ones it can wait for; nothing is left waiting', async () => {
    // herdr's pane_output_changed has no event here (herdr itself emits it only to plugins' hooks).
    for (const event of ['pane_output_changed'] as const) {
      await assert.rejects(
        server.call('events.wait', { match_event: { event, tab_id: 'w1:t1' }, timeout_ms: 100 }),
        (error: HerdrError) => error.code === 'unsupported_event_wait_match' && error.message.includes(event) && error.message.includes('pane_agent_status_changed'),
      );
    }
    const unknown = await server.request('events.wait', { match_event: { event: 'no_such_event' } });
    assert.ok('error' in unknown);
    assert.equal(unknown.error.code, 'invalid_request');
    assert.match(unknown.error.message, /pane_agent_status_changed/);
    assert.equal(await codeOf(server.call('events.wait', { match_event: { event: 'pane_exited', pane_id: '1-1' }, timeout_ms: 50 })), 'timeout');
    assert.equal((await server.call('server.stats', {})).waits, 0);
  });
});

