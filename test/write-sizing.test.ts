/**
 * The write sizing of src/workers/write-sizing.ts against the real emulator:
 * however the output is cut, no write adds more scrollback rows than it was
 * allowed (a write that did would let xterm trim rows before they are copied).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import xtermHeadless from '@xterm/headless';
import { MAX_STRING_BYTES, WriteSizer } from '../src/workers/write-sizing.js';

const { Terminal } = xtermHeadless;

function write(term: InstanceType<typeof Terminal>, data: Uint8Array): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

/** Output a program might send: text of all lengths, colours, cursor moves, wide chars, alt screen. */
function sampleOutput(seed: number): Uint8Array {
  let state = seed;
  const random = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const pieces = [
    () => 'x'.repeat(random(300)),
    () => '\r\n',
    () => '\n\n\n',
    () => `\x1b[${random(50)};${random(200)}H`,
    () => `\x1b[${random(200)}C`,
    () => '\x1b[31mred\x1b[0m',
    () => '漢字'.repeat(random(80)),
    () => '\x1bD\x1bE',
    () => '\x1b[?1049h',
    () => '\x1b[?1049l',
    () => '\x1b[?25l',
    () => '\t\b\x0b\x0c',
    () => `x\x1b[${random(600)}b`,
    () => '\u0085\u0084',
    () => `\x1b]0;title ${random(100)}\x07`,
    () => '\x1b[1;32mgreen bold\x1b[m',
    () => 'é'.repeat(random(200)),
    () => '\x1b[5;20r\n\n\x1b[r',
  ];
  let out = '';
  while (out.length < 200_000) out += pieces[random(pieces.length)]?.() ?? '';
  return new TextEncoder().encode(out);
}

describe('WriteSizer', () => {
  for (const seed of [1, 7, 42, 99]) {
    it(`never lets a write add more rows than allowed (seed ${seed})`, async () => {
      const cols = 37;
      const term = new Terminal({ cols, rows: 10, scrollback: 100_000, allowProposedApi: true });
      const data = sampleOutput(seed);
      const maxRows = 20;
      const sizer = new WriteSizer();
      let offset = 0;
      let writes = 0;
      while (offset < data.length) {
        const length = sizer.next(data, offset, maxRows, cols);
        assert.ok(length > 0, 'every write makes progress');
        const before = term.buffer.normal.baseY;
        await write(term, data.subarray(offset, offset + length));
        const added = term.buffer.normal.baseY - before;
        assert.ok(added <= maxRows, `write ${writes} at ${offset} (+${length} bytes) added ${added} rows`);
        offset += length;
        writes++;
      }
      assert.ok(writes < data.length / 20, `writes are not byte-sized (${writes} for ${data.length} bytes)`);
      term.dispose();
    });
  }
});

describe('WriteSizer string bound', () => {
  it('drops a string sequence past MAX_STRING_BYTES up to its terminator; the emulator sees the rest as before', async () => {
    const term = new Terminal({ cols: 40, rows: 5, allowProposedApi: true });
    const titles: string[] = [];
    term.onTitleChange((title) => titles.push(title));
    const data = new TextEncoder().encode(`\x1b]2;${'T'.repeat(MAX_STRING_BYTES * 3)}\x07after\x1b]2;short\x1b\\`);
    const sizer = new WriteSizer();
    let fed = 0;
    for (let offset = 0; offset < data.length; ) {
      const dropped = sizer.oversizedString(data, offset);
      if (dropped > 0) {
        offset += dropped;
        continue;
      }
      const length = sizer.next(data, offset, 20, 40);
      await write(term, data.subarray(offset, offset + length));
      fed += length;
      offset += length;
    }
    assert.ok(fed < MAX_STRING_BYTES + 100, `${fed} bytes reached the emulator`);
    assert.equal(titles.length, 2);
    assert.match(titles[0] ?? '', /^T+$/);
    const cut = titles[0]?.length ?? 0;
    assert.ok(cut > MAX_STRING_BYTES - 8 && cut < MAX_STRING_BYTES, `the title was cut to ${cut} characters`);
    assert.equal(titles[1], 'short');
    assert.match(term.buffer.active.getLine(0)?.translateToString() ?? '', /^after/);
    term.dispose();
  });
});
