/**
 * Flood: N panes each `cat` a corpus (bench/corpus: plain lines, agent TUIs,
 * streamed answers, recorded agents), every pane one of a few variants. A
 * pane's command marks itself done after the output (done-files.ts), so no
 * contender pays for being polled; herdr's end also needs the last line
 * parsed (`pane.wait_for_output`). Each corpus starts on freshly started
 * hosts: the first flood is the cold figure, the repetitions after it warm.
 * Aggregate MB/s and the server's CPU seconds per MB; the raw PTY ceiling
 * reads the same panes' output and discards it.
 */
import { statSync } from 'node:fs';
import { ceilingFlood } from '../contenders/ceiling.js';
import { type PaneHost, type PerPane, perPane } from '../contenders/host.js';
import { CORPUS_LABELS, CORPUS_NAMES, type CorpusName, corpusAvailable } from '../corpus/corpora.js';
import { doneFiles } from '../done-files.js';
import type { BenchEnvironment } from '../environment.js';
import { sleep } from '../../harness/poll.js';
import { MB } from '../measure.js';
import { type ContenderName, type Metric, type ScenarioResult, type Target, measured, ratioTarget } from '../report/results.js';
import { type BenchContext, SampleSet, rotated, sized, withHosts } from './context.js';

const TIMEOUT_MS = 600_000;
/** Distinct inputs per corpus; pane i cats variant i mod VARIANTS. */
const VARIANTS = 8;

let runs = 0;

/** `bytes` of corpus `corpus` per pane, in VARIANTS variants. */
export function corpusInputs(environment: BenchEnvironment, corpus: CorpusName, bytes: number): (index: number) => string {
  const paths = Array.from({ length: VARIANTS }, (_, variant) => environment.floodInput(bytes, corpus, variant));
  return (index) => paths[index % VARIANTS] ?? '';
}

/** The bytes all `panes` panes print. */
export function floodMegabytes(inputs: (index: number) => string, panes: number): number {
  let bytes = 0;
  for (let i = 0; i < panes; i++) bytes += statSync(inputs(i)).size;
  return bytes / MB;
}

/** A host has settled when it used less than this CPU over one window… */
const SETTLED_CPU_SECONDS = 0.03;
/** …of this long: longer than herdr's quiet time (1 s), so its sealing is seen; */
const SETTLE_WINDOW_MS = 1500;
/** and whatever it does, the next flood starts after this long. */
const SETTLE_LIMIT_MS = 20_000;

/**
 * One flood: every pane cats its input, echoes a mark and creates its done
 * file. Ends when every done file is there and, for herdr, every mark is
 * parsed. Then, untimed, the host settles: its CPU figure includes the work
 * the flood left for after (herdr seals history once quiet), and the next
 * contender starts on a machine no one else is busy on.
 */
export async function hostFlood(host: PaneHost, panes: string[], inputs: PerPane, context: BenchContext): Promise<{ seconds: number; cpuSeconds: number }> {
  const inputOf = perPane(inputs);
  const mark = `flood-done-${++runs}`;
  const done = doneFiles(context.environment.dir, panes.length, TIMEOUT_MS);
  const cpuBefore = await host.cpuSeconds();
  const start = performance.now();
  const parsed = host.name === 'tmux' ? undefined : host.untilLine(panes, mark, TIMEOUT_MS);
  try {
    await host.typeLine(panes, (index) => `cat ${inputOf(index)}; echo ${mark}; ${done.command(index)}`);
    await Promise.all([done.all, parsed]);
  } finally {
    done.close();
  }
  const seconds = (performance.now() - start) / 1000;
  // Untimed: every host must show the mark (tmux parses what is left after the last file).
  if (!parsed) await host.untilLine(panes, mark, TIMEOUT_MS);
  const cpuAfter = context.mode === 'smoke' ? await host.cpuSeconds() : await settledCpuSeconds(host);
  return { seconds, cpuSeconds: cpuAfter - cpuBefore };
}

/** The host's CPU seconds once a whole window passed with (almost) none used. */
async function settledCpuSeconds(host: PaneHost): Promise<number> {
  const limit = performance.now() + SETTLE_LIMIT_MS;
  let last = await host.cpuSeconds();
  for (;;) {
    await sleep(SETTLE_WINDOW_MS);
    const now = await host.cpuSeconds();
    if (now - last < SETTLED_CPU_SECONDS || performance.now() > limit) return now;
    last = now;
  }
}

interface CorpusSamples {
  warm: SampleSet;
  cold: SampleSet;
  cpuWarm: SampleSet;
  cpuCold: SampleSet;
  megabytes: number;
}

/** `id` names the scenario by its full-size pane count (smoke runs it with fewer panes). */
export async function floodScenario(context: BenchContext, id: string, paneCount: number): Promise<ScenarioResult> {
  // The same work in all at every pane count: each pane cats its share of it.
  const totalBytes = sized(context, { smoke: 256 * 1024, quick: 48 * MB, full: 180 * MB });
  const inputBytes = Math.round(totalBytes / paneCount);
  const repetitions = sized(context, { smoke: 1, quick: 1, full: paneCount === 100 ? 3 : 2 });
  const corpora = CORPUS_NAMES.filter(corpusAvailable);
  const samples = new Map<CorpusName, CorpusSamples>();

  for (const [corpusIndex, corpus] of corpora.entries()) {
    const inputs = corpusInputs(context.environment, corpus, inputBytes);
    const megabytes = floodMegabytes(inputs, paneCount);
    const set: CorpusSamples = { warm: new SampleSet(), cold: new SampleSet(), cpuWarm: new SampleSet(), cpuCold: new SampleSet(), megabytes };
    samples.set(corpus, set);
    const record = (name: ContenderName, run: { seconds: number; cpuSeconds: number }, cold: boolean, note: string) => {
      (cold ? set.cold : set.warm).add(name, megabytes / run.seconds);
      (cold ? set.cpuCold : set.cpuWarm).add(name, run.cpuSeconds / megabytes);
      context.progress(`flood ${paneCount} ${corpus}: ${name.padEnd(8)} ${(megabytes / run.seconds).toFixed(1).padStart(6)} MB/s, ${run.cpuSeconds.toFixed(1)} CPU s (${note})`);
    };
    // Fresh hosts for every corpus, so each has a cold figure.
    await withHosts(context, async (hosts) => {
      const panes = new Map<PaneHost, string[]>();
      for (const host of hosts) {
        context.progress(`flood ${paneCount} ${corpus}: ${host.label} creating ${paneCount} panes`);
        panes.set(host, await host.createPanes(paneCount));
      }
      for (const host of rotated(hosts, corpusIndex)) record(host.name, await hostFlood(host, panes.get(host) ?? [], inputs, context), true, 'cold');
      const contenders: Array<PaneHost | 'ceiling'> = [...hosts, ...(context.ceiling ? (['ceiling'] as const) : [])];
      for (let rep = 0; rep < repetitions; rep++) {
        for (const contender of rotated(contenders, rep + corpusIndex)) {
          const run = contender === 'ceiling'
            ? await ceilingFlood(context.environment, paneCount, inputs)
            : await hostFlood(contender, panes.get(contender) ?? [], inputs, context);
          record(contender === 'ceiling' ? 'ceiling' : contender.name, run, false, `warm ${rep + 1}/${repetitions}`);
        }
      }
    });
  }

  const metrics: Metric[] = [];
  const targets: Array<Target | undefined> = [];
  const atHundred = paneCount === 100;
  for (const [corpus, set] of samples) {
    const label = CORPUS_LABELS[corpus];
    const warm = set.warm.metric(`throughput, ${label}`, 'MB/s', 'higher');
    const cold = set.cold.metric(`throughput, ${label}, cold`, 'MB/s', 'higher');
    const cpuWarm = set.cpuWarm.metric(`server CPU per MB, ${label}`, 'CPU s/MB', 'lower');
    const cpuCold = set.cpuCold.metric(`server CPU per MB, ${label}, cold`, 'CPU s/MB', 'lower');
    metrics.push(warm, cold, cpuWarm, cpuCold);
    if (corpus === 'plain' && atHundred) {
      targets.push(ratioTarget(warm, 'herdr', 'tmux', 1.5), ratioTarget(cold, 'herdr', 'tmux', 1.5));
      targets.push(ratioTarget(cpuWarm, 'herdr', 'tmux', 1), ratioTarget(cpuCold, 'herdr', 'tmux', 1));
      targets.push(ratioTarget(warm, 'herdr', 'ceiling', 0.4));
    }
    if (corpus === 'agent-tui' && atHundred) {
      targets.push(ratioTarget(warm, 'herdr', 'tmux', 2.5), ratioTarget(cold, 'herdr', 'tmux', 2.5));
      targets.push(ratioTarget(cpuWarm, 'herdr', 'tmux', 1.67), ratioTarget(cpuCold, 'herdr', 'tmux', 1.67));
    }
    if (corpus === 'agent-tui' && paneCount === 300) targets.push(ratioTarget(warm, 'herdr', 'tmux', 2));
    if (paneCount !== 100) targets.push(ratioTarget(warm, 'herdr', 'tmux', 1));
  }
  const sizes = [...samples].map(([corpus, set]) => `${CORPUS_LABELS[corpus]} ${set.megabytes.toFixed(0)} MB`).join(', ');
  return {
    id,
    title: `Flood, ${paneCount} panes`,
    method:
      `${paneCount} panes each cat their share of a corpus (${sizes} in all; ${VARIANTS} variants, pane i the i mod ${VARIANTS}th), then create a done file; ` +
      `a run ends when every done file exists (herdr: and every pane's last line is parsed, pane.wait_for_output). ` +
      `Per corpus, hosts are started afresh: "cold" is the first flood on them, the others the median of ${repetitions} warm runs. ` +
      'Server CPU is read once every host shows the last line and the host has settled (under 2% of a core for 1.5 s): it includes the work a flood leaves for after (herdr seals history once quiet), and no contender floods while another is still busy. Ceiling: node-pty reading the same shells and discarding the bytes (no emulator, no history).',
    metrics,
    targets: measured(targets),
  };
}
