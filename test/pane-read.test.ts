/** docs/protocol.md §6: what pane.read returns — wrapped lines, the last N rows, truncated, ANSI, history. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type TestServer, eventually, readUntil, startServer } from './helpers/server.js';

/** Runs `script` with sh in a fresh workspace (then keeps the pane alive) and returns the pane id. */
async function paneRunning(server: TestServer, script: string, size: { cols?: number; rows?: number } = {}) {
  const { workspace } = await server.call('workspace.create', {
    cwd: server.dir,
    command: ['/bin/sh', '-c', `${script}; exec sleep 600`],
    ...size,
  });
  return `${workspace.workspace_id}-1`;
}

async function read(server: TestServer, paneId: string, params: { source?: 'visible' | 'recent'; lines?: number; strip_ansi?: boolean; format?: 'text' | 'ansi' }) {
  return (await server.call('pane.read', { pane_id: paneId, source: 'recent', ...params })).read;
}

describe('pane.read', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('visible joins a soft-wrapped line; recent gives its physical rows', async () => {
    const long = 'abcdefghij'.repeat(5);
    const pane = await paneRunning(server, `printf '%s\\nnext\\n' ${long}`, { cols: 20, rows: 10 });
    const visible = await readUntil(server, pane, (t) => t.includes('next'), { source: 'visible' });
    assert.equal(visible, `${long}\nnext\n`);
    const recent = await read(server, pane, { lines: 10 });
    assert.equal(recent.text, `${long.slice(0, 20)}\n${long.slice(20, 40)}\n${long.slice(40)}\nnext\n`);
    assert.equal(recent.truncated, false);
  });

  it('history read back after the shard went quiet (full blocks sealed) is every row, in order', async () => {
    // A quiet time of its own, short, so that the blocks are sealed while the test looks.
    const quick = await startServer({ serverArgs: ['--reclaim-after', '300'] });
    try {
      const pane = await paneRunning(quick, `awk 'BEGIN { for (i = 1; i <= 12000; i++) printf "row %06d of the history, styled \\033[1mbold\\033[0m\\n", i }'; echo done-filling`);
      await readUntil(quick, pane, (t) => /^done-filling$/m.test(t), { source: 'visible' });
      const historyBytes = async () => (await quick.call('server.stats', {})).shards.reduce((sum, shard) => sum + shard.history_bytes, 0);
      const filled = await historyBytes();
      assert.ok(filled > 500_000, `the history holds ${filled} bytes`);
      // Sealed blocks keep only their packed form: under half the bytes for these rows.
      await eventually(async () => (await historyBytes()) < filled / 2, 'the quiet shard to seal the history', 10_000);
      await readBack(quick, pane);
    } finally {
      await quick.stop();
    }
  });

  async function readBack(server: TestServer, pane: string): Promise<void> {
    const { text } = await read(server, pane, { lines: 10_000 });
    const rows = text.split('\n').filter((row) => row.startsWith('row '));
    const first = Number(rows[0]?.slice(4, 10));
    assert.ok(rows.length > 9000, `${rows.length} rows`);
    rows.forEach((row, i) => assert.equal(row, `row ${String(first + i).padStart(6, '0')} of the history, styled bold`));
    const styled = await read(server, pane, { lines: 10_000, strip_ansi: false });
    assert.match(styled.text, /row 005000 of the history, styled \x1b\[[0-9;]*1mbold\x1b\[0m/);
  }

  it('recent returns the last N rows even when the screen is mostly empty', async () => {
    const pane = await paneRunning(server, "seq 1 300; printf '\\033[2J\\033[H'; echo tail");
    await readUntil(server, pane, (t) => /^tail$/m.test(t), { source: 'visible' });
    const { text, truncated } = await read(server, pane, { lines: 50 });
    const rows = text.trimEnd().split('\n');
    assert.equal(rows.length, 50);
    assert.equal(rows.at(-1), 'tail');
    assert.equal(truncated, true);
  });

  it('moving rows to history never breaks an escape sequence in two', async () => {
    // 99 line feeds then `ESC [2J`: a write sized to the scrollback's room ends inside the sequence.
    const pane = await paneRunning(server, `printf "$(seq 1 99)\\n\\033[2J\\033[Hafter\\n"`);
    const screen = await readUntil(server, pane, (t) => /after$/m.test(t), { source: 'visible' });
    assert.equal(screen, 'after\n');
  });

  it('recent gives 10 000 rows with no gap across history and emulator, and truncated', async () => {
    const pane = await paneRunning(server, 'seq 1 12000');
    await readUntil(server, pane, (t) => /^12000$/m.test(t), { lines: 5 }, 20_000);
    const { text, truncated } = await read(server, pane, { lines: 10_000 });
    const rows = text.trimEnd().split('\n');
    assert.equal(rows.length, 10_000);
    rows.forEach((row, i) => assert.equal(row, String(2001 + i), `row ${i}`));
    assert.equal(truncated, true);
    const capped = await read(server, pane, { lines: 50_000 });
    assert.equal(capped.text.trimEnd().split('\n').length, 10_000, 'lines is capped at 10 000');
  });

  it('lines: 0 returns "" and short output is not truncated', async () => {
    const pane = await paneRunning(server, 'echo one; echo two');
    await readUntil(server, pane, (t) => t.includes('two'));
    assert.deepEqual(await read(server, pane, { lines: 0 }).then((r) => [r.text, r.truncated]), ['', true]);
    const all = await read(server, pane, { lines: 80 });
    assert.equal(all.text, 'one\ntwo\n');
    assert.equal(all.truncated, false);
  });

  it('strip_ansi:false keeps SGR colours, on screen and in history; the default strips them', async () => {
    const pane = await paneRunning(server, "printf '\\033[31mred\\033[0m plain \\033[1;42mbold\\033[0m\\n'; seq 1 700");
    await readUntil(server, pane, (t) => /^700$/m.test(t), { lines: 5 });
    const plain = await read(server, pane, { lines: 1000 });
    assert.match(plain.text, /^red plain bold$/m);
    assert.doesNotMatch(plain.text, /\x1b/);
    const styled = await read(server, pane, { lines: 1000, strip_ansi: false });
    assert.match(styled.text, /^\x1b\[0;31mred\x1b\[0m plain \x1b\[0;1;42mbold\x1b\[0m$/m);
    assert.deepEqual([plain.format, styled.format], ['text', 'ansi']);
    // herdr's current spelling, which wins over strip_ansi when both are sent.
    assert.equal((await read(server, pane, { lines: 1000, format: 'ansi' })).text, styled.text);
    assert.equal((await read(server, pane, { lines: 1000, format: 'text', strip_ansi: false })).text, plain.text);
  });

  it('visible with strip_ansi:false colours the screen', async () => {
    const pane = await paneRunning(server, "printf 'x \\033[38;5;208morange\\033[0m\\n'");
    const text = await readUntil(server, pane, (t) => t.includes('orange'), { source: 'visible', strip_ansi: false });
    assert.equal(text, 'x \x1b[0;38;5;208morange\x1b[0m\n');
  });

  it('clear (ESC [3J) empties the history too', async () => {
    const pane = await paneRunning(server, "seq 1 2000; printf '\\033[H\\033[2J\\033[3J'; echo fresh");
    await readUntil(server, pane, (t) => /^fresh$/m.test(t), { source: 'visible' });
    const { text } = await read(server, pane, { lines: 10_000 });
    assert.equal(text, 'fresh\n');
  });

  it('in the alternate screen, recent is the screen', async () => {
    const pane = await paneRunning(server, "seq 1 500; printf '\\033[?1049h\\033[Hfull screen app\\n'");
    await readUntil(server, pane, (t) => t.includes('full screen app'), { source: 'visible' });
    const { text } = await read(server, pane, { lines: 1000 });
    assert.equal(text, 'full screen app\n');
  });

  it('revision increases when the screen changes', async () => {
    const pane = await paneRunning(server, 'echo first');
    await readUntil(server, pane, (t) => t.includes('first'));
    const before = (await read(server, pane, {})).revision;
    assert.ok(before > 0);
    await server.call('pane.send_text', { pane_id: pane, text: 'typed' }); // the tty echoes it
    await readUntil(server, pane, (t) => t.includes('typed'));
    assert.ok((await read(server, pane, {})).revision > before);
  });
});

describe('wide characters', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('an emoji takes two columns, as the agent CLIs lay their rows out (Unicode 11 widths)', async () => {
    // Each row puts its mark at column 8 with an absolute move (CSI 8 G): the spaces left before it
    // say how many columns the characters before it took. Unicode 6 widths would give an emoji one.
    const rows = ['a🚀b', 'x✅y', '漢字', 'plain'];
    const script = rows.map((row) => `printf '%s\\033[8G|\\n' '${row}'`).join('; ');
    const { workspace } = await server.call('workspace.create', { cwd: server.dir, command: ['/bin/bash', '-c', `${script}; exec sleep 600`] });
    const text = await readUntil(server, `${workspace.workspace_id}-1`, (t) => t.includes('plain'), { source: 'visible' });
    assert.deepEqual(text.split('\n').slice(0, 4), ['a🚀b   |', 'x✅y   |', '漢字   |', 'plain  |']);
  });
});
