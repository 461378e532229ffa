/**
 * The places where src/workers/emulator.ts reaches past @xterm/headless's
 * public API. If a new xterm changes any of them, these fail loudly (the
 * server would fall back or refuse to start; better to know here first).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Emulator,
  SCROLLBACK_ROWS,
  createEmulator,
  markNormalRow,
  normalRowCells,
  onRowsChanged,
  printsPlainLines,
  rowCellsOf,
} from '../src/workers/emulator.js';
import { RowEncoder, styledRow } from '../src/workers/row-text.js';
import { generateCorpus } from '../bench/corpus/corpora.js';

function emulator(cols = 20, rows = 5): { term: Emulator; write: (text: string) => void } {
  const { term, writeSync } = createEmulator(cols, rows);
  return { term, write: (text) => writeSync(new TextEncoder().encode(text)) };
}

describe('xterm internals', () => {
  it('_core.writeSync parses at once, before it returns', () => {
    const { term, write } = emulator();
    write('hello');
    assert.equal(term.buffer.active.getLine(0)?.translateToString(true), 'hello');
    assert.equal(term.buffer.active.cursorX, 5);
  });

  it("a row's cell words (_line._data, _combined) encode to the text translateToString gives", () => {
    const { term, write } = emulator(30, 3);
    write('ascii é 漢字 \x1b[31mred\x1b[0m e\u0301');
    const line = term.buffer.active.getLine(0);
    assert.ok(line);
    const cells = rowCellsOf(line);
    assert.ok(cells, 'IBufferLine._line carries _data, _combined, length');
    assert.equal(cells.length, 30);
    const encoder = new RowEncoder();
    assert.equal(Buffer.from(encoder.encode(cells)).toString('utf8'), line.translateToString(true));
    assert.equal(encoder.styled, true, 'the red cells have a non-zero fg word');
  });

  it("a row's fg and bg words give the SGR form the public per-cell API gives, for every attribute and colour mode", () => {
    const { term, write } = emulator(120, 40);
    const attributes = [1, 2, 3, 4, 5, 7, 8, 9, 53, 31, 37, 91, 97, 41, 107, '38;5;3', '38;5;200', '48;5;12', '38;2;1;2;3', '48;2;250;0;128', 22, 24, 27, 39, 49, 0];
    let sample = '';
    attributes.forEach((sgr, i) => (sample += `\x1b[${sgr}m${'word '.repeat(i % 4)}漢字 é\u0301 🚀 `));
    sample += '\x1b[0m   trailing\x1b[44m   \x1b[0m\r\n\x1b[4:3mcurly\x1b[0m\r\n'; // an underline style is an extended attribute
    const corpora = ['agent-tui', 'answer'] as const;
    const encoder = new RowEncoder();
    const cell = term.buffer.normal.getNullCell();
    let compared = 0;
    let extended = 0;
    const compareScreen = () => {
      for (let y = 0; y < term.buffer.normal.length; y++) {
        const line = term.buffer.normal.getLine(y);
        const cells = normalRowCells(term, y);
        if (!line || !cells) continue;
        const fast = encoder.encodeStyled(cells);
        if (fast === null) {
          extended++;
          continue;
        }
        const expected = styledRow(line, cell);
        assert.equal(fast === undefined ? undefined : Buffer.from(fast).toString('utf8'), expected, `row ${y}`);
        if (expected !== undefined) compared++;
      }
    };
    write(sample.repeat(3));
    compareScreen();
    for (const corpus of corpora) {
      const text = generateCorpus(corpus, 256 * 1024).toString('utf8').replace(/\n/g, '\r\n');
      for (let offset = 0; offset < text.length; offset += 16_384) {
        write(text.slice(offset, offset + 16_384));
        compareScreen();
      }
    }
    assert.ok(compared > 1000, `${compared} styled rows compared`);
    assert.ok(extended > 0, 'a row with an underline style is left to the public API');
  });

  it('_core.buffers.normal.lines.get(y) is the row the public API shows, scrollback included', () => {
    const { term, write } = emulator(20, 3);
    for (let i = 0; i < 6; i++) write(`row ${i}\r\n`);
    const normal = term.buffer.normal;
    assert.ok(normal.baseY > 0);
    for (let y = 0; y < normal.length; y++) {
      const cells = normalRowCells(term, y);
      assert.ok(cells, `row ${y}`);
      assert.equal(Buffer.from(new RowEncoder().encode(cells)).toString('utf8'), normal.getLine(y)?.translateToString(true));
    }
  });

  it('_core.buffers.normal.addMarker places a marker on the normal buffer while the alternate screen is up', () => {
    const { term, write } = emulator(20, 3);
    for (let i = 0; i < 6; i++) write(`row ${i}\r\n`);
    write('\x1b[?1049h');
    assert.equal(term.buffer.active.type, 'alternate');
    const marker = markNormalRow(term, 1);
    assert.ok(marker && !marker.isDisposed);
    assert.equal(marker.line, 1);
    write('\x1b[?1049l');
    for (let i = 0; i < SCROLLBACK_ROWS + 10; i++) write('more\r\n');
    assert.ok(marker.isDisposed, 'trimmed with its row');
  });

  it('the printing state (_core.buffer margins and cursor, _curAttrData, _charsetService) is read right', () => {
    const { term, write } = emulator(20, 5);
    assert.equal(printsPlainLines(term), false, 'the cursor is at the top');
    write('a\r\nb\r\nc\r\nd\r\ne\r\n');
    assert.equal(printsPlainLines(term), true, 'the cursor is at the start of a blank bottom row');
    const cases: Array<[string, string, string]> = [
      ['\x1b[31m', '\x1b[0m', 'a foreground colour'],
      ['\x1b[44m', '\x1b[0m', 'a background colour'],
      ['\x1b[1m', '\x1b[22m', 'bold'],
      ['\x1b[2;4r', '\x1b[r\x1b[5;1H', 'scroll margins'],
      ['\x1b(0', '\x1b(B', 'the line-drawing character set'],
      ['\x1b[4h', '\x1b[4l', 'insert mode'],
      ['\x1b[?1049h', '\x1b[?1049l', 'the alternate screen'],
      ['x', '\r\x1b[K', 'text on the cursor row'],
      ['\x1b[2A', '\x1b[2B', 'the cursor above the bottom row'],
    ];
    for (const [set, reset, what] of cases) {
      write(set);
      assert.equal(printsPlainLines(term), false, what);
      write(reset);
      assert.equal(printsPlainLines(term), true, `${what}, undone`);
    }
  });

  it('_core._inputHandler.onRequestRefreshRows tells the screen rows each parse changed', () => {
    const { term, write } = emulator(20, 6);
    const seen: Array<{ start: number; end: number } | undefined> = [];
    assert.equal(onRowsChanged(term, (rows) => seen.push(rows)), true);
    write('\x1b[4;1H');
    write('fourth row');
    // The rows a parse touched, the cursor's own included: a renderer repaints these.
    assert.deepEqual(seen.at(-1), { start: 3, end: 3 });
    write('\x1b[2;1Hsecond\x1b[5;1Hfifth');
    assert.deepEqual(seen.at(-1), { start: 1, end: 4 });
  });
});
