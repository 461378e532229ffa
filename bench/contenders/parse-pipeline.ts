/**
 * A pane's parsing without its PTY or shard, as the bench prices it: the
 * emulator, write sizing, plain-line skip, scrollback capture, history and
 * terminal signals (createParsing, History, TerminalSignals from
 * src/workers), fed what a PTY hands on in the pieces a flooding pane's
 * reads are gathered into. One place for bench/tools/parse-cost.ts and the
 * flood's parse floor (parse-floor-child.ts).
 */
import { History } from '../../src/workers/history.js';
import { MAX_PENDING_BYTES } from '../../src/workers/output-coalescer.js';
import { HISTORY_ROWS } from '../../src/workers/pane.js';
import { createParsing } from '../../src/workers/parsing.js';
import { TerminalSignals } from '../../src/workers/signals/terminal-signals.js';
import { COLS, ROWS } from '../environment.js';

/** A flooding pane's reads reach the parser gathered into pieces of this much (output-coalescer.ts). */
export const PIECE_BYTES = MAX_PENDING_BYTES;

/** One pane's parsing: feed it a piece of output. */
export type ParseFeed = (data: Uint8Array) => void;

/** A fresh pane's parsing pipeline, fed each piece as pane.ts feeds its own. */
export function parsePipeline(): ParseFeed {
  const { term, parser } = createParsing(COLS, ROWS, new History(HISTORY_ROWS));
  const signals = new TerminalSignals(term, { status() {}, commandFinished() {}, notification() {}, answer() {} });
  return (data) => {
    signals.beforeParse(data);
    parser.feed(data);
    signals.parsed(data[data.length - 1]);
  };
}

/** What a PTY hands on for `data` written to it (onlcr: every LF becomes CR LF). */
export function throughPty(data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(data.length * 2);
  let at = 0;
  for (const byte of data) {
    if (byte === 0x0a) out[at++] = 0x0d;
    out[at++] = byte;
  }
  return out.subarray(0, at);
}

/**
 * Every pane its whole input once, PIECE_BYTES at a time, the panes in turn
 * (as a shard's panes flooding together are parsed); pane i gets `inputs[i]`.
 * Returns the bytes fed.
 */
export function feedInTurn(feeds: readonly ParseFeed[], inputs: readonly Uint8Array[]): number {
  const longest = Math.max(0, ...inputs.map((input) => input.length));
  let bytes = 0;
  for (let offset = 0; offset < longest; offset += PIECE_BYTES) {
    feeds.forEach((feed, i) => {
      const input = inputs[i];
      if (!input || offset >= input.length) return;
      const piece = input.subarray(offset, Math.min(input.length, offset + PIECE_BYTES));
      feed(piece);
      bytes += piece.length;
    });
  }
  return bytes;
}
