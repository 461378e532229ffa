/**
 * A pane program for the `web` bench: prints a generated corpus (agent TUIs
 * redrawing frames, or streamed answers: bench/corpus) at a steady rate, as a
 * working agent does, looping over it forever.
 *   node agent-printer.js <agent-tui|answer> <variant> <bytes per second>
 */
import { type CorpusName, generateCorpus } from './corpus/corpora.js';

const TICK_MS = 50;
const CORPUS_BYTES = 512 * 1024;

const [corpus = 'agent-tui', variant = '0', rate = '16384'] = process.argv.slice(2);
const bytes = generateCorpus(corpus as CorpusName, CORPUS_BYTES, Number(variant));
const perTick = Math.max(1, Math.round((Number(rate) * TICK_MS) / 1000));
let at = 0;
setInterval(() => {
  const end = at + perTick;
  process.stdout.write(bytes.subarray(at, Math.min(end, bytes.length)));
  at = end >= bytes.length ? 0 : end;
}, TICK_MS);
