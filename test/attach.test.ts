/**
 * `herdr pane attach`, driven as a person would: the CLI runs in a PTY of the
 * test's own and its screen is read through a real terminal emulator.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer, eventually, newWorkspace, promptShown, readUntil, startServer } from './helpers/server.js';
import { CliTerminal } from './helpers/terminal.js';

const DETACH = '\x1c'; // Ctrl-\

describe('pane attach', () => {
  let server: TestServer;
  const terminals: CliTerminal[] = [];
  const attachTo = (paneId: string, ...flags: string[]) => {
    const terminal = new CliTerminal(['pane', 'attach', paneId, ...flags, '--socket', server.socketPath], { cwd: server.dir });
    terminals.push(terminal);
    return terminal;
  };

  before(async () => {
    server = await startServer();
  });
  after(async () => {
    for (const terminal of terminals) terminal.kill();
    await server.stop();
  });

  it('shows the pane, types into it, and detaches leaving it running', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const terminal = attachTo(paneId);
    await terminal.screenMatches(/^\$ /m);
    terminal.type('echo hi-from-attach\r');
    await terminal.screenMatches(/^hi-from-attach$/m);
    terminal.type(DETACH);
    assert.equal(await terminal.exited, 0);
    assert.match(await terminal.screen(), /detached from pane w1:p1/);
    const { pane } = await server.call('pane.get', { pane_id: paneId });
    assert.equal(pane.pane_id, paneId, 'the pane is still there');
    await readUntil(server, paneId, (text) => /^hi-from-attach$/m.test(text));
  });

  it('sends nothing with --read-only, and still detaches', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const terminal = attachTo(paneId, '--read-only');
    await terminal.screenMatches(/^\$ /m);
    terminal.type('echo typed-while-read-only\r');
    await server.call('pane.send_input', { pane_id: paneId, text: 'echo sent-by-api' });
    await terminal.screenMatches(/^sent-by-api$/m);
    terminal.type(DETACH);
    assert.equal(await terminal.exited, 0);
    const { read } = await server.call('pane.read', { pane_id: paneId, source: 'recent' });
    assert.doesNotMatch(read.text, /typed-while-read-only/);
  });

  it('shows output to two attached clients at once', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const first = attachTo(paneId);
    const second = attachTo(paneId, '--read-only');
    await first.screenMatches(/^\$ /m);
    await second.screenMatches(/^\$ /m);
    first.type('echo seen-by-both\r');
    await first.screenMatches(/^seen-by-both$/m);
    await second.screenMatches(/^seen-by-both$/m);
    first.type(DETACH);
    second.type(DETACH);
    assert.equal(await first.exited, 0);
    assert.equal(await second.exited, 0);
  });

  it('ends with the pane\'s exit code when its program exits', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const terminal = attachTo(paneId);
    await terminal.screenMatches(/^\$ /m);
    terminal.type('exit 7\r');
    assert.equal(await terminal.exited, 7);
    assert.match(await terminal.screen(), /pane \S+ exited with code 7/);
  });

  it('fails with one clear line when the pane does not exist', async () => {
    const terminal = attachTo('9-9');
    assert.equal(await terminal.exited, 1);
    assert.equal(terminal.output.trim(), 'herdr: pane 9-9 not found');
  });

  it('detaches with the key given by --detach-key', async () => {
    const { paneId } = await newWorkspace(server);
    await promptShown(server, paneId);
    const terminal = attachTo(paneId, '--detach-key', 'C-g');
    await terminal.screenMatches(/^\$ /m);
    terminal.type(DETACH); // not the detach key now: it reaches the pane
    terminal.type('\x07');
    assert.equal(await terminal.exited, 0);
  });

  it('keeps the pane\'s size, unless --resize makes it follow the terminal', async () => {
    const { paneId } = await newWorkspace(server, { cols: 120, rows: 40 });
    await promptShown(server, paneId);
    const keeping = attachTo(paneId);
    await keeping.screenMatches(/^\$ /m);
    keeping.type(DETACH);
    assert.equal(await keeping.exited, 0);
    assert.match(await keeping.screen(), /the pane is 120×40, this terminal 100×30: --resize/);
    let { pane } = await server.call('pane.get', { pane_id: paneId });
    assert.deepEqual([pane.cols, pane.rows], [120, 40]);

    const following = attachTo(paneId, '--resize');
    await following.screenMatches(/^\$ /m);
    ({ pane } = await server.call('pane.get', { pane_id: paneId }));
    assert.deepEqual([pane.cols, pane.rows], [100, 30]);
    following.resize(90, 20);
    await eventually(async () => {
      const { pane: now } = await server.call('pane.get', { pane_id: paneId });
      return now.cols === 90 && now.rows === 20;
    }, 'the pane to follow the terminal to 90×20');
    following.type(DETACH);
    assert.equal(await following.exited, 0);
  });
});
