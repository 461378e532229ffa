/** docs/protocol.md §7 and §5.1: every key name's bytes, validation before writing, send_text, send_input, resize. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HerdrError } from '../src/client/client.js';
import { type TestServer, eventually, readUntil, startServer } from './helpers/server.js';

const KEYLOGGER = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'keylogger.js');

const hex = (s: string) => Buffer.from(s, 'latin1').toString('hex');
const ESC = '\x1b';

/** Key name → the bytes a program must receive (normal cursor mode). */
const EXPECTED: Array<[string, string]> = [
  ['Enter', '\r'], ['enter', '\r'], ['Tab', '\t'], ['tab', '\t'], ['Esc', ESC], ['esc', ESC], ['Escape', ESC],
  ['Backspace', '\x7f'], ['backspace', '\x7f'], ['Space', ' '],
  ['Up', `${ESC}[A`], ['up', `${ESC}[A`], ['Down', `${ESC}[B`], ['down', `${ESC}[B`],
  ['Right', `${ESC}[C`], ['right', `${ESC}[C`], ['Left', `${ESC}[D`], ['left', `${ESC}[D`],
  ['Home', `${ESC}[H`], ['End', `${ESC}[F`], ['Insert', `${ESC}[2~`], ['Delete', `${ESC}[3~`],
  ['PageUp', `${ESC}[5~`], ['PageDown', `${ESC}[6~`], ['BTab', `${ESC}[Z`], ['shift+tab', `${ESC}[Z`],
  ['F1', `${ESC}OP`], ['F2', `${ESC}OQ`], ['F3', `${ESC}OR`], ['F4', `${ESC}OS`], ['F5', `${ESC}[15~`],
  ['F6', `${ESC}[17~`], ['F7', `${ESC}[18~`], ['F8', `${ESC}[19~`], ['F9', `${ESC}[20~`], ['F10', `${ESC}[21~`],
  ['F11', `${ESC}[23~`], ['F12', `${ESC}[24~`],
  ['C-c', '\x03'], ['c-c', '\x03'], ['ctrl+c', '\x03'], ['C-C', '\x03'], ['M-x', `${ESC}x`], ['alt+x', `${ESC}x`],
  ['a', 'a'], ['Z', 'Z'], ['~', '~'], ['  Enter  ', '\r'],
  ...'abdefghijklmnopqrstuvwxyz'.split('').flatMap((l): Array<[string, string]> => [
    [`C-${l}`, String.fromCharCode(l.charCodeAt(0) - 0x60)],
    [`ctrl+${l.toUpperCase()}`, String.fromCharCode(l.charCodeAt(0) - 0x60)],
  ]),
];

async function keylogger(server: TestServer, ...modes: string[]): Promise<string> {
  const { workspace } = await server.call('workspace.create', {
    cwd: server.dir,
    command: [process.execPath, KEYLOGGER, ...modes],
  });
  const pane = `${workspace.workspace_id}-1`;
  await readUntil(server, pane, (t) => t.includes('ready'));
  return pane;
}

/** Everything the keylogger has reported so far, as one hex string. */
async function received(server: TestServer, pane: string): Promise<string> {
  const { read } = await server.call('pane.read', { pane_id: pane, source: 'recent', lines: 10_000 });
  return [...read.text.matchAll(/^K:([0-9a-f]*)$/gm)].map((m) => m[1]).join('');
}

function receivedExactly(server: TestServer, pane: string, bytes: string): Promise<string> {
  const want = hex(bytes);
  return eventually(async () => {
    const got = await received(server, pane);
    if (got.length >= want.length) assert.equal(got, want);
    return got === want ? got : undefined;
  }, `keylogger to receive ${want}`);
}

describe('pane input', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('sends the bytes of every key name of docs/protocol.md §7', async () => {
    const pane = await keylogger(server);
    await server.call('pane.send_keys', { pane_id: pane, keys: EXPECTED.map(([name]) => name) });
    await receivedExactly(server, pane, EXPECTED.map(([, bytes]) => bytes).join(''));
  });

  it('uses the SS3 form of arrows, Home and End under application cursor mode', async () => {
    const pane = await keylogger(server, 'app');
    await server.call('pane.send_keys', { pane_id: pane, keys: ['Up', 'Down', 'Right', 'Left', 'Home', 'End', 'Enter'] });
    await receivedExactly(server, pane, `${ESC}OA${ESC}OB${ESC}OC${ESC}OD${ESC}OH${ESC}OF\r`);
  });

  it('speaks the kitty keyboard protocol to a program that asks: answers its queries, then encodes keys by the flags it pushed', async () => {
    // Flag 1 (disambiguate): Esc and modified letters become CSI u; Enter and text stay as they were.
    const disambiguate = await keylogger(server, 'kitty=1');
    await server.call('pane.send_keys', { pane_id: disambiguate, keys: ['Esc', 'C-c', 'M-x', 'Enter', 'a', 'Up'] });
    await receivedExactly(server, disambiguate, `${ESC}[?0u${ESC}[?1u${ESC}[27u${ESC}[99;5u${ESC}[120;3u\ra${ESC}[A`);
    // Flag 8 (every key as an escape code): Enter and text keys too.
    const allKeys = await keylogger(server, 'kitty=9');
    await server.call('pane.send_keys', { pane_id: allKeys, keys: ['Enter', 'a', 'Tab'] });
    await receivedExactly(server, allKeys, `${ESC}[?0u${ESC}[?9u${ESC}[13u${ESC}[97u${ESC}[9u`);
    // Popped: legacy keys again.
    const popped = await keylogger(server, 'kitty=1', 'kitty-pop');
    await server.call('pane.send_keys', { pane_id: popped, keys: ['Esc', 'Enter'] });
    await receivedExactly(server, popped, `${ESC}[?0u${ESC}[?1u${ESC}[?0u${ESC}\r`);
  });

  it('rejects an unknown key with invalid_key and writes nothing of the request', async () => {
    const pane = await keylogger(server);
    for (const bad of ['Bogus', 'C-1', 'ctrl+', '', 'é', 'F13']) {
      await assert.rejects(server.call('pane.send_keys', { pane_id: pane, keys: ['a', bad] }), (error: HerdrError) => {
        assert.equal(error.code, 'invalid_key');
        assert.equal(error.response.error.message, `unsupported key ${bad}`);
        return true;
      });
    }
    await assert.rejects(server.call('pane.send_input', { pane_id: pane, text: 'lost', keys: ['Nope'] }), /invalid_key/);
    await server.call('pane.send_keys', { pane_id: pane, keys: ['b'] });
    await receivedExactly(server, pane, 'b');
  });

  it('send_text writes the UTF-8 bytes unchanged, with no newline', async () => {
    const pane = await keylogger(server);
    await server.call('pane.send_text', { pane_id: pane, text: 'héllo\tworld' });
    const want = Buffer.from('héllo\tworld', 'utf8').toString('latin1');
    await receivedExactly(server, pane, want);
  });

  it('send_input writes text then Enter, bracketed when the program asked and the text has a newline', async () => {
    const plain = await keylogger(server);
    await server.call('pane.send_input', { pane_id: plain, text: 'one\ntwo' });
    await receivedExactly(server, plain, 'one\ntwo\r');

    const pasting = await keylogger(server, 'paste');
    await server.call('pane.send_input', { pane_id: pasting, text: 'one\ntwo', keys: ['Tab'] });
    await receivedExactly(server, pasting, `${ESC}[200~one\ntwo${ESC}[201~\t`);
    await server.call('pane.send_input', { pane_id: pasting, text: 'single', keys: [] });
    await receivedExactly(server, pasting, `${ESC}[200~one\ntwo${ESC}[201~\tsingle`);
  });

  it('resize changes the PTY size the program sees and the pane info', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, cols: 90, rows: 20 });
    const pane = `${workspace.workspace_id}-1`;
    const { pane: info } = await server.call('pane.get', { pane_id: pane });
    assert.deepEqual([info.cols, info.rows], [90, 20]);
    const resized = await server.call('pane.resize', { pane_id: pane, cols: 100, rows: 30 });
    assert.ok(resized.type === 'pane_info');
    assert.deepEqual([resized.pane.cols, resized.pane.rows], [100, 30]);
    await server.call('pane.send_input', { pane_id: pane, text: 'stty size' });
    await readUntil(server, pane, (t) => /^(?:[$#] )?30 100$/m.test(t));
  });

  it('panes are 120×40 by default and get the HERDR_* environment', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, env: { HERDR_PANE_ID: 'forged', MY_VAR: 'mine' } });
    const pane = `${workspace.workspace_id}-1`;
    await server.call('pane.send_input', {
      pane_id: pane,
      text: 'stty size; echo "E:$HERDR_ENV:$HERDR_SOCKET_PATH:$HERDR_WORKSPACE_ID:$HERDR_PANE_ID:$TERM:$MY_VAR"',
    });
    const text = await readUntil(server, pane, (t) => /^E:1:/m.test(t));
    assert.match(text, /^(?:[$#] )?40 120$/m);
    const { pane: info } = await server.call('pane.get', { pane_id: pane });
    assert.ok(text.includes(`E:1:${server.socketPath}:${workspace.stable_id}:${info.stable_id}:xterm-256color:mine`));
  });
});
