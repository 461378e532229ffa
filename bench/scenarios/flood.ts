/**
 * Flood: N panes each `cat` the same generated file of 118-column text; a run
 * ends when every pane's last line (a mark echoed after the file) is readable (herdr: `pane.wait_for_output`,
 * so matchers are on; tmux: batched `capture-pane` every 50 ms). Aggregate
 * MB/s and the server's CPU seconds per MB, for each host and the raw PTY
 * ceiling, interleaved.
 */
import { statSync } from 'node:fs';
import { ceilingFlood } from '../contenders/ceiling.js';
import type { PaneHost } from '../contenders/host.js';
import { MB } from '../measure.js';
import { type ContenderName, type ScenarioResult, measured, ratioTarget } from '../report/results.js';
import { type BenchContext, SampleSet, rotated, sized, withHosts } from './context.js';

const TIMEOUT_MS = 600_000;

let runs = 0;

/** One flood; the line echoed after the file is new every run, so no run sees an earlier one's end. */
export async function hostFlood(host: PaneHost, panes: string[], input: string): Promise<{ seconds: number; cpuSeconds: number }> {
  const mark = `flood-done-${++runs}`;
  const cpuBefore = await host.cpuSeconds();
  const start = performance.now();
  const done = host.untilLine(panes, mark, TIMEOUT_MS);
  await host.typeLine(panes, `cat ${input}; echo ${mark}`);
  await done;
  const seconds = (performance.now() - start) / 1000;
  return { seconds, cpuSeconds: (await host.cpuSeconds()) - cpuBefore };
}

/** `id` names the scenario by its full-size pane count (smoke runs it with fewer panes). */
export async function floodScenario(context: BenchContext, id: string, paneCount: number): Promise<ScenarioResult> {
  // The same work in all at every pane count: each pane cats its share of it.
  const totalBytes = sized(context, { smoke: 256 * 1024, quick: 48 * MB, full: 180 * MB });
  const inputBytes = Math.round(totalBytes / paneCount);
  const repetitions = sized(context, { smoke: 1, quick: 1, full: paneCount === 100 ? 3 : 2 });
  const input = context.environment.floodInput(inputBytes);
  const megabytes = (paneCount * statSync(input).size) / MB;
  const throughput = new SampleSet();
  const cpuPerMb = new SampleSet();
  const cpu = new SampleSet();

  await withHosts(context, async (hosts) => {
    const panes = new Map<PaneHost, string[]>();
    for (const host of hosts) {
      context.progress(`flood ${paneCount}: ${host.label} creating ${paneCount} panes`);
      panes.set(host, await host.createPanes(paneCount));
    }
    // One untimed flood of an eighth of the input each first: the JIT warmed, the page cache and the hosts' row stores used once.
    const warmUp = context.environment.floodInput(Math.max(1024, Math.round(inputBytes / 8)));
    for (const host of hosts) await hostFlood(host, panes.get(host) ?? [], warmUp);
    const contenders: Array<PaneHost | 'ceiling'> = [...hosts, ...(context.ceiling ? (['ceiling'] as const) : [])];
    for (let rep = 0; rep < repetitions; rep++) {
      for (const contender of rotated(contenders, rep)) {
        const name: ContenderName = contender === 'ceiling' ? 'ceiling' : contender.name;
        const run = contender === 'ceiling'
          ? await ceilingFlood(context.environment, paneCount, input)
          : await hostFlood(contender, panes.get(contender) ?? [], input);
        throughput.add(name, megabytes / run.seconds);
        cpu.add(name, run.cpuSeconds);
        cpuPerMb.add(name, run.cpuSeconds / megabytes);
        context.progress(
          `flood ${paneCount}: ${name.padEnd(8)} ${(megabytes / run.seconds).toFixed(1).padStart(6)} MB/s, ` +
            `${run.cpuSeconds.toFixed(1)} CPU s (run ${rep + 1}/${repetitions})`,
        );
      }
    }
  });

  const throughputMetric = throughput.metric('aggregate throughput', 'MB/s', 'higher');
  const cpuPerMbMetric = cpuPerMb.metric('server CPU per MB', 'CPU s/MB', 'lower');
  const atHundred = paneCount === 100;
  return {
    id,
    title: `Flood, ${paneCount} panes`,
    method: `${paneCount} panes each cat ${(inputBytes / MB).toFixed(2)} MB of 118-column text (${megabytes.toFixed(0)} MB in all) until every pane's last line is readable; each host first floods an eighth of it untimed; median of ${repetitions}. Ceiling: node-pty reading the same shells and discarding the bytes (no emulator, no history).`,
    metrics: [throughputMetric, cpuPerMbMetric, cpu.metric('server CPU', 'CPU s', 'lower')],
    targets: measured([
      ratioTarget(throughputMetric, 'herdr', 'tmux', atHundred ? 1.5 : 1.0),
      ...(atHundred
        ? [
            ratioTarget(throughputMetric, 'herdr', 'ceiling', 0.4),
            ratioTarget(throughputMetric, 'herdr', 'herdr-1', 1.5),
            ratioTarget(cpuPerMbMetric, 'herdr', 'tmux', 1.0),
          ]
        : []),
    ]),
  };
}
