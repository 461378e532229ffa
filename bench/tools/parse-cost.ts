/**
 * What parsing costs per corpus, without PTYs or threads: each corpus fed in
 * 64 KB pieces (as the coalescer hands a flooding pane's reads on) to
 * `panes` panes' parsing pipelines in turn (emulator, write sizing, plain-line
 * skip, scrollback capture, history, terminal signals), as a shard does.
 * For profiling: `node --cpu-prof --cpu-prof-dir=DIR dist/bench/tools/parse-cost.js [corpus…]`.
 * Prints ms of CPU per MB and MB/s of one thread.
 */
import { createEmulator } from '../../src/workers/emulator.js';
import { History } from '../../src/workers/history.js';
import { OutputParser } from '../../src/workers/output-parser.js';
import { HISTORY_ROWS } from '../../src/workers/pane.js';
import { ScrollbackCapture } from '../../src/workers/scrollback-capture.js';
import { TerminalSignals } from '../../src/workers/signals/terminal-signals.js';
import { CORPUS_NAMES, type CorpusName, corpusAvailable, generateCorpus } from '../corpus/corpora.js';
import { COLS, ROWS } from '../environment.js';

const PIECE = 64 * 1024;
const MB = 1024 * 1024;
const panes = Number(process.env.PANES ?? 50);
const bytesPerPane = Number(process.env.MB_PER_PANE ?? 0.5) * MB;
const asked = process.argv.slice(2) as CorpusName[];
const corpora = (asked.length > 0 ? asked : CORPUS_NAMES).filter(corpusAvailable);

function pipeline(): (data: Uint8Array) => void {
  const { term, writeSync } = createEmulator(COLS, ROWS);
  const history = new History(HISTORY_ROWS);
  const capture = new ScrollbackCapture(term, history, term.buffer.normal.getNullCell());
  const parser = new OutputParser(term, writeSync, history, capture);
  const signals = new TerminalSignals(term, { status() {}, commandFinished() {}, notification() {}, answer() {} });
  return (data) => {
    parser.feed(data);
    signals.parsed(data[data.length - 1]);
  };
}

/** What a PTY hands on for `data` written to it (onlcr: every LF becomes CR LF). */
function throughPty(data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length * 2);
  let at = 0;
  for (const byte of data) {
    if (byte === 0x0a) out[at++] = 0x0d;
    out[at++] = byte;
  }
  return out.subarray(0, at);
}

for (const corpus of corpora) {
  const inputs = Array.from({ length: 8 }, (_, variant) => throughPty(generateCorpus(corpus, bytesPerPane, variant)));
  const feeds = Array.from({ length: panes }, pipeline);
  let bytes = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  for (let offset = 0; offset < bytesPerPane; offset += PIECE) {
    feeds.forEach((feed, i) => {
      const input = inputs[i % inputs.length] as Buffer;
      const piece = input.subarray(offset, Math.min(input.length, offset + PIECE));
      if (piece.length === 0) return;
      feed(piece);
      bytes += piece.length;
    });
  }
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(`${corpus.padEnd(10)} ${(bytes / MB).toFixed(1).padStart(6)} MB  ${(cpuMs / (bytes / MB)).toFixed(1).padStart(6)} ms CPU/MB  ${(bytes / MB / seconds).toFixed(1).padStart(6)} MB/s`);
}
