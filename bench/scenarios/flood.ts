/**
 * Flood: N panes each `cat` a corpus (bench/corpus: plain lines, agent TUIs,
 * streamed answers, recorded agents), every pane one of a few variants. A
 * pane's command marks itself done after the output (done-files.ts), so no
 * contender pays for being polled; herdr's end also needs the last line
 * parsed (`pane.wait_for_output`). Each corpus starts on freshly started
 * hosts: the first flood is the cold figure, the repetitions after it warm.
 * Aggregate MB/s and the server's CPU seconds per MB; the raw PTY ceiling
 * reads the same panes' output and discards it (the read floor), and the
 * parse floor parses the same files with our panes' pipelines alone: herdr's
 * CPU per MB is also given as a multiple of the two floors.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { ceilingFlood } from '../contenders/ceiling.js';
import { type PaneHost, type PerPane, perPane } from '../contenders/host.js';
import { ParseFloor } from '../contenders/parse-floor.js';
import { PIECE_BYTES } from '../contenders/parse-pipeline.js';
import { CORPUS_LABELS, CORPUS_NAMES, type CorpusName, corpusAvailable } from '../corpus/corpora.js';
import { doneFiles } from '../done-files.js';
import type { BenchEnvironment } from '../environment.js';
import { sleep } from '../../harness/poll.js';
import { MB, median } from '../measure.js';
import { FLOOD_ID, cpuPerMbName, overFloorName, throughputName } from '../report/flood-metrics.js';
import { type ContenderName, type Metric, type ScenarioResult, type Target, boundTarget, measured, ratioTarget } from '../report/results.js';
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

/** Who floods: a host, the raw PTY ceiling (the read floor) or the parse floor. */
type Contender = PaneHost | 'ceiling' | 'parse';

/** Issue 39's targets at 100 panes, warm and cold: herdr's throughput ÷ tmux's, per corpus… */
const THROUGHPUT_AT_100: Record<CorpusName, number> = { plain: 1.5, 'agent-tui': 2.2, answer: 2.5, recorded: 1.5 };
/** …herdr's CPU per MB at most this multiple of tmux's, where it sets one… */
const CPU_AT_100: Partial<Record<CorpusName, number>> = { plain: 0.9, recorded: 1 };
/** …at 300 panes, warm, herdr's throughput ÷ tmux's for every corpus… */
const THROUGHPUT_AT_300 = 1.5;
/** …and herdr's CPU per MB at most this multiple of what parsing and reading the same output alone cost. */
const OVER_FLOOR = 1.3;

/** herdr's CPU per MB at most `atMost` × tmux's (a ratio target on tmux ÷ herdr of at least 1 / atMost). */
function cpuTarget(metric: Metric, atMost: number): Target | undefined {
  const target = ratioTarget(metric, 'herdr', 'tmux', 1 / atMost);
  return target && { ...target, target: `${target.target} (herdr ≤ ${atMost}× tmux's)` };
}

/** A target's measured figure with the range of the per-repetition figures after it, when there are several. */
function withRange(target: Target | undefined, perRun: number[] | undefined): Target | undefined {
  if (!target || !perRun || perRun.length < 2) return target;
  return { ...target, measured: `${target.measured} (${Math.min(...perRun).toFixed(2)}–${Math.max(...perRun).toFixed(2)})` };
}

/**
 * Each herdr host's CPU per MB as a multiple of the parse floor's plus the
 * read floor's (the ceiling's). Warm: the median of the per-repetition
 * multiples (the runs of a repetition are next to each other). Cold: the
 * cold flood against the parse floor's cold run plus the read floor's warm
 * median (the ceiling has no cold run).
 */
function overFloor(cpuWarm: Metric, cpuCold: Metric, label: string): { warm: Metric; cold: Metric } | undefined {
  const parse = cpuWarm.samples?.parse;
  const read = cpuWarm.samples?.ceiling;
  const readMedian = cpuWarm.values.ceiling;
  if (!parse || !read || readMedian === undefined) return undefined;
  const perRun: NonNullable<Metric['samples']> = {};
  const warm: Metric = { name: overFloorName(label), unit: '×', better: 'lower', values: {}, samples: perRun };
  const cold: Metric = { name: overFloorName(label, true), unit: '×', better: 'lower', values: {} };
  for (const host of ['herdr', 'herdr-1'] as const) {
    const own = cpuWarm.samples?.[host];
    if (own && own.length === parse.length && own.length === read.length) {
      const multiples = own.map((value, i) => value / ((parse[i] ?? NaN) + (read[i] ?? NaN)));
      if (multiples.every(Number.isFinite)) {
        warm.values[host] = median(multiples);
        perRun[host] = multiples;
      }
    }
    const ownCold = cpuCold.values[host];
    const parseCold = cpuCold.values.parse;
    if (ownCold !== undefined && parseCold !== undefined && parseCold + readMedian > 0) cold.values[host] = ownCold / (parseCold + readMedian);
  }
  return warm.values.herdr === undefined && warm.values['herdr-1'] === undefined ? undefined : { warm, cold };
}

/** `id` names the scenario by its full-size pane count (smoke runs it with fewer panes); the targets go by it. */
export async function floodScenario(context: BenchContext, id: string, paneCount: number): Promise<ScenarioResult> {
  // The same work in all at every pane count: each pane cats its share of it.
  const totalBytes = sized(context, { smoke: 256 * 1024, quick: 48 * MB, full: 180 * MB });
  const inputBytes = Math.round(totalBytes / paneCount);
  const repetitions = sized(context, { smoke: 1, quick: 1, full: paneCount === 100 ? 3 : 2 });
  const parseThreads = availableParallelism();
  const corpora = CORPUS_NAMES.filter(corpusAvailable);
  const samples = new Map<CorpusName, CorpusSamples>();

  for (const [corpusIndex, corpus] of corpora.entries()) {
    const inputs = corpusInputs(context.environment, corpus, inputBytes);
    const megabytes = floodMegabytes(inputs, paneCount);
    const set: CorpusSamples = { warm: new SampleSet(), cold: new SampleSet(), cpuWarm: new SampleSet(), cpuCold: new SampleSet(), megabytes };
    samples.set(corpus, set);
    const record = (name: ContenderName, run: { seconds: number; cpuSeconds: number }, cold: boolean, note: string) => {
      // The parse floor has no PTY, no shell and no server: its MB/s is no flood's, only its CPU per MB counts.
      if (name !== 'parse') (cold ? set.cold : set.warm).add(name, megabytes / run.seconds);
      (cold ? set.cpuCold : set.cpuWarm).add(name, run.cpuSeconds / megabytes);
      context.progress(`flood ${paneCount} ${corpus}: ${name.padEnd(8)} ${(megabytes / run.seconds).toFixed(1).padStart(6)} MB/s, ${run.cpuSeconds.toFixed(1)} CPU s (${note})`);
    };
    // Fresh hosts for every corpus, so each has a cold figure; the parse floor likewise.
    await withHosts(context, async (hosts) => {
      const panes = new Map<PaneHost, string[]>();
      for (const host of hosts) {
        context.progress(`flood ${paneCount} ${corpus}: ${host.label} creating ${paneCount} panes`);
        panes.set(host, await host.createPanes(paneCount));
      }
      // The parse floor needs the read floor (the ceiling) beside it.
      const parse = context.ceiling ? await ParseFloor.start(context.environment, paneCount, inputs, parseThreads) : undefined;
      try {
        const flood = (contender: Contender) =>
          contender === 'ceiling'
            ? ceilingFlood(context.environment, paneCount, inputs)
            : contender === 'parse'
              ? (parse as ParseFloor).flood()
              : hostFlood(contender, panes.get(contender) ?? [], inputs, context);
        const nameOf = (contender: Contender): ContenderName => (typeof contender === 'string' ? contender : contender.name);
        const parseFloor: Contender[] = parse ? ['parse'] : [];
        for (const contender of rotated([...hosts, ...parseFloor], corpusIndex)) record(nameOf(contender), await flood(contender), true, 'cold');
        const contenders: Contender[] = [...hosts, ...(context.ceiling ? (['ceiling'] as const) : []), ...parseFloor];
        for (let rep = 0; rep < repetitions; rep++) {
          for (const contender of rotated(contenders, rep + corpusIndex)) record(nameOf(contender), await flood(contender), false, `warm ${rep + 1}/${repetitions}`);
        }
      } finally {
        await parse?.stop();
      }
    });
  }

  const metrics: Metric[] = [];
  const targets: Array<Target | undefined> = [];
  const fullSize = Number(FLOOD_ID.exec(id)?.[1] ?? paneCount);
  for (const [corpus, set] of samples) {
    const label = CORPUS_LABELS[corpus];
    const warm = set.warm.metric(throughputName(label), 'MB/s', 'higher');
    const cold = set.cold.metric(throughputName(label, true), 'MB/s', 'higher');
    const cpuWarm = set.cpuWarm.metric(cpuPerMbName(label), 'CPU s/MB', 'lower');
    const cpuCold = set.cpuCold.metric(cpuPerMbName(label, true), 'CPU s/MB', 'lower');
    const floor = overFloor(cpuWarm, cpuCold, label);
    metrics.push(warm, cold, cpuWarm, cpuCold, ...(floor ? [floor.warm, floor.cold] : []));
    if (fullSize === 100) {
      targets.push(ratioTarget(warm, 'herdr', 'tmux', THROUGHPUT_AT_100[corpus]), ratioTarget(cold, 'herdr', 'tmux', THROUGHPUT_AT_100[corpus]));
      const cpu = CPU_AT_100[corpus];
      if (cpu !== undefined) targets.push(cpuTarget(cpuWarm, cpu), cpuTarget(cpuCold, cpu));
    }
    if (fullSize === 300) targets.push(ratioTarget(warm, 'herdr', 'tmux', THROUGHPUT_AT_300));
    if (floor) targets.push(withRange(boundTarget(floor.warm, 'herdr', OVER_FLOOR), floor.warm.samples?.herdr));
  }
  const sizes = [...samples].map(([corpus, set]) => `${CORPUS_LABELS[corpus]} ${set.megabytes.toFixed(0)} MB`).join(', ');
  return {
    id,
    title: `Flood, ${paneCount} panes`,
    method:
      `${paneCount} panes each cat their share of a corpus (${sizes} in all; ${VARIANTS} variants, pane i the i mod ${VARIANTS}th), then create a done file; ` +
      `a run ends when every done file exists (herdr: and every pane's last line is parsed, pane.wait_for_output). ` +
      `Per corpus, hosts are started afresh: "cold" is the first flood on them, the others the median of ${repetitions} warm runs. ` +
      'Server CPU is read once every host shows the last line and the host has settled (under 2% of a core for 1.5 s): it includes the work a flood leaves for after (herdr seals history once quiet), and no contender floods while another is still busy. Ceiling: node-pty reading the same shells and discarding the bytes (no emulator, no history); its CPU per MB is the read floor.' +
      (context.ceiling
        ? ` Parse floor: the same input files, every LF made CR LF as a PTY hands them on, parsed in a child process by ${paneCount} panes' parsing pipelines alone ` +
          `(src/workers' emulator, write sizing, plain-line skip, scrollback capture, history and terminal signals; no PTY, shell or server) in ${parseThreads} worker threads (pane i in thread i mod ${parseThreads}), ` +
          `each pane fed its whole input in ${PIECE_BYTES / 1024} KB pieces, the panes in turn; started with the hosts and kept, so its first run is cold and the next ones warm, run once per repetition among the other contenders; ` +
          "its CPU is the child process's own while it parses, per MB of the files. herdr's CPU per MB ÷ (parse + read floor): warm, the median of each repetition's multiple; cold, herdr's cold flood against the parse floor's cold run plus the read floor's warm median."
        : ''),
    metrics,
    targets: measured(targets),
  };
}
