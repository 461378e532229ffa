/**
 * The flood inputs: three generated corpora and one replayed from real agent
 * CLIs' recorded output (bench/fixtures/recordings). Each is generated from
 * a seed, so every run and every contender gets the same bytes, and a pane
 * gets one of several variants so a fleet's panes do not print in lockstep.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../harness/server.js';
import { agentTui } from './agent-tui.js';
import { answerStream } from './answer-stream.js';
import { TERMINAL_RESET } from './cells.js';
import { plainLines } from './plain-lines.js';
import { Prng } from './prng.js';

export type CorpusName = 'plain' | 'agent-tui' | 'answer' | 'recorded';
export const CORPUS_NAMES: readonly CorpusName[] = ['plain', 'agent-tui', 'answer', 'recorded'];

export const CORPUS_LABELS: Record<CorpusName, string> = {
  plain: 'plain lines',
  'agent-tui': 'agent TUIs',
  answer: 'streamed answers',
  recorded: 'recorded agents',
};

export const RECORDINGS_DIR = join(REPO_ROOT, 'bench', 'fixtures', 'recordings');

/**
 * Terminal queries (device status and attributes, mode reports, colour
 * queries, XTVERSION, DCS requests). A replayed recording must not ask: the
 * host's answer would reach the shell as typed text after `cat` and garble
 * the bench's next command line.
 */
const QUERY = /\x1b\[[?>=]?[0-9;]*[nc]|\x1b\[\??[0-9;]*\$p|\x1b\[>[0-9;]*q|\x1b\[\?u|\x1b\][0-9]+;[^\x07\x1b]*\?(?:\x07|\x1b\\)|\x1bP[^\x1b]*\x1b\\/g;

export function withoutQueries(bytes: Buffer): Buffer {
  return Buffer.from(bytes.toString('latin1').replace(QUERY, ''), 'latin1');
}

export function recordings(): Array<{ name: string; bytes: Buffer }> {
  if (!existsSync(RECORDINGS_DIR)) return [];
  return readdirSync(RECORDINGS_DIR)
    .filter((file) => file.endsWith('.bin'))
    .sort()
    .map((file) => ({ name: file.slice(0, -4), bytes: withoutQueries(readFileSync(join(RECORDINGS_DIR, file))) }));
}

/** The recordings one after another in an order drawn from `prng`, each followed by a reset, to `bytes`. */
function replayed(prng: Prng, bytes: number): Buffer {
  const sources = recordings();
  if (sources.length === 0) throw new Error(`no recordings in ${RECORDINGS_DIR}`);
  const reset = Buffer.from(TERMINAL_RESET);
  const parts: Buffer[] = [];
  for (let size = 0; size < bytes; ) {
    const { bytes: recording } = prng.pick(sources);
    parts.push(recording, reset);
    size += recording.length + reset.length;
  }
  return Buffer.concat(parts);
}

/** Whether `name` can be generated here (the recorded corpus needs its fixtures). */
export function corpusAvailable(name: CorpusName): boolean {
  return name !== 'recorded' || recordings().length > 0;
}

/** About `bytes` of corpus `name` (it ends on a whole line, frame or recording), variant `variant`. */
export function generateCorpus(name: CorpusName, bytes: number, variant = 0): Buffer {
  const prng = new Prng(0x5eed_0000 + variant * 7919 + CORPUS_NAMES.indexOf(name) * 104_729);
  if (name === 'plain') return Buffer.from(plainLines(prng, bytes));
  if (name === 'agent-tui') return Buffer.from(agentTui(prng, bytes));
  if (name === 'answer') return Buffer.from(answerStream(prng, bytes));
  return replayed(prng, bytes);
}
