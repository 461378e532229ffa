/**
 * The agent checks' screen text, kept between reads (src/workers/visible-text.ts), is the
 * screen as a fresh full read gives it: after every chunk of six real agent CLIs' recorded
 * work, of the bench's flood corpora, and across resizes and the alternate screen.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workingRecordings } from '../bench/corpus/working.js';
import { generateCorpus } from '../bench/corpus/corpora.js';
import { Prng } from '../bench/corpus/prng.js';
import { History } from '../src/workers/history.js';
import { createParsing } from '../src/workers/parsing.js';
import { readVisible } from '../src/workers/screen-reader.js';
import { VisibleText } from '../src/workers/visible-text.js';

/** Feeds `chunks` split at random points, comparing after each piece; the distinct screens seen. */
function replay(chunks: readonly Uint8Array[], cols: number, rows: number, seed: number, resizeEvery = 0): number {
  const { term, cell, parser } = createParsing(cols, rows, new History(10_000));
  const kept = new VisibleText(term);
  const prng = new Prng(seed);
  const screens = new Set<string>();
  let revision = 0;
  let pieces = 0;
  for (const chunk of chunks) {
    for (let at = 0; at < chunk.length; ) {
      // Pieces cut anywhere: inside an escape sequence, a wide character, a frame.
      const end = prng.below(4) === 0 ? chunk.length : Math.min(chunk.length, at + 1 + prng.below(400));
      parser.feed(chunk.subarray(at, end));
      at = end;
      revision++;
      if (resizeEvery > 0 && ++pieces % resizeEvery === 0) {
        term.resize(cols + prng.between(-20, 20), rows + prng.between(-8, 8));
        kept.invalidate();
        revision++;
      }
      const expected = readVisible(term, false, cell);
      const read = kept.read(revision);
      if (read !== expected) assert.fail(`revision ${revision}: the kept text differs from a full read\n--- kept\n${read}\n--- full\n${expected}`);
      assert.equal(kept.read(revision), read, 'the same revision reads the same text');
      screens.add(expected);
    }
  }
  return screens.size;
}

describe('the agent checks\' screen text', () => {
  for (const recording of workingRecordings()) {
    it(`equals a full read after every piece of ${recording.name}'s recorded work`, () => {
      const { cols, rows } = recording.header;
      const screens = replay([recording.snapshot, ...recording.chunks.map((chunk) => chunk.bytes)], cols, rows, 0x71ce + recording.chunks.length);
      // Spinners, timers, streamed answers, menus: the comparison saw the screen move.
      assert.ok(screens > 50, `${screens} distinct screens`);
    });
  }

  for (const corpus of ['agent-tui', 'answer', 'plain'] as const) {
    it(`equals a full read through the ${corpus} corpus, resized now and then`, () => {
      const bytes = generateCorpus(corpus, 400_000, 3);
      const chunks = Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, i) => bytes.subarray(i * 4096, (i + 1) * 4096));
      const screens = replay(chunks, 120, 40, 0xfeed, 37);
      assert.ok(screens > 50, `${screens} distinct screens`);
    });
  }

  it('follows the alternate screen, scroll regions, erases and a reset', () => {
    const script = [
      'one\r\ntwo\r\nthree\r\n',
      '\x1b[?1049h\x1b[Hfull screen\r\n\x1b[5;10rregion\x1b[10;1H\n\n\nscrolled',
      '\x1b[2;1H\x1b[Kcleared\x1b[3;1H\x1b[L\x1b[M\x1b[2J',
      'after\x1b[r\x1b[?1049l',
      `${'wrapped '.repeat(30)}\r\n`,
      '\x1b[2A\x1b[5Pdeleted\x1b[3@',
      '\x1bc',
      'fresh',
    ].map((text) => Buffer.from(text));
    replay(script, 40, 12, 7);
  });
});
