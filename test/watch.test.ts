/**
 * `herdr watch`: the fleet's table, once as text for scripts, and live on a
 * terminal (the CLI in a PTY of the test's own): states change as fake
 * agents and hook reports change them, blocked first; Enter attaches to the
 * selected pane and detaching comes back to the view.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EventClient } from './helpers/events.js';
import { type TestServer, REPO_ROOT, eventually, herdrCli, newWorkspace, promptShown, readUntil, sleep, startServer } from './helpers/server.js';
import { CliTerminal } from './helpers/terminal.js';
import { parseKeys } from '../src/cli/watch/watch-view.js';
import type { EventLine, StreamEvents } from '../src/protocol/events.js';

const FAKE_AGENTS = join(REPO_ROOT, 'test', 'fixtures', 'bin');

const activity = (line: EventLine): StreamEvents['pane.output_activity'] | undefined =>
  line.event === 'pane.output_activity' ? (line.data as StreamEvents['pane.output_activity']) : undefined;

describe('herdr watch', () => {
  let server: TestServer;
  let shellPane: string;
  before(async () => {
    server = await startServer({ env: { PATH: `${FAKE_AGENTS}:${process.env.PATH}` } });
    const claude = await newWorkspace(server, { label: 'alpha' });
    await promptShown(server, claude.paneId);
    await server.call('pane.send_input', { pane_id: claude.paneId, text: 'claude' });
    const bot = await newWorkspace(server, { label: 'beta' });
    await server.call('pane.report_agent', { pane_id: bot.paneId, source: 'test', agent: 'mybot', state: 'working' });
    shellPane = (await newWorkspace(server, { label: 'gamma' })).paneId;
    await promptShown(server, shellPane);
    await eventually(async () => (await server.call('pane.get', { pane_id: claude.paneId })).pane.agent_state === 'blocked', 'the fake claude to block');
  });
  after(() => server.stop());

  it('--once prints the table, blocked first, for scripts', async () => {
    const { stdout } = await herdrCli(server)('watch', '--once');
    const lines = stdout.trimEnd().split('\n');
    assert.match(lines[0] ?? '', /^PANE +WORKSPACE +AGENT +STATE +FOR +QUEUE +EXIT +DIRECTORY +MESSAGE$/);
    // A blocked agent's question with its menu, from the approval inbox.
    assert.match(lines[1] ?? '', /^w1:p1 +w1 alpha +claude +blocked +\d+s +- +- .* Do you want to proceed\? \[1 Yes · 2 No\]$/);
    assert.match(lines[2] ?? '', /^w2:p1 +w2 beta +mybot +working +\d+s +- +- /);
    // A shell has no agent state: whether it prints shows instead (its prompt was its last output).
    assert.match(lines[3] ?? '', /^w3:p1 +w3 gamma +- +(active|quiet) +\d+s +- +- /);
    assert.equal(lines.length, 4);

    await server.call('pane.report_agent', { pane_id: '2-1', source: 'test', agent: 'mybot', state: 'blocked', message: 'approve the deploy?' });
    // A reported blocked with no menu on the screen shows once the server gave up waiting for one (BLOCKED_MENU_GRACE_MS).
    await eventually(async () => (await server.call('pane.get', { pane_id: '2-1' })).pane.agent_state === 'blocked', 'mybot blocked', 5000);
    const again = (await herdrCli(server)('watch', '--once')).stdout.split('\n');
    assert.match(again[2] ?? '', /^w2:p1 +w2 beta +mybot +blocked +\d+s +- +- +\S.* +approve the deploy\?$/);
    await server.call('pane.report_agent', { pane_id: '2-1', source: 'test', agent: 'mybot', state: 'working' });
  });

  it('shows the fleet live, follows events, attaches on Enter and comes back on detach', async () => {
    const terminal = new CliTerminal(['watch', '--socket', server.socketPath], { cwd: server.dir, cols: 120, rows: 20 });
    try {
      await terminal.screenMatches(/herdr watch · 3 panes in 3 workspaces · 1 blocked · 1 working · 0 idle · 1 unknown/);
      let screen = await terminal.screen();
      const order = ['w1:p1', 'w2:p1', 'w3:p1'].map((id) => screen.search(new RegExp(`^${id} `, 'm')));
      assert.ok(order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0))), `rows in state order:\n${screen}`);

      // An event, no polling: the hook's report shows as it happens.
      await server.call('pane.report_agent', { pane_id: '2-1', source: 'test', agent: 'mybot', state: 'blocked', message: 'ship it?' });
      await terminal.screenMatches(/2 blocked · 0 working/);
      // The message comes with the lists read after the event.
      await terminal.screenMatches(/^w2:p1 +w2 beta +mybot +blocked .*ship it\?$/m);
      await server.call('pane.report_agent', { pane_id: '2-1', source: 'test', agent: 'mybot', state: 'idle' });
      await terminal.screenMatches(/1 blocked · 0 working · 1 idle/);

      terminal.type('\x1b[F'); // End: the plain shell, last
      terminal.type('\r');
      await terminal.screenMatches(/^\$ /m);
      terminal.type('echo attached-from-watch\r');
      await terminal.screenMatches(/^attached-from-watch$/m);
      terminal.type('\x1c');
      await terminal.screenMatches(/herdr watch · 3 panes/);
      await readUntil(server, shellPane, (text) => /^attached-from-watch$/m.test(text));

      terminal.type('q');
      assert.equal(await terminal.exited, 0);
    } finally {
      terminal.kill();
    }
  });

  it('counts an agent\'s queued prompts, shows its menu when it asks, and a digit answers it', async () => {
    const FAKE_AGENT = join(REPO_ROOT, 'bench', 'fixtures', 'agents', 'fake-agent');
    const { agent } = await server.call('agent.start', { command: [FAKE_AGENT], cwd: server.dir, name: 'asker', label: 'delta', timeout_ms: 10_000 });
    const terminal = new CliTerminal(['watch', '--socket', server.socketPath], { cwd: server.dir, cols: 150, rows: 20 });
    try {
      await terminal.screenMatches(/herdr watch · 4 panes/);
      await server.call('agent.prompt', { target: 'asker', text: 'work 1500 first' });
      await server.call('agent.prompt', { target: 'asker', text: 'ask 10' });
      const row = new RegExp(`^${agent.terminal_id} +w\\d+ delta +fake-agent +working +\\d+s +1 `, 'm');
      await terminal.screenMatches(row);
      // The question comes, blocked rows first: the fake claude's, then this one.
      await terminal.screenMatches(new RegExp(`^${agent.terminal_id} .*blocked .*Do you want to proceed\\? \\[1 Yes · 2 No\\]$`, 'm'));
      const screen = await terminal.screen();
      assert.ok(screen.indexOf('\nw1:p1 ') < screen.indexOf(`\n${agent.terminal_id} `), screen);
      terminal.type('\x1b[B'); // down: asker
      terminal.type('2');
      await terminal.screenMatches(new RegExp(`${agent.terminal_id}: answered 2\\. No`));
      await readUntil(server, agent.pane_id, (text) => /you chose 2/.test(text));
      terminal.type('q');
      assert.equal(await terminal.exited, 0);
    } finally {
      terminal.kill();
      await server.call('pane.close', { pane_id: agent.pane_id });
    }
  });

  it('a pane without an agent shows whether it prints: active while a line comes every half second, quiet and since when after', async () => {
    const { paneId } = await newWorkspace(server, { label: 'printer' });
    const { pane } = await server.call('pane.get', { pane_id: paneId });
    const events = await EventClient.subscribe(server.socketPath, { subscriptions: [{ type: 'pane.output_activity', pane_id: pane.stable_id }] });
    try {
      await promptShown(server, paneId);
      // The prompt was output too, reported a moment after it is on the screen: once its
      // stretch has been seen to end, the loop's is a new one.
      await events.until((lines) => lines.some((line) => activity(line)?.active === false), 'the prompt\'s stretch to end');
      const seen = events.events.length;
      await server.call('pane.send_input', { pane_id: paneId, text: 'for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo tick-$i; sleep 0.5; done' });
      // Six seconds of a line every half second: active the whole time, then quiet 2 s after the last.
      await events.until((lines) => lines.slice(seen).some((line) => activity(line)?.active === true), 'active');
      await sleep(3000);
      const busy = (await herdrCli(server)('watch', '--once')).stdout.split('\n').find((line) => line.startsWith(`${pane.stable_id} `));
      assert.match(busy ?? '', /^w\d+:p1 +w\d+ printer +- +active +\d+s /, 'printing for seconds, not a state');
      const info = (await server.call('pane.get', { pane_id: paneId })).pane;
      assert.equal(info.output_active, true);
      assert.ok((info.output_active_since ?? Infinity) <= Date.now() - 2500, 'active since the first tick');
      const quiet = await events.until((lines) => lines.slice(seen).some((line) => activity(line)?.active === false), 'quiet after the loop', 15_000);
      const last = quiet.slice(seen).map(activity).find((data) => data?.active === false);
      assert.ok(last && Date.now() - last.last_output_at >= 1900, 'quiet means 2 s without output');
      const after = (await herdrCli(server)('watch', '--once')).stdout.split('\n').find((line) => line.startsWith(`${pane.stable_id} `));
      assert.match(after ?? '', /^w\d+:p1 +w\d+ printer +- +quiet +\d+s /);
      const still = (await server.call('pane.get', { pane_id: paneId })).pane;
      assert.equal(still.output_active, false);
      assert.equal(still.last_output_at, last.last_output_at);
    } finally {
      events.close();
      await server.call('pane.close', { pane_id: pane.stable_id });
    }
  });

  it('reads keys as a terminal sends them', () => {
    assert.deepEqual(parseKeys('\x1b[A\x1b[Bjk\r'), ['up', 'down', 'down', 'up', 'enter']);
    assert.deepEqual(parseKeys('\x1b[5~\x1b[6~\x1bOH\x1b[F'), ['pageUp', 'pageDown', 'home', 'end']);
    assert.deepEqual(parseKeys('\x1b'), ['quit']);
    assert.deepEqual(parseKeys('\x1b[1;5Cq'), ['quit'], 'an unknown sequence is skipped whole');
    assert.deepEqual(parseKeys('\x1b[B2\x1b[5~'), ['down', '2', 'pageUp'], 'a digit answers; one inside a sequence is not one');
  });
});
