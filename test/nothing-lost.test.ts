/**
 * Nothing lost: a pane prints numbered lines as fast as it can for 20 s
 * (test/fixtures/numbered-lines.py) while ten other panes flood and clients
 * keep reading it. Every read shows consecutive lines, byte for byte; at the
 * end the history holds the last 10 000 lines in order, no gap, no repeat,
 * ending with the last line printed.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MAX_READ_LINES } from '../src/protocol/read-window.js';
import { REPO_ROOT, newWorkspace, readUntil, startServer } from './helpers/server.js';

const PRINT = join(REPO_ROOT, 'test', 'fixtures', 'numbered-lines.py');
const SECONDS = 20;
const PATTERN = 'abcdefghij'.repeat(9);
const expectedLine = (n: number) => `${n} ${PATTERN.slice(0, n % 90)}`;

/** The problem with rows that should be consecutive numbered lines, or undefined. */
function gapIn(rows: string[]): string | undefined {
  let previous: number | undefined;
  for (const row of rows) {
    const n = Number(row.split(' ')[0]);
    if (!Number.isSafeInteger(n) || row !== expectedLine(n)) return `a damaged row: ${JSON.stringify(row.slice(0, 120))}`;
    if (previous !== undefined && n !== previous + 1) return `${previous} is followed by ${n}`;
    previous = n;
  }
  return undefined;
}

describe('nothing lost', () => {
  it(`a pane printing as fast as it can for ${SECONDS} s while ten others flood and clients read: every line in order, no gap, no repeat`, { timeout: 180_000 }, async (t) => {
    const server = await startServer({ workers: 2 });
    try {
      for (let i = 0; i < 10; i++) await newWorkspace(server, { command: ['yes', `flood ${i} ${'y'.repeat(60)}`] });
      const { paneId } = await newWorkspace(server, { command: ['python3', PRINT, String(SECONDS)] });
      let reads = 0;
      let done = false;
      const problems: string[] = [];
      // Four clients read the pane's newest rows all along.
      const readers = Array.from({ length: 4 }, async () => {
        while (!done) {
          const { read } = await server.call('pane.read', { pane_id: paneId, source: 'recent', lines: 300 });
          const rows = read.text.split('\n').filter((row) => row !== '' && !row.startsWith('DONE'));
          // The newest row may still be printing (the program was stopped mid-line): a prefix of the next line.
          const printing = rows.pop() ?? '';
          const problem = gapIn(rows);
          const next = expectedLine(Number(rows.at(-1)?.split(' ')[0] ?? 0) + 1);
          if (problem) problems.push(problem);
          else if (rows.length > 0 && !next.startsWith(printing) && printing !== next) problems.push(`after ${rows.at(-1)?.slice(0, 12)}: ${JSON.stringify(printing.slice(0, 40))}`);
          reads++;
        }
      });
      const text = await readUntil(server, paneId, (t) => /^DONE \d+$/m.test(t), { source: 'recent', lines: 3 }, (SECONDS + 60) * 1000);
      done = true;
      await Promise.all(readers);
      const total = Number(/^DONE (\d+)$/m.exec(text)?.[1]);

      const { read } = await server.call('pane.read', { pane_id: paneId, source: 'recent', lines: MAX_READ_LINES });
      const rows = read.text.split('\n').filter((row) => row !== '');
      t.diagnostic(`${total} lines in ${SECONDS} s (${Math.round(total / SECONDS)} a second), ${reads} reads meanwhile`);
      assert.deepEqual(problems.slice(0, 5), [], `${problems.length} of ${reads} reads were not consecutive`);
      assert.equal(rows.at(-1), `DONE ${total}`);
      const numbered = rows.slice(0, -1);
      assert.equal(gapIn(numbered), undefined);
      assert.equal(numbered.length, MAX_READ_LINES - 1, 'the history is full');
      assert.equal(numbered.at(-1), expectedLine(total), 'it ends with the last line printed');
      assert.ok(total > MAX_READ_LINES, `more lines were printed than the history holds (${total})`);
    } finally {
      await server.stop();
    }
  });
});
