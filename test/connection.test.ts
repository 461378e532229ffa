/**
 * A connection's framing on its own (src/main/connection.ts; docs/protocol.md
 * §1), over a real pair of unix sockets and without a server: lines end at
 * `\n`, a line may come in any number of pieces (a character's bytes split
 * between them included), a line is at most MAX_LINE_BYTES bytes, a
 * one-shot connection reads one line, and a client that closes its side
 * still has its last line read.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { Connection, type ConnectionHandler, MAX_LINE_BYTES } from '../src/main/connection.js';
import { eventually, tempDir } from './helpers/server.js';

/** The server side of one connection, seen through its handler, and the client's socket. */
interface Rig {
  client: Socket;
  connection: Connection;
  lines: string[];
  tooLong: number;
  closed: boolean;
  /** Sends bytes and waits until the server side has read them all: the next send is another chunk. */
  send(data: string | Buffer): Promise<void>;
  /** Bytes the server side's socket has read. */
  received(): number;
}

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** `onLine` may act on the connection as the server does (e.g. stop reading after one request). */
async function rig(onLine: (connection: Connection, line: string) => void = () => undefined): Promise<Rig> {
  const dir = tempDir('herdr-connection-');
  const path = join(dir, 'c.sock');
  let receivedBytes = 0;
  let accepted: Connection | undefined;
  const state = { lines: [] as string[], tooLong: 0, closed: false };
  const handler: ConnectionHandler = {
    onLine: (connection, line) => {
      state.lines.push(line);
      onLine(connection, line);
    },
    onLineTooLong: () => void state.tooLong++,
    onClose: () => void (state.closed = true),
  };
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    accepted = new Connection(socket, handler);
    // Added after the connection's own listener: counts what it has been handed.
    socket.on('data', (chunk: Buffer) => (receivedBytes += chunk.length));
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  const client = connect(path);
  client.on('error', () => undefined);
  cleanups.push(() => {
    client.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const connection = await eventually(() => accepted, 'the connection to be accepted');
  let sentBytes = 0;
  return {
    client,
    connection,
    get lines() {
      return state.lines;
    },
    get tooLong() {
      return state.tooLong;
    },
    get closed() {
      return state.closed;
    },
    async send(data) {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      sentBytes += bytes.length;
      client.write(bytes);
      await eventually(() => receivedBytes >= sentBytes, `the server side to read ${sentBytes} bytes`);
    },
    received: () => receivedBytes,
  };
}

describe('connection framing', () => {
  it('several lines in one chunk are handed over one by one, in order, without their newlines', async () => {
    const r = await rig();
    await r.send('{"a":1}\n{"b":2}\r\n\nlast\n');
    assert.deepEqual(r.lines, ['{"a":1}', '{"b":2}\r', '', 'last']);
  });

  it('a line that comes in pieces is handed over once, whole, when its newline comes', async () => {
    const r = await rig();
    await r.send('{"id":"r1",');
    await r.send('"method":"ping",');
    assert.deepEqual(r.lines, [], 'nothing before the newline');
    await r.send('"params":{}}\n{"id":"r2"');
    assert.deepEqual(r.lines, ['{"id":"r1","method":"ping","params":{}}']);
    await r.send(',"method":"ping","params":{}}\n');
    assert.deepEqual(r.lines, ['{"id":"r1","method":"ping","params":{}}', '{"id":"r2","method":"ping","params":{}}']);
  });

  it('a character whose bytes are split between chunks arrives intact', async () => {
    const r = await rig();
    const text = '{"text":"naïve 漢字 🐑"}';
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    // Cut inside each multibyte character: after the first byte of ï, 漢 and 🐑.
    const cuts = ['ï', '漢', '🐑'].map((ch) => bytes.indexOf(Buffer.from(ch, 'utf8')) + 1);
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      await r.send(bytes.subarray(from, cut));
      from = cut;
    }
    assert.deepEqual(r.lines, [text]);
    assert.ok(!r.lines[0]?.includes('\ufffd'), 'no replacement characters');
  });

  it(`a line of exactly ${MAX_LINE_BYTES} bytes is read; one byte more is refused and nothing after it is read`, async () => {
    const fits = await rig();
    const atLimit = 'x'.repeat(MAX_LINE_BYTES);
    await fits.send(`${atLimit}\nnext\n`);
    assert.equal(fits.lines.length, 2);
    assert.equal(fits.lines[0]?.length, MAX_LINE_BYTES);
    assert.equal(fits.lines[1], 'next');
    assert.equal(fits.tooLong, 0);

    const over = await rig();
    await over.send(`${'x'.repeat(MAX_LINE_BYTES + 1)}\nnext\n`);
    assert.equal(over.tooLong, 1);
    assert.deepEqual(over.lines, [], 'neither the long line nor the one after it');
  });

  it('the limit counts bytes, not characters, and holds for a line that never ends', async () => {
    // Three-byte characters: a quarter of the limit in characters fits, a third of it (and one) does not.
    const wide = await rig();
    await wide.send(`${'漢'.repeat(MAX_LINE_BYTES / 4)}\n`);
    assert.equal(wide.lines.length, 1, 'three quarters of the limit');
    await wide.send(`${'漢'.repeat(Math.ceil(MAX_LINE_BYTES / 3) + 1)}\n`);
    assert.equal(wide.tooLong, 1, `${Math.ceil(MAX_LINE_BYTES / 3) + 1} characters, over the limit in bytes`);

    // No newline at all: refused once the pieces pass the limit, not held without bound.
    const endless = await rig();
    const piece = 'y'.repeat(256 * 1024);
    for (let i = 0; i < 4; i++) await endless.send(piece);
    assert.equal(endless.tooLong, 0, 'exactly at the limit, still a line in progress');
    await endless.send('y');
    assert.equal(endless.tooLong, 1);
    assert.deepEqual(endless.lines, []);
  });

  it('a one-shot connection stops reading after its request: a second line in the same chunk is not taken', async () => {
    const r = await rig((connection) => connection.stopReading());
    await r.send('{"id":"first"}\n{"id":"second"}\n');
    await r.send('{"id":"third"}\n');
    assert.deepEqual(r.lines, ['{"id":"first"}']);
  });

  it('a client that closes its side still has its last line read, without a newline; its waits are told', async () => {
    const r = await rig();
    assert.equal(r.connection.signal.aborted, false);
    r.client.end('{"id":"tail"}');
    await eventually(() => r.lines.length === 1, 'the last line');
    assert.deepEqual(r.lines, ['{"id":"tail"}']);
    assert.equal(r.connection.clientDone, true);
    assert.equal(r.connection.signal.aborted, true, 'a client that sends nothing more cannot wait for anything');
  });

  it('a client that goes away ends the connection: the handler hears of it and the signal aborts', async () => {
    const r = await rig();
    await r.send('{"id":"r","method":"pane.wait_for_output","params":{}}\n');
    assert.equal(r.connection.signal.aborted, false);
    r.client.destroy();
    await eventually(() => r.closed, 'the close');
    assert.equal(r.connection.signal.aborted, true, 'what the request waits for is given up');
    assert.equal(r.connection.isOpen, false);
  });
});
