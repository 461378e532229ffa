/** A pane's history store: rows in blocks, sealed (packed and compressed) once full, read back unchanged. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { History } from '../src/workers/history.js';
import { unpackRows } from '../src/workers/persistence/block-codec.js';

const encoder = new TextEncoder();

/** Row `i`: numbered words, every 7th wraps on from the one before, every 5th has an SGR form. */
function fill(history: History, rows: number): string[] {
  const texts: string[] = [];
  for (let i = 0; i < rows; i++) {
    const text = `${String(i).padStart(5, '0')} ${'lorem ipsum dolor sit amet '.repeat(1 + (i % 4))}`.trimEnd();
    texts.push(text);
    history.push(encoder.encode(text), i % 5 === 0 ? encoder.encode(`\x1b[1m${text}\x1b[0m`) : undefined, i % 7 === 0);
  }
  return texts;
}

function assertRows(history: History, texts: readonly string[], first: number): void {
  assert.equal(history.length, texts.length - first);
  for (let index = 0; index < history.length; index++) {
    const i = index + first;
    assert.equal(history.text(index, false), texts[i], `row ${i}`);
    assert.equal(history.text(index, true), i % 5 === 0 ? `\x1b[1m${texts[i]}\x1b[0m` : texts[i], `row ${i} styled`);
    assert.equal(history.isWrapped(index), i % 7 === 0, `row ${i} wrapped`);
  }
}

describe('History', () => {
  it('seals full blocks into a fraction of their bytes and reads every row back unchanged', () => {
    const history = new History(10_000);
    const texts = fill(history, 6000);
    const open = history.bytes;
    const sealed = history.seal();
    assert.ok(sealed >= 10, `most blocks sealed (${sealed})`);
    assert.ok(history.bytes < open / 2, `sealed history holds ${history.bytes} bytes, open ${open}`);
    assert.equal(history.seal(), 0, 'nothing left to seal');
    assertRows(history, texts, 0);
  });

  it('a sealed block is what a snapshot stores, and it unpacks to the same rows', () => {
    const history = new History(10_000);
    fill(history, 3000);
    history.seal();
    const stored: Buffer[] = [];
    const state = history.state((packed) => {
      stored.push(packed);
      return { file: 'blocks-0', offset: 0, length: packed.length };
    }, false, false);
    assert.ok(state.blocks.length >= 2);
    // Stored as sealed: compressed (tag 0x06), even in a busy round that stores others raw.
    for (const packed of stored) assert.equal(packed[0], 0x06);
    const rows = stored.reduce((sum, packed) => sum + unpackRows(packed).rows, 0);
    assert.ok(rows > 0 && rows < 3000);
  });

  it('keeps taking rows, drops the oldest and the newest across sealed blocks', () => {
    const history = new History(5000);
    const texts = fill(history, 4000);
    history.seal();
    texts.push(...fill(history, 2000));
    // 6000 rows pushed into 5000: the oldest 1000 dropped.
    const kept = texts.slice(1000);
    assert.equal(history.length, 5000);
    for (const index of [0, 1, 2500, 4999]) assert.equal(history.text(index, false), kept[index]);
    history.seal();
    history.dropNewest(2500); // reaches back into sealed blocks
    assert.equal(history.length, 2500);
    for (let index = 0; index < 2500; index++) assert.equal(history.text(index, false), kept[index]);
    history.push(encoder.encode('after the drop'), undefined, false);
    assert.equal(history.text(2500, false), 'after the drop');
  });
});
