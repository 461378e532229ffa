/**
 * src/workers/output-parser.ts lets long runs of plain lines skip the
 * emulator. Whatever the output and however it is cut, the history, the
 * emulator's whole buffer (scrollback included) and the cursor must end
 * exactly as when every byte is parsed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Emulator, createEmulator } from '../src/workers/emulator.js';
import { History } from '../src/workers/history.js';
import { OutputParser } from '../src/workers/output-parser.js';
import { ScrollbackCapture } from '../src/workers/scrollback-capture.js';

const COLS = 50;
const ROWS = 12;

/** A small PRNG (xorshift32) whose low bits are as random as its high ones. */
function seeded(seed: number): (n: number) => number {
  let state = seed || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

/** Long runs of plain lines (of every length, empty ones, some of two or three rows) between what breaks a run. */
function sampleOutput(seed: number): Uint8Array {
  const random = seeded(seed);
  const line = () => {
    const long = [COLS + 1, 2 * COLS, 2 * COLS + 1, 3 * COLS - 1, COLS + random(2 * COLS)];
    const length = random(20) === 0 ? (long[random(long.length)] ?? 0) : ([0, 1, COLS - 1, COLS, random(COLS), random(COLS)][random(6)] ?? 0);
    return Array.from({ length }, () => String.fromCharCode(0x20 + random(95))).join('');
  };
  const breaks = [
    () => '\x1b[31mred\x1b[0m\r\n',
    () => '\x1b[44m\r\n\x1b[0m',
    () => '\x1b[1;33m',
    () => '\x1b[0m',
    () => '\x1b[0m',
    () => `\x1b[${1 + random(ROWS)};${1 + random(COLS)}H`,
    () => '\x1b[3;8r',
    () => '\x1b[r',
    () => '\x1b[r',
    () => '\x1b(0lqqk\x1b(B\r\n',
    () => '\x1b[4hins\x1b[4l\r\n',
    () => '\x1b[?1049h alt screen \x1b[?1049l',
    () => 'x\x1b[5b\r\n',
    () => '\x1b[b',
    () => '漢字 é\r\n',
    () => 'no newline',
    () => '\n',
    () => '\r\n\t tab \r\n',
    () => '\x1b]0;title\x07',
    () => '\x1b[2J\x1b[H',
  ];
  let out = '';
  while (out.length < 600_000) {
    if (random(3) === 0) out += breaks[random(breaks.length)]?.() ?? '';
    else for (let i = random(1000); i > 0; i--) out += `${line()}\r\n`;
  }
  return new TextEncoder().encode(out);
}

interface Screen {
  term: Emulator;
  history: History;
  parser: OutputParser;
}

function screen(skipPlainRuns: boolean): Screen {
  const { term, writeSync } = createEmulator(COLS, ROWS);
  const history = new History(100_000);
  const capture = new ScrollbackCapture(term, history, term.buffer.normal.getNullCell());
  return { term, history, parser: new OutputParser(term, writeSync, history, capture, skipPlainRuns) };
}

function snapshot({ term, history }: Screen): { history: string[]; buffer: string[]; cursor: number[] } {
  const rows: string[] = [];
  for (let i = 0; i < history.length; i++) rows.push(`${history.isWrapped(i) ? '+' : ' '}${history.text(i, true)}|${history.text(i, false)}`);
  const buffer: string[] = [];
  const normal = term.buffer.normal;
  for (let y = 0; y < normal.length; y++) {
    const line = normal.getLine(y);
    buffer.push(`${line?.isWrapped ? '+' : ' '}${line?.translateToString(false) ?? ''}`);
  }
  const active = term.buffer.active;
  return { history: rows, buffer, cursor: [active.cursorX, active.cursorY, active.type === 'normal' ? 0 : 1] };
}

describe('OutputParser', () => {
  for (const seed of [3, 11, 29]) {
    it(`ends as if every line had been parsed (seed ${seed})`, () => {
      const data = sampleOutput(seed);
      const random = seeded(seed + 1);
      const fast = screen(true);
      const full = screen(false);
      for (let offset = 0; offset < data.length; ) {
        const size = [1 + random(64), 4095, 16_384 + random(16_384), 65_536, 131_072][random(5)] ?? 1;
        const piece = data.subarray(offset, offset + size);
        fast.parser.feed(piece);
        full.parser.feed(piece);
        offset += piece.length;
      }
      assert.ok(fast.parser.skippedLines > 1_000, `lines skipped the emulator: ${fast.parser.skippedLines}`);
      assert.equal(full.parser.skippedLines, 0);
      const expected = snapshot(full);
      const actual = snapshot(fast);
      assert.ok(expected.history.length > 5_000, `history rows: ${expected.history.length}`);
      assert.deepEqual(actual.cursor, expected.cursor);
      assert.deepEqual(actual.buffer, expected.buffer);
      assert.equal(actual.history.length, expected.history.length);
      for (let i = 0; i < expected.history.length; i++) {
        if (actual.history[i] !== expected.history[i]) assert.fail(`history row ${i}: ${actual.history[i]} ≠ ${expected.history[i]}`);
      }
    });
  }
});
