/**
 * docs/protocol.md §5.6: herdr's current pane methods that need no screen, end to end.
 * `pane.current` finds the pane a calling process runs in from the connection itself
 * (SO_PEERCRED, then the pane's process session or mark), with no HERDR_PANE_ID to go by;
 * `pane.input.set` decides whether a person's right clicks reach the program (as `herdr pane
 * attach` types them); `pane.selection.read` copies text between two cells, history included.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type TestServer, codeOf, eventually, herdrCli, oneAnswer, promptShown, readUntil, startServer } from './helpers/server.js';
import { CliTerminal } from './helpers/terminal.js';

const KEYLOGGER = join(fileURLToPath(new URL('.', import.meta.url)), 'fixtures', 'keylogger.js');

/** A client in a file: asks `pane.current` on the socket given, with no caller_pane_id, and writes the answer line to a file. */
const PROBE = `
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
const [socket, out] = process.argv.slice(2);
const client = connect(socket, () => client.write(JSON.stringify({ id: 'probe', method: 'pane.current', params: { caller_only: true } }) + '\\n'));
let data = '';
client.on('data', (chunk) => (data += chunk));
client.on('close', () => writeFileSync(out, data));
`;

describe('pane.current, pane.input.set, pane.selection.read', () => {
  let server: TestServer;
  let cli: ReturnType<typeof herdrCli>;
  let probe: string;
  before(async () => {
    server = await startServer();
    cli = herdrCli(server);
    probe = join(server.dir, 'probe.mjs');
    writeFileSync(probe, PROBE);
  });
  after(() => server.stop());

  /** Runs `script` in the pane's shell and returns what it wrote to `file` (in the server's directory). */
  async function fromPane(pane: string, script: string, file: string): Promise<Record<string, any>> {
    await server.call('pane.send_input', { pane_id: pane, text: script });
    const path = join(server.dir, file);
    const text = await eventually(() => {
      try {
        const written = readFileSync(path, 'utf8');
        return written.trim() === '' ? undefined : written;
      } catch {
        return undefined;
      }
    }, `${file} from the pane`);
    return JSON.parse(text.trim().split('\n')[0] ?? '') as Record<string, any>;
  }

  it('pane.current finds the pane the calling process runs in, without HERDR_PANE_ID', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir });
    const first = `${workspace.stable_id}:p1`;
    await server.call('pane.split', { target_pane_id: first, direction: 'right', focus: true });
    const second = `${workspace.stable_id}:p2`;
    await promptShown(server, first);
    // The focused pane is the other one: an answer from focus would be wrong.
    assert.equal((await server.call('pane.get', { pane_id: second })).pane.focused, true);

    // herdr's CLI in the pane, its pane variable removed: found by its process.
    const viaCli = await fromPane(first, `env -u HERDR_PANE_ID "$HERDR_BIN_PATH" pane current > cli.json`, 'cli.json');
    assert.equal(viaCli.result.type, 'pane_current');
    assert.equal(viaCli.result.pane.stable_id, first);
    assert.equal(viaCli.result.found_by, 'process');

    // A program with no environment at all: still in the pane's process session.
    const bare = await fromPane(first, `env -i ${process.execPath} ${probe} ${server.currentSocketPath} bare.json`, 'bare.json');
    assert.equal(bare.result.pane.pane_id, first, 'the current dialect names it by its stable id');
    assert.equal(bare.result.found_by, 'process');

    // A daemon that left the session keeps the pane's mark.
    const daemon = await fromPane(first, `setsid -f env -u HERDR_PANE_ID ${process.execPath} ${probe} ${server.currentSocketPath} daemon.json`, 'daemon.json');
    assert.equal(daemon.result.pane.pane_id, first);

    // Left the session and dropped the mark: in no pane any more, and told so.
    const gone = await fromPane(first, `setsid -f env -i ${process.execPath} ${probe} ${server.currentSocketPath} gone.json`, 'gone.json');
    assert.equal(gone.error.code, 'pane_not_found');
    assert.match(gone.error.message, /runs in no pane/);
  });

  it('pane.current from outside any pane: herdr\'s focused pane, or a clear error with caller_only', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, focus: true });
    const pane = `${workspace.stable_id}:p1`;
    const answer = await oneAnswer(server.currentSocketPath, { id: 'c', method: 'pane.current', params: {} });
    assert.deepEqual([answer.result.pane.pane_id, answer.result.found_by], [pane, 'focused']);
    const strict = await oneAnswer(server.currentSocketPath, { id: 'c', method: 'pane.current', params: { caller_only: true } });
    assert.equal(strict.error.code, 'pane_not_found');
    assert.match(strict.error.message, /^no current pane: the calling process runs in no pane of this server/);
    // herdr's caller_pane_id wins; a pane that is not there is pane_not_found.
    const named = await server.call('pane.current', { caller_pane_id: pane });
    assert.deepEqual([named.pane.stable_id, named.found_by], [pane, 'caller_pane_id']);
    assert.equal(await codeOf(server.call('pane.current', { caller_pane_id: 'w99:p1' })), 'pane_not_found');

    // The CLI: the same answers, and the error on stderr (exit 1).
    const shown = JSON.parse((await cli('pane', 'current')).stdout) as { result: { pane: { stable_id: string }; found_by: string } };
    assert.deepEqual([shown.result.pane.stable_id, shown.result.found_by], [pane, 'focused']);
    await assert.rejects(cli('pane', 'current', '--caller-only'), (error: { code: number; stderr: string }) => error.code === 1 && /runs in no pane/.test(error.stderr));
    const byEnv = JSON.parse((await herdrCli(server, { HERDR_PANE_ID: pane })('pane', 'current')).stdout) as { result: { found_by: string } };
    assert.equal(byEnv.result.found_by, 'caller_pane_id');
  });

  it('pane.input.set routes a person\'s right clicks: dropped by default (herdr\'s), typed into the program with `pane`', async () => {
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: [process.execPath, KEYLOGGER] });
    const pane = `${workspace.stable_id}:p1`;
    const other = (await server.call('pane.split', { target_pane_id: pane, direction: 'down' })).pane.stable_id;
    await readUntil(server, pane, (text) => text.includes('ready'));
    assert.equal((await server.call('pane.get', { pane_id: pane })).pane.right_click, 'herdr');

    const terminal = new CliTerminal(['pane', 'attach', pane, '--socket', server.socketPath], { cwd: server.dir });
    try {
      await terminal.screenMatches(/ready/);
      const right = '\x1b[<2;5;3M\x1b[<2;5;3m';
      const left = '\x1b[<0;5;3M\x1b[<0;5;3m';
      terminal.type(`a${right}b${left}c`);
      await receivedExactly(server, pane, `ab${left}c`);

      assert.deepEqual(await server.call('pane.input.set', { pane_id: pane, right_click: 'pane' }), { type: 'ok' });
      assert.equal((await server.call('pane.get', { pane_id: pane })).pane.right_click, 'pane');
      assert.equal((await server.call('pane.get', { pane_id: other })).pane.right_click, 'herdr', 'only the pane named');
      // X10 and urxvt encodings too, and a right-button drag.
      const x10Right = '\x1b[M"%#';
      terminal.type(`d${right}\x1b[<34;6;3M${x10Right}e`);
      await receivedExactly(server, pane, `ab${left}cd${right}\x1b[<34;6;3M${x10Right}e`);

      await server.call('pane.input.set', { pane_id: pane, right_click: 'herdr' });
      terminal.type(`f\x1b[34;5;3M${x10Right}g`);
      await receivedExactly(server, pane, `ab${left}cd${right}\x1b[<34;6;3M${x10Right}efg`);
    } finally {
      terminal.kill();
    }
    assert.equal(await codeOf(server.call('pane.input.set', { pane_id: 'w99:p1', right_click: 'pane' })), 'pane_not_found');
    // herdr's pane.split sets it for the pane it starts.
    const split = await server.call('pane.split', { target_pane_id: pane, direction: 'right', right_click: 'pane' });
    assert.equal(split.pane.right_click, 'pane');
    const bad = await oneAnswer(server.currentSocketPath, { id: 'i', method: 'pane.input.set', params: { pane_id: pane, right_click: 'app' } });
    assert.equal(bad.error.code, 'invalid_request');
  });

  it('pane.selection.read copies between two cells, across wrapped rows and into the history', async () => {
    // 20 columns, 5 rows: 30 numbered lines, a wrapped one and wide characters scroll into the history.
    const script = `printf '%s\\n' 'abcdefghijklmnopqrstUVWXYZ' '日本語テキスト ok'; seq -f 'line %g' 1 6`;
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, cols: 20, rows: 5, command: ['/bin/sh', '-c', `${script}; exec sleep 600`] });
    const pane = `${workspace.stable_id}:p1`;
    await readUntil(server, pane, (text) => /^line 6$/m.test(text), { source: 'visible' });
    const visible = (await server.call('pane.read', { pane_id: pane, source: 'visible' })).read.text.split('\n');
    assert.deepEqual(visible.slice(0, 4), ['line 3', 'line 4', 'line 5', 'line 6']);
    const select = async (start: [number, number], end: [number, number], mode?: 'stream' | 'block') =>
      (await server.call('pane.selection.read', { pane_id: pane, start: { row: start[0], col: start[1] }, end: { row: end[0], col: end[1] }, ...(mode ? { mode } : {}) })).selection;

    // On the screen: from the middle of one row to the middle of the next.
    assert.equal((await select([0, 2], [1, 3])).text, 'ne 3\nline');
    // Backwards is the same selection.
    assert.equal((await select([1, 3], [0, 2])).text, 'ne 3\nline');
    // In the history (rows above the screen are negative): the wrapped line joins without a newline.
    // History, newest last: abcdefghijklmnopqrst | UVWXYZ | 日本語テキスト ok | line 1 | line 2
    const all = await select([-5, 0], [-1, 19]);
    assert.equal(all.text, 'abcdefghijklmnopqrstUVWXYZ\n日本語テキスト ok\nline 1\nline 2');
    assert.equal((await select([-5, 15], [-4, 2])).text, 'pqrstUVW');
    // A wide character counts two columns: columns 2 to 5 are 本 and 語.
    assert.equal((await select([-3, 2], [-3, 5])).text, '本語');
    assert.equal((await select([-3, 3], [-3, 4])).text, '本語', 'half of a wide character takes it whole');
    // Block: the same columns of each row.
    assert.equal((await select([-2, 0], [1, 3], 'block')).text, 'line\nline\nline\nline');
    // Past the ends: clamped to the rows there are, and said so.
    const clamped = await select([-100, 0], [100, 3]);
    assert.deepEqual([clamped.start.row, clamped.end.row], [-5, 4]);
    assert.equal(clamped.stable_id, pane);
    assert.equal(await codeOf(server.call('pane.selection.read', { pane_id: 'w99:p1', start: { row: 0, col: 0 }, end: { row: 0, col: 1 } })), 'pane_not_found');
    const current = await oneAnswer(server.currentSocketPath, { id: 's', method: 'pane.selection.read', params: { pane_id: pane, start: { row: 0, col: 0 }, end: { row: 0, col: 5 } } });
    assert.deepEqual([current.result.selection.pane_id, current.result.selection.text], [pane, 'line 3']);
  });
});

/** Everything the keylogger in `pane` has reported, as the bytes it received. */
async function receivedExactly(server: TestServer, pane: string, bytes: string): Promise<void> {
  const want = Buffer.from(bytes, 'latin1').toString('hex');
  await eventually(async () => {
    const { read } = await server.call('pane.read', { pane_id: pane, source: 'recent', lines: 10_000 });
    const got = [...read.text.matchAll(/^K:([0-9a-f]*)$/gm)].map((m) => m[1]).join('');
    if (got.length >= want.length) assert.equal(Buffer.from(got, 'hex').toString('latin1'), bytes);
    return got === want;
  }, `the keylogger to receive ${JSON.stringify(bytes)}`);
}
