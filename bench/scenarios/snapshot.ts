/**
 * Session snapshots (docs/persistence.md), two questions:
 * - What does a snapshot of a full fleet cost? 300 panes each holding 10 000
 *   rows of 120-column history: the first round (every block new), then a
 *   round after one pane printed a line (what a round costs day to day), and
 *   the bytes on disk.
 * - What do snapshots cost a flood? A 100-pane flood (flood.ts) on a server
 *   keeping its session and on one started with --no-state, interleaved.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../harness/poll.js';
import { HerdrHost } from '../contenders/herdr.js';
import { HISTORY_ROWS } from '../contenders/tmux.js';
import { MB } from '../measure.js';
import { type Metric, type ScenarioResult, type Target, boundTarget, measured } from '../report/results.js';
import { type BenchContext, SampleSet, rotated, sized } from './context.js';
import { hostFlood } from './flood.js';

const FILL = (rows: number) => `seq -f '%0120.0f' 1 ${rows}`;
const FILL_LAST = (rows: number) => String(rows).padStart(120, '0');

/** Bytes of every file under `dir`. */
function diskBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return bytes;
}

/** Waits for a round that finished after `after` (ms since the epoch); its figures. */
async function roundAfter(host: HerdrHost, after: number): Promise<{ bytes: number; ms: number }> {
  return eventually(async () => {
    const { last_snapshot: last } = await host.stats();
    return last && Date.now() - last.ms_ago > after ? { bytes: last.bytes, ms: last.write_ms } : undefined;
  }, 'a snapshot round', 600_000, 100);
}

export async function snapshotScenario(context: BenchContext): Promise<ScenarioResult> {
  const paneCount = sized(context, { smoke: 4, quick: 300, full: 300 });
  const rows = sized(context, { smoke: 200, quick: HISTORY_ROWS, full: HISTORY_ROWS });
  const floodPanes = sized(context, { smoke: 4, quick: 100, full: 100 });
  const floodBytes = sized(context, { smoke: 256 * 1024, quick: 48 * MB, full: 120 * MB });
  const repetitions = sized(context, { smoke: 1, quick: 2, full: 3 });
  const first = new SampleSet();
  const steady = new SampleSet();
  const sessionBytes = new SampleSet();
  const disk = new SampleSet();

  const host = await HerdrHost.start(context.environment);
  try {
    context.progress(`snapshot: ${paneCount} panes filling ${rows} rows each`);
    const panes = await host.createPanes(paneCount);
    const start = Date.now();
    await host.typeLine(panes, FILL(rows));
    await host.untilLine(panes, FILL_LAST(rows), 600_000);
    const full = await roundAfter(host, start);
    first.add('herdr', full.ms);
    for (let i = 0; i < 3; i++) {
      const now = Date.now();
      await host.typeLine(panes.slice(0, 1), `echo round-${i}`);
      const round = await roundAfter(host, now);
      steady.add('herdr', round.ms);
      sessionBytes.add('herdr', round.bytes / MB);
    }
    disk.add('herdr', diskBytes(host.stateDir ?? '') / MB);
    context.progress(`snapshot: first round ${full.ms.toFixed(0)} ms; a round after one line ${steady.metric('', '', 'lower').values.herdr?.toFixed(0)} ms; session file ${(full.bytes / MB).toFixed(1)} MB; ${(diskBytes(host.stateDir ?? '') / MB).toFixed(0)} MB on disk`);
    await host.closePanes(panes);
  } finally {
    await host.stop();
  }

  const throughput = { on: new SampleSet(), off: new SampleSet() };
  const input = context.environment.floodInput(Math.round(floodBytes / floodPanes));
  const megabytes = (floodPanes * statSync(input).size) / MB;
  const hosts = { on: await HerdrHost.start(context.environment), off: await HerdrHost.start(context.environment, undefined, [], ['--no-state']) };
  try {
    const panes = { on: await hosts.on.createPanes(floodPanes), off: await hosts.off.createPanes(floodPanes) };
    const warmUp = context.environment.floodInput(Math.max(1024, Math.round(floodBytes / floodPanes / 8)));
    for (const mode of ['on', 'off'] as const) await hostFlood(hosts[mode], panes[mode], warmUp, context);
    for (let rep = 0; rep < repetitions; rep++) {
      for (const mode of rotated(['on', 'off'] as const, rep)) {
        const run = await hostFlood(hosts[mode], panes[mode], input, context);
        throughput[mode].add('herdr', megabytes / run.seconds);
        context.progress(`snapshot: flood ${floodPanes} panes, snapshots ${mode.padEnd(3)} ${(megabytes / run.seconds).toFixed(1).padStart(6)} MB/s (run ${rep + 1}/${repetitions})`);
      }
    }
  } finally {
    await hosts.on.stop();
    await hosts.off.stop();
  }

  const firstMetric = first.metric(`first round, ${paneCount} panes × ${rows} rows`, 'ms', 'lower');
  const steadyMetric = steady.metric('a round after one pane printed a line', 'ms', 'lower');
  const on = throughput.on.metric(`flood of ${floodPanes} panes, snapshots on`, 'MB/s', 'higher');
  const off = throughput.off.metric(`flood of ${floodPanes} panes, --no-state`, 'MB/s', 'higher');
  return {
    id: 'snapshot',
    title: 'Session snapshots',
    method: `${paneCount} panes each print ${rows} rows of 120 columns; the first snapshot round after that (every history block new) and three rounds after one pane printed a line; the session file and everything on disk. Then a ${floodPanes}-pane flood of ${megabytes.toFixed(0)} MB on a server keeping its session and on one with --no-state, interleaved, median of ${repetitions}.`,
    metrics: [firstMetric, steadyMetric, sessionBytes.metric('session file', 'MB', 'lower'), disk.metric('on disk, session and history blocks', 'MB', 'lower'), on, off],
    targets: measured([boundTarget(steadyMetric, 'herdr', 2000), floodCost(on, off)]),
  };
}

/** Snapshots must keep at least 90% of the flood throughput without them. */
function floodCost(on: Metric, off: Metric): Target | undefined {
  const withSnapshots = on.values.herdr;
  const without = off.values.herdr;
  if (withSnapshots === undefined || without === undefined) return undefined;
  const ratio = withSnapshots / without;
  return { what: 'flood throughput with snapshots ÷ --no-state', target: '≥ 0.9×', measured: `${ratio.toFixed(2)}×`, met: ratio >= 0.9 };
}
