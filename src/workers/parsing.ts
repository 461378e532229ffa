/**
 * A pane's parsing pieces without its PTY: the emulator, the capture of rows
 * it scrolls off into `history`, and the parser that feeds both. Used by
 * pane.ts and bench/tools/parse-cost.ts (and the bench's parse floor),
 * so all three parse the same way.
 */
import type { IBufferCell } from '@xterm/headless';
import { type Emulator, createEmulator } from './emulator.js';
import type { History } from './history.js';
import { OutputParser } from './output-parser.js';
import { ScrollbackCapture } from './scrollback-capture.js';

export interface Parsing {
  term: Emulator;
  /** The emulator's reusable cell, for the public per-cell API. */
  cell: IBufferCell;
  capture: ScrollbackCapture;
  parser: OutputParser;
}

export function createParsing(cols: number, rows: number, history: History): Parsing {
  const { term, writeSync } = createEmulator(cols, rows);
  const cell = term.buffer.normal.getNullCell();
  const capture = new ScrollbackCapture(term, history, cell);
  return { term, cell, capture, parser: new OutputParser(term, writeSync, history, capture) };
}
