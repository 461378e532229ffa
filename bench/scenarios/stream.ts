/**
 * Streams (`pane.stream`), two questions:
 * - How fast does a pane's output reach a live viewer? One pane cats a file
 *   and a viewer takes every byte (herdr: `pane.stream`; tmux: a control-mode
 *   client's `%output`); MB/s from Enter to the viewer holding the end mark.
 *   Ceiling: node-pty reading the same cat and discarding the bytes.
 * - What do viewers cost the fleet? A 10-pane flood (flood.ts) with nobody
 *   streaming, and with a `pane.stream` taking everything from every pane.
 */
import { statSync } from 'node:fs';
import { ceilingFlood } from '../contenders/ceiling.js';
import { HerdrHost } from '../contenders/herdr.js';
import type { PaneHost } from '../contenders/host.js';
import { MB } from '../measure.js';
import { type ContenderName, type Metric, type ScenarioResult, type Target, measured, ratioTarget } from '../report/results.js';
import { type BenchContext, SampleSet, rotated, sized, withHosts } from './context.js';
import { hostFlood } from './flood.js';

const TIMEOUT_MS = 300_000;
const FLOOD_PANES = 10;
let views = 0;

export async function streamScenario(context: BenchContext): Promise<ScenarioResult> {
  const viewBytes = sized(context, { smoke: 256 * 1024, quick: 24 * MB, full: 64 * MB });
  const floodBytes = sized(context, { smoke: 256 * 1024, quick: 24 * MB, full: 60 * MB });
  const repetitions = sized(context, { smoke: 1, quick: 2, full: 3 });
  const viewInput = context.environment.floodInput(viewBytes);
  const viewMb = statSync(viewInput).size / MB;
  const floodInput = context.environment.floodInput(Math.round(floodBytes / FLOOD_PANES));
  const floodMb = (FLOOD_PANES * statSync(floodInput).size) / MB;
  const viewed = new SampleSet();
  const received = new SampleSet();
  const resyncs = new SampleSet();
  const flood = { alone: new SampleSet(), streamed: new SampleSet() };

  await withHosts(context, async (hosts) => {
    const contenders: Array<PaneHost | 'ceiling'> = [...hosts, ...(context.ceiling ? (['ceiling'] as const) : [])];
    for (let rep = 0; rep < repetitions; rep++) {
      for (const contender of rotated(contenders, rep)) {
        const name: ContenderName = contender === 'ceiling' ? 'ceiling' : contender.name;
        let seconds: number;
        if (contender === 'ceiling') seconds = (await ceilingFlood(context.environment, 1, viewInput)).seconds;
        else {
          const mark = `view-done-${++views}`;
          const run = await contender.viewOutput(`read go; cat ${viewInput}; echo ${mark}; sleep 600`, mark, TIMEOUT_MS);
          seconds = run.seconds;
          if (run.resyncs !== undefined) resyncs.add(name, run.resyncs);
          received.add(name, run.bytes / MB);
        }
        viewed.add(name, viewMb / seconds);
        context.progress(`stream: ${name.padEnd(8)} ${(viewMb / seconds).toFixed(1).padStart(6)} MB/s to one viewer (run ${rep + 1}/${repetitions})`);
      }
    }

    for (const host of hosts) {
      if (!(host instanceof HerdrHost)) continue;
      const panes = await host.createPanes(FLOOD_PANES);
      await hostFlood(host, panes, context.environment.floodInput(Math.round(floodBytes / FLOOD_PANES / 8)), context);
      for (let rep = 0; rep < repetitions; rep++) {
        for (const streamed of rotated([false, true], rep)) {
          const viewers = streamed ? await host.streamAll(panes) : undefined;
          const run = await hostFlood(host, panes, floodInput, context);
          viewers?.stop();
          (streamed ? flood.streamed : flood.alone).add(host.name, floodMb / run.seconds);
          context.progress(`stream: ${host.name.padEnd(8)} flood ${FLOOD_PANES} panes ${streamed ? 'each streamed' : 'unstreamed  '} ${(floodMb / run.seconds).toFixed(1).padStart(6)} MB/s (run ${rep + 1}/${repetitions})`);
        }
      }
      await host.closePanes(panes);
    }
  });

  const viewMetric = viewed.metric('output to one viewer, until its picture is current', 'MB/s', 'higher');
  const alone = flood.alone.metric(`flood of ${FLOOD_PANES} panes, nobody streaming`, 'MB/s', 'higher');
  const streamed = flood.streamed.metric(`flood of ${FLOOD_PANES} panes, each streamed`, 'MB/s', 'higher');
  return {
    id: 'stream',
    title: 'Streams: live viewers',
    method: `One pane cats ${viewMb.toFixed(1)} MB of 118-column text to a viewer that takes every byte (herdr: pane.stream, base64 in JSON lines; tmux: a control-mode client's %output), from Enter to the viewer holding the end mark (a herdr viewer more than 1 MiB behind is resynced: it skips to the current screen, so it may receive fewer bytes than printed); ceiling: node-pty reading the same cat. Then ${FLOOD_PANES} panes flood ${floodMb.toFixed(0)} MB in all, alternately with nobody streaming and with a pane.stream reading every pane. Median of ${repetitions}.`,
    metrics: [viewMetric, received.metric('output bytes the viewer received', 'MB', 'higher'), resyncs.metric('resyncs of the viewer', 'count', 'lower'), alone, streamed],
    targets: measured([
      ratioTarget(viewMetric, 'herdr', 'tmux', 1.0),
      ...(['herdr', 'herdr-1'] as const).map((name) => streamCost(alone, streamed, name)),
    ]),
  };
}

/** Streaming every pane must keep at least 70% of the unstreamed flood's throughput. */
function streamCost(alone: Metric, streamed: Metric, name: 'herdr' | 'herdr-1'): Target | undefined {
  const without = alone.values[name];
  const withStreams = streamed.values[name];
  if (without === undefined || withStreams === undefined) return undefined;
  const ratio = withStreams / without;
  return { what: `${name}: flood throughput with every pane streamed ÷ without`, target: '≥ 0.7×', measured: `${ratio.toFixed(2)}×`, met: ratio >= 0.7 };
}
