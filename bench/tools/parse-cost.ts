/**
 * What parsing costs per corpus, without PTYs or threads: each corpus, as a
 * PTY hands it on, fed in the pieces a flooding pane's reads are gathered
 * into to `panes` panes' parsing pipelines in turn, as a shard does
 * (contenders/parse-pipeline.ts, which the flood's parse floor uses too).
 * For profiling: `node --cpu-prof --cpu-prof-dir=DIR dist/bench/tools/parse-cost.js [corpus…]`.
 * Prints ms of CPU per MB and MB/s of one thread; PASSES=n feeds the same
 * panes n times (the first pass is the cold one).
 */
import { feedInTurn, parsePipeline, throughPty } from '../contenders/parse-pipeline.js';
import { CORPUS_NAMES, type CorpusName, corpusAvailable, generateCorpus } from '../corpus/corpora.js';
import { MB } from '../measure.js';

const VARIANTS = 8;
const panes = Number(process.env.PANES ?? 50);
const bytesPerPane = Number(process.env.MB_PER_PANE ?? 0.5) * MB;
const passes = Number(process.env.PASSES ?? 1);
const asked = process.argv.slice(2) as CorpusName[];
const corpora = (asked.length > 0 ? asked : CORPUS_NAMES).filter(corpusAvailable);

for (const corpus of corpora) {
  const variants = Array.from({ length: VARIANTS }, (_, variant) => throughPty(generateCorpus(corpus, bytesPerPane, variant)));
  const inputs = Array.from({ length: panes }, (_, i) => variants[i % VARIANTS] as Buffer);
  const feeds = Array.from({ length: panes }, parsePipeline);
  for (let pass = 1; pass <= passes; pass++) {
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    const bytes = feedInTurn(feeds, inputs);
    const seconds = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const label = passes > 1 ? `${corpus} ${pass}` : corpus;
    console.log(`${label.padEnd(12)} ${(bytes / MB).toFixed(1).padStart(6)} MB  ${(cpuMs / (bytes / MB)).toFixed(1).padStart(6)} ms CPU/MB  ${(bytes / MB / seconds).toFixed(1).padStart(6)} MB/s`);
  }
}
