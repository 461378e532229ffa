/**
 * What parsing costs per corpus, without PTYs or threads: each corpus fed in
 * 64 KB pieces (as the coalescer hands a flooding pane's reads on) to
 * `panes` panes' parsing pipelines in turn (emulator, write sizing, plain-line
 * skip, scrollback capture, history, terminal signals), as a shard does.
 * For profiling: `node --cpu-prof --cpu-prof-dir=DIR dist/bench/tools/parse-cost.js [corpus…]`.
 * Prints ms of CPU per MB and MB/s of one thread; PASSES=n feeds the same
 * panes n times (the first pass is the cold one).
 */
import { History } from '../../src/workers/history.js';
import { HISTORY_ROWS } from '../../src/workers/pane.js';
import { createParsing } from '../../src/workers/parsing.js';
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
  const { term, parser } = createParsing(COLS, ROWS, new History(HISTORY_ROWS));
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

const passes = Number(process.env.PASSES ?? 1);

for (const corpus of corpora) {
  const inputs = Array.from({ length: 8 }, (_, variant) => throughPty(generateCorpus(corpus, bytesPerPane, variant)));
  const feeds = Array.from({ length: panes }, pipeline);
  for (let pass = 1; pass <= passes; pass++) {
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
    const label = passes > 1 ? `${corpus} ${pass}` : corpus;
    console.log(`${label.padEnd(12)} ${(bytes / MB).toFixed(1).padStart(6)} MB  ${(cpuMs / (bytes / MB)).toFixed(1).padStart(6)} ms CPU/MB  ${(bytes / MB / seconds).toFixed(1).padStart(6)} MB/s`);
  }
}
