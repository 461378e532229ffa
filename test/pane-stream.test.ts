/**
 * `pane.stream` over the raw socket: the ack's snapshot redraws the pane's
 * screen cell for cell in a fresh terminal; output arrives byte-exact and in
 * order (all 256 byte values); resizes and the exit are told; a consumer that
 * stops reading during a flood is resynced instead of cut off, with the
 * server's memory bounded and the pane not slowed; nothing is left once
 * streams end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import xtermHeadless from '@xterm/headless';
import { HerdrClient } from '../src/client/client.js';
import { type PaneStreamLine, type PaneStreamStarted, paneStreamLineSchema } from '../src/protocol/pane-stream.js';
import { STREAM_OUTPUT_BACKLOG_BYTES } from '../src/main/pane-stream.js';
import { type TestServer, eventually, newWorkspace, promptShown, sleep, startServer } from './helpers/server.js';
import { EventClient } from './helpers/events.js';
import { rssBytes } from './helpers/proc.js';

const { Terminal } = xtermHeadless;
/** What the kernel's socket buffers and the client's read buffer may hold beyond the server's own backlog. */
const SOCKET_BUFFER_ALLOWANCE = 3 * 1024 * 1024;
type HeadlessTerminal = InstanceType<typeof Terminal>;

/** A `pane.stream` read off a raw socket (EventClient keeps every line), which the test may stop reading. */
class StreamReader {
  private constructor(
    private readonly client: EventClient,
    readonly ack: PaneStreamStarted,
  ) {}

  static async open(socketPath: string, paneId: string): Promise<StreamReader> {
    const client = await EventClient.open(socketPath, 'pane.stream', { pane_id: paneId });
    const answer = client.ack as { result?: PaneStreamStarted; error?: { message: string } };
    if (!answer.result) throw new Error(answer.error?.message ?? 'no ack');
    return new StreamReader(client, answer.result);
  }

  get lines(): PaneStreamLine[] {
    return this.client.events as unknown as PaneStreamLine[];
  }

  get closed(): boolean {
    return this.client.closed;
  }

  /** The output so far, decoded. */
  bytes(): Buffer {
    return Buffer.concat(this.lines.flatMap((line) => (line.event === 'pane.output' ? [Buffer.from(line.data.bytes, 'base64')] : [])));
  }

  pause(): void {
    this.client.pause();
  }

  resume(): void {
    this.client.resume();
  }

  close(): void {
    this.client.close();
  }
}

function terminalOf(cols: number, rows: number): HeadlessTerminal {
  return new Terminal({ cols, rows, allowProposedApi: true });
}

function write(term: HeadlessTerminal, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

/** Every cell's character and style, the cursor, the active screen and the modes: what a person sees and what keys do. */
function cells(term: HeadlessTerminal): string[] {
  const buffer = term.buffer.active;
  const out = [`screen ${buffer.type}`, `cursor ${buffer.cursorX},${buffer.cursorY}`, `modes ${JSON.stringify(term.modes)}`];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    let row = '';
    for (let x = 0; x < term.cols; x++) {
      const cell = line?.getCell(x);
      if (!cell) continue;
      row += `${cell.getChars() || ' '}${cell.getFgColorMode()}:${cell.getFgColor()}/${cell.getBgColorMode()}:${cell.getBgColor()}`;
      row += `${cell.isBold()}${cell.isItalic()}${cell.isUnderline()}${cell.isInverse()}${cell.isDim()}|`;
    }
    out.push(row);
  }
  return out;
}

/** A full-screen program's drawing: the alternate screen, 16/256/true colours, styles, a scroll region, modes. */
const FULL_SCREEN =
  'before the program\r\n\x1b[?1049h\x1b[H\x1b[2J' +
  '\x1b[1;44;97m title bar \x1b[0m\x1b[3;5H\x1b[38;5;208morange\x1b[0m \x1b[38;2;10;200;30mtrue green\x1b[0m' +
  '\x1b[5;1H\x1b[3mitalic\x1b[0m \x1b[4munder\x1b[0m \x1b[7mreverse\x1b[0m \x1b[2mdim\x1b[0m ünïcødé 漢字' +
  '\x1b[?2004h\x1b[?1h\x1b[?1000h\x1b[?1006h\x1b[?25l\x1b[2;9r\x1b[8;12H';

describe('pane.stream', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.stop());

  it('acks with a snapshot that redraws a full-screen program cell for cell, and output after it keeps the picture right', async () => {
    const script = `printf '%b' "$1"; read line; printf '%b' "$2"; sleep 600`;
    const more = '\x1b[6;1H\x1b[32mmore output after the snapshot\x1b[0m\x1b[9;3H';
    const { paneId } = await newWorkspace(server, { cols: 60, rows: 12, command: ['/bin/sh', '-c', script, 'sh', FULL_SCREEN, more] });
    const reference = terminalOf(60, 12);
    await write(reference, FULL_SCREEN);
    // The pane has drawn when its visible text shows the last piece.
    await eventually(async () => (await server.call('pane.read', { pane_id: paneId, source: 'visible' })).read.text.includes('漢字'), 'the drawing');

    const stream = await StreamReader.open(server.socketPath, paneId);
    const ack = stream.ack;
    assert.equal(ack.type, 'stream_started');
    assert.deepEqual([ack.pane_id, ack.cols, ack.rows], [paneId, 60, 12]);
    const redrawn = terminalOf(ack.cols, ack.rows);
    await write(redrawn, ack.snapshot);
    assert.deepEqual(cells(redrawn), cells(reference));
    assert.equal(redrawn.buffer.normal.getLine(0)?.translateToString(true), 'before the program', 'the normal screen underneath too');

    await server.call('pane.send_text', { pane_id: paneId, text: '\r' });
    await write(reference, '\r\n' + more);
    // All of it, up to its last cursor move, before the picture is compared.
    await eventually(() => stream.bytes().toString('utf8').includes(more), 'the output after the snapshot');
    await write(redrawn, stream.bytes());
    assert.deepEqual(cells(redrawn), cells(reference));
    stream.close();
  });

  it('delivers all 256 byte values byte-exact and in order, then the exit code', async () => {
    // Raw mode: the terminal passes every byte through unchanged (no \n → \r\n).
    const program = "import os,sys,tty; tty.setraw(0); os.write(1, b'ready'); sys.stdin.buffer.read(1); os.write(1, bytes(range(256)) * 64); sys.exit(5)";
    const { paneId } = await newWorkspace(server, { command: ['python3', '-c', program] });
    const stream = await StreamReader.open(server.socketPath, paneId);
    // Raw mode drops input typed before it: start the program's output once it is in raw mode.
    await eventually(async () => (await server.call('pane.read', { pane_id: paneId, source: 'visible' })).read.text.includes('ready'), 'raw mode');
    await server.call('pane.send_text', { pane_id: paneId, text: 'g' });
    await eventually(() => stream.closed, 'the stream to end with the program');
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    // 'ready' is in the ack's snapshot or in the output, depending on when the stream began.
    const expected = Buffer.concat([...(stream.bytes().subarray(0, 5).toString() === 'ready' ? [Buffer.from('ready')] : []), ...Array.from({ length: 64 }, () => all)]);
    assert.equal(stream.bytes().length, expected.length);
    assert.ok(stream.bytes().equals(expected), 'every byte as written');
    const last = stream.lines.at(-1);
    assert.equal(last?.event, 'pane.exited');
    assert.deepEqual(last?.data, { pane_id: paneId, workspace_id: paneId.split('-')[0], exit_code: 5 });
  });

  it('tells resizes in order with the output, and ends with pane.exited when the pane is closed', async () => {
    const { paneId } = await newWorkspace(server, { cols: 80, rows: 24 });
    await promptShown(server, paneId);
    const client = new HerdrClient({ socketPath: server.socketPath });
    const stream = await client.stream(paneId);
    assert.deepEqual([stream.started.cols, stream.started.rows], [80, 24]);
    // Read as it comes, so each step waits for the stream to show the one before.
    const seen: string[] = [];
    const consumed = (async () => {
      for await (const line of stream) {
        if (line.event === 'pane.output') {
          const text = Buffer.from(line.data.bytes, 'base64').toString('utf8');
          if (/^before-resize\r?$/m.test(text)) seen.push('before');
          if (/^after-resize\r?$/m.test(text)) seen.push('after');
        } else seen.push(line.event === 'pane.resized' ? `resized ${line.data.cols}x${line.data.rows}` : line.event);
      }
    })();
    consumed.catch(() => undefined); // awaited below; a failure before that must not go unhandled
    await server.call('pane.send_input', { pane_id: paneId, text: 'echo before-resize' });
    await eventually(() => seen.includes('before'), 'before-resize on the stream');
    await server.call('pane.resize', { pane_id: paneId, cols: 100, rows: 30 });
    await server.call('pane.send_input', { pane_id: paneId, text: 'echo after-resize' });
    await eventually(() => seen.includes('after'), 'after-resize on the stream');
    await server.call('pane.close', { pane_id: paneId });
    await consumed;
    client.close();
    assert.deepEqual(seen.filter((s) => s !== 'pane.resync'), ['before', 'resized 100x30', 'after', 'pane.exited']);
  });

  it('resyncs a consumer that stopped reading during a flood, with memory bounded and the pane printing on past its backlog', async (t) => {
    const { paneId } = await newWorkspace(server, { command: ['/bin/sh', '-c', 'while :; do cat /usr/share/dict/words 2>/dev/null || seq 1 100000; done'] });
    const stream = await StreamReader.open(server.socketPath, paneId);
    stream.pause();
    const parsed = async () => (await server.call('server.stats', {})).shards.reduce((sum, s) => sum + s.bytes_parsed, 0);
    const rssBefore = rssBytes(server.pid);
    const parsedBefore = await parsed();
    let peak = rssBefore;
    // A pane held back by its stopped reader would stall near the backlog limit plus what the sockets
    // buffer (~4 MB); 10 MB shows it went on. Bounded by bytes, not by a time slice: a slow CI machine
    // parses this corpus at 3 MB/s, a fast one at 10.
    const started = Date.now();
    let floodedMb = 0;
    while (floodedMb <= 10 && Date.now() - started < 30_000) {
      await sleep(150);
      peak = Math.max(peak, rssBytes(server.pid));
      floodedMb = ((await parsed()) - parsedBefore) / 1e6;
    }
    const seconds = (Date.now() - started) / 1000;
    t.diagnostic(`flooded ${floodedMb.toFixed(1)} MB in ${seconds.toFixed(1)} s with the consumer stopped; server RSS ${Math.round(rssBefore / 1e6)} → peak ${Math.round(peak / 1e6)} MB`);
    assert.ok(floodedMb > 10, `the pane went on past its reader's backlog (${floodedMb.toFixed(1)} MB in ${seconds.toFixed(1)} s)`);
    assert.ok(peak - rssBefore < 100 * 1024 * 1024, `server RSS grew ${Math.round((peak - rssBefore) / 1e6)} MB`);
    const unread = stream.lines.length;
    stream.resume();
    const resync = await eventually(() => stream.lines.slice(unread).find((line) => line.event === 'pane.resync'), 'a resync');
    assert.ok(paneStreamLineSchema.safeParse(resync).success, JSON.stringify(resync).slice(0, 300));
    assert.ok(resync.event === 'pane.resync' && resync.data.snapshot.length > 0);
    const after = stream.lines.length;
    await eventually(() => stream.lines.slice(after).some((line) => line.event === 'pane.output'), 'output again after the resync');
    // What the server wrote for the stopped consumer before giving up on its output: its backlog limit,
    // plus what the socket buffers held, a small part of what the pane printed meanwhile.
    const resyncAt = stream.lines.findIndex((line) => line.event === 'pane.resync');
    const backlogBytes = stream.lines.slice(0, resyncAt).reduce((sum, line) => sum + JSON.stringify(line).length + 1, 0);
    t.diagnostic(`${(backlogBytes / 1e6).toFixed(2)} MB written to the stopped consumer before its resync`);
    assert.ok(backlogBytes > 0 && backlogBytes <= STREAM_OUTPUT_BACKLOG_BYTES + SOCKET_BUFFER_ALLOWANCE, `${backlogBytes} bytes before the resync`);
    assert.ok(backlogBytes < floodedMb * 1e6 / 2, 'most of the flood was dropped for it, not queued');
    stream.close();
    await server.call('pane.close', { pane_id: paneId });
  });

  it('leaves nothing behind: streams closed by their clients are gone from server.stats', async () => {
    const { paneId } = await newWorkspace(server);
    const before = (await server.call('server.stats', {})).streams;
    const streams = await Promise.all([StreamReader.open(server.socketPath, paneId), StreamReader.open(server.socketPath, paneId)]);
    assert.equal((await server.call('server.stats', {})).streams, before + 2);
    for (const stream of streams) stream.close();
    await eventually(async () => (await server.call('server.stats', {})).streams === before, 'no streams left');
    await assert.rejects(StreamReader.open(server.socketPath, '77-1'), /pane 77-1 not found/);
  });
});
