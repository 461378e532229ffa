/**
 * The bench's flood inputs look like what a fleet prints, and are varied:
 * deterministic per seed, different per variant, no line of text repeated
 * more than a few times, and each corpus holds the terminal features it
 * claims (what a pane's emulator must then parse).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CORPUS_NAMES, type CorpusName, generateCorpus, recordings, withoutQueries } from '../bench/corpus/corpora.js';
import { displayWidth } from '../bench/corpus/cells.js';
import { Prng } from '../bench/corpus/prng.js';
import { parseWorking, workingRecordings, workingStats } from '../bench/corpus/working.js';

const BYTES = 1024 * 1024;

/** Text lines with the escape sequences taken out. */
function textLines(text: string): string[] {
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\x1b[>=]/g, '').split(/\r?\n/);
}

/** How often the most repeated line of real text (16 characters or more, with words) occurs, and how many such lines there are. */
function repetition(text: string): { most: number; lines: number; distinct: number } {
  const counts = new Map<string, number>();
  let lines = 0;
  for (const line of textLines(text)) {
    const trimmed = line.trim();
    if (trimmed.length < 16 || !/\p{L}{3}.*\p{L}{3}/u.test(trimmed)) continue;
    lines++;
    counts.set(trimmed, (counts.get(trimmed) ?? 0) + 1);
  }
  return { most: Math.max(0, ...counts.values()), lines, distinct: counts.size };
}

describe('bench corpora', () => {
  it('the PRNG is integer-exact: the same sequence every time, uniform enough, no float drift after millions of draws', () => {
    const a = new Prng(7);
    const b = new Prng(7);
    const buckets = new Array<number>(16).fill(0);
    let last = 0;
    for (let i = 0; i < 2_000_000; i++) {
      last = a.next();
      assert.equal(last, b.next());
      assert.ok(Number.isInteger(last) && last >= 0 && last < 2 ** 32);
      buckets[last >>> 28] = (buckets[last >>> 28] ?? 0) + 1;
    }
    for (const count of buckets) assert.ok(Math.abs(count - 125_000) < 2_500, `bucket ${count} of 125 000 expected`);
    assert.notEqual(new Prng(8).next(), new Prng(7).next());
  });

  for (const name of CORPUS_NAMES.filter((corpus): corpus is Exclude<CorpusName, 'recorded'> => corpus !== 'recorded')) {
    it(`${name}: deterministic, a new text per variant, no text line repeated more than a few times`, () => {
      const text = generateCorpus(name, BYTES, 0);
      assert.ok(text.length >= BYTES && text.length < BYTES * 1.1, `${text.length} bytes`);
      assert.ok(text.equals(generateCorpus(name, BYTES, 0)), 'the same bytes for the same variant');
      assert.ok(!text.subarray(0, 4096).equals(generateCorpus(name, BYTES, 1).subarray(0, 4096)), 'variants differ');
      const { most, lines, distinct } = repetition(text.toString('utf8'));
      assert.ok(lines > (name === 'agent-tui' ? 1500 : 3000), `${lines} lines of text`);
      // An agent TUI redraws its footer and its thinking lines with every frame; what it writes new is still new.
      const allowed = name === 'agent-tui' ? Math.max(4, lines * 0.02) : 3;
      assert.ok(most <= allowed, `the most repeated line occurs ${most} times in ${lines}`);
      assert.ok(distinct / lines > (name === 'agent-tui' ? 0.5 : 0.95), `${distinct} distinct of ${lines}`);
    });
  }

  it('plain lines are printable ASCII, mostly within 120 columns, some longer', () => {
    const lines = generateCorpus('plain', BYTES).toString('latin1').split('\n');
    assert.ok(lines.every((line) => /^[\x20-\x7e]*$/.test(line)), 'printable ASCII only');
    const long = lines.filter((line) => line.length > 120).length;
    assert.ok(long > 0 && long < lines.length * 0.1, `${long} of ${lines.length} lines wrap`);
  });

  it('agent TUIs: synchronized frames, erase and cursor up, 256-colour and truecolour, boxes, spinners, scroll regions, absolute moves, wide characters, emoji, the alternate screen', () => {
    const text = generateCorpus('agent-tui', BYTES).toString('utf8');
    const updates = text.split('\x1b[?2026h');
    assert.ok(updates.length > 500, `${updates.length} synchronized updates`);
    assert.ok(new Set(updates).size / updates.length > 0.98, 'frames are not replayed');
    const features: Array<[string, RegExp]> = [
      ['synchronized output end', /\x1b\[\?2026l/],
      ['erase line then cursor up (Ink)', /\x1b\[2K\x1b\[1A/],
      ['256-colour', /\x1b\[38;5;\d+m/],
      ['truecolour foreground', /\x1b\[38;2;\d+;\d+;\d+m/],
      ['truecolour background', /\x1b\[48;2;\d+;\d+;\d+m/],
      ['box drawing', /╭─+╮/],
      ['spinner glyphs', /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/],
      ['scroll region (ratatui history insert)', /\x1b\[1;30r/],
      ['absolute cursor moves', /\x1b\[\d+;\d+H/],
      ['CJK', /\p{Script=Han}/u],
      ['emoji', /\p{Extended_Pictographic}/u],
      ['alternate screen', /\x1b\[\?1049h/],
    ];
    for (const [what, pattern] of features) assert.match(text, pattern, what);
  });

  it('streamed answers: CJK, hangul, combining marks, emoji, lines wider than the screen', () => {
    const text = generateCorpus('answer', BYTES).toString('utf8');
    for (const [what, pattern] of [
      ['Han', /\p{Script=Han}{3}/u],
      ['kana', /[\u3040-\u30ff]/],
      ['hangul', /\p{Script=Hangul}{2}/u],
      ['combining marks', /\p{L}[\u0300-\u036f]/u],
      ['emoji', /\p{Extended_Pictographic}/u],
      ['colour', /\x1b\[38;(5|2);/],
    ] as const) assert.match(text, pattern, what);
    const wide = textLines(text).filter((line) => displayWidth(line) > 120).length;
    assert.ok(wide > 100, `${wide} lines wrap`);
  });

  it('recordings of real agent CLIs replay without asking the terminal anything', () => {
    const sources = recordings();
    assert.ok(sources.length >= 3, `${sources.length} recordings in bench/fixtures/recordings`);
    for (const { name, bytes } of sources) {
      assert.ok(bytes.length > 2048, `${name}: ${bytes.length} bytes`);
      assert.ok(bytes.includes(0x1b), `${name} has escape sequences`);
      assert.doesNotMatch(bytes.toString('latin1'), /\x1b\[[0-9]*n|\x1b\[[>=]?0?c/, `${name} has no device status or attribute query left`);
    }
    assert.equal(withoutQueries(Buffer.from('a\x1b[6nb\x1b[cc\x1b]11;?\x07d\x1b[?2026$pe')).toString(), 'abcde');
    const replay = generateCorpus('recorded', 512 * 1024);
    assert.ok(replay.length >= 512 * 1024);
  });

  it('recordings of real agent CLIs at work (fleet-at-work): whole turns with their timing, spinners, menus, varied', () => {
    const all = workingRecordings();
    const agents = all.map((recording) => recording.header.agent);
    for (const needed of ['claude', 'codex', 'opencode']) assert.ok(agents.includes(needed), `${needed} in ${agents.join(', ')}`);
    assert.ok(agents.includes('gemini') || agents.includes('qwen'), `gemini or qwen in ${agents.join(', ')}`);
    let menus = 0;
    let spinning = 0;
    for (const recording of all) {
      const { name, header } = recording;
      const stats = workingStats(recording);
      const says = `${name}: ${JSON.stringify(stats)}`;
      assert.deepEqual([header.cols, header.rows], [120, 40], name);
      assert.ok(recording.snapshot.length > 100, `${name}: its first screen`);
      assert.ok(stats.seconds >= 20 && stats.seconds <= 180, says);
      assert.ok(stats.bytes >= 10 * 1024 && stats.chunks >= 50, says);
      // Whole turns: it worked and came back to its prompt, three times, and the chunks that did it are known.
      assert.ok((stats.entered.working ?? 0) >= 3 && (stats.entered.idle ?? 0) >= 2, says);
      assert.ok(stats.causes >= 5, says);
      assert.ok(stats.busySeconds >= stats.seconds * 0.4, says);
      // Redraws while it works (a spinner, a timer, streamed text), not one frame replayed.
      assert.ok(stats.chunksPerBusySecond >= 1, says);
      assert.ok(stats.distinctChunks >= stats.chunks * 0.15, says);
      assert.ok(stats.largestChunk < 64 * 1024, says);
      // Time goes forward, chunks and states alike.
      const times = recording.chunks.map((chunk) => chunk.t);
      assert.deepEqual(times, [...times].sort((a, b) => a - b), `${name}: chunks in time order`);
      assert.ok((times.at(-1) ?? 0) <= header.duration_ms, name);
      for (const chunk of recording.chunks) assert.doesNotMatch(chunk.bytes.toString('latin1'), /\x1b\[[0-9]*n|\x1b\[[>=]?0?c/, `${name}: no query left`);
      if ((stats.entered.blocked ?? 0) > 0) menus++;
      if (stats.spinnerGlyphs >= 3) spinning++;
    }
    assert.ok(menus >= 3, `${menus} recordings with a permission menu`);
    assert.ok(spinning >= 3, `${spinning} recordings with a spinner of 3 glyphs or more`);
    // The file format: the last chunk before a state event (or within 3 ms after it) is its cause; the chunks just before it (32 ms) may be.
    const tiny = parseWorking('tiny', [
      JSON.stringify({ agent: 'x', package: 'x', version: '0', cols: 120, rows: 40, recorded: '2026-01-01', duration_ms: 100, turns: [], snapshot: Buffer.from('$ ').toString('base64') }),
      JSON.stringify({ t: 10, b: Buffer.from('a').toString('base64') }),
      JSON.stringify({ t: 20, state: 'working', status: 'working' }),
      JSON.stringify({ t: 24, b: Buffer.from('b\x1b[6n').toString('base64') }),
      JSON.stringify({ t: 50, b: Buffer.from('c').toString('base64') }),
      JSON.stringify({ t: 90, state: 'idle', status: 'done' }),
    ].join('\n'));
    assert.deepEqual(tiny.chunks.map((chunk) => [chunk.bytes.toString(), chunk.causes, chunk.mayCause]), [['a', 'working', undefined], ['b', undefined, 'idle'], ['c', 'idle', undefined]]);
  });
});
