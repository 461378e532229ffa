/**
 * Event latency: a pane prints `TICK <epoch ms>` every 150 ms; a
 * subscriber notes how long after the print the host told it (herdr: the
 * `pane.output_matched` event; tmux: a control-mode client's `%output`), on
 * an idle host and while 100 other panes flood.
 */
import { fileURLToPath } from 'node:url';
import { eventually } from '../../harness/poll.js';
import type { PaneHost } from '../contenders/host.js';
import { boundTarget, measured, type ScenarioResult } from '../report/results.js';
import { type BenchContext, LatencySet, rotated, sized, underLoad, withHosts } from './context.js';

const TICKER = fileURLToPath(new URL('../ticker.js', import.meta.url));
const FLOOD_PANES = 100;
const FLOOD_FILE_BYTES = 256 * 1024;

async function tickLatencies(host: PaneHost, samples: number): Promise<number[]> {
  const latencies: number[] = [];
  const watch = await host.watchOutput(`exec ${process.execPath} ${TICKER}`, '^TICK [0-9.]+$', (line) => {
    latencies.push(performance.timeOrigin + performance.now() - Number(line.slice(5)));
  });
  try {
    await eventually(() => latencies.length >= samples, `${samples} ticks from ${host.label}`, samples * 1000 + 30_000);
  } finally {
    await watch.stop();
  }
  return latencies.slice(0, samples);
}

export async function eventLatencyScenario(context: BenchContext): Promise<ScenarioResult> {
  const floodPanes = sized(context, { smoke: 2, quick: FLOOD_PANES, full: FLOOD_PANES });
  const samplesPerTurn = sized(context, { smoke: 3, quick: 15, full: 30 });
  const turns = sized(context, { smoke: 1, quick: 1, full: 3 });
  const idle = new LatencySet();
  const flooded = new LatencySet();
  const flood = context.environment.endlessFlood(FLOOD_FILE_BYTES);

  await withHosts(context, async (hosts) => {
    for (let turn = 0; turn < turns; turn++) {
      for (const host of rotated(hosts, turn)) {
        idle.add(host.name, await tickLatencies(host, samplesPerTurn));
        flooded.add(host.name, await underLoad(context, host, floodPanes, flood, () => tickLatencies(host, samplesPerTurn)));
        context.progress(`event latency: ${host.name.padEnd(8)} ${samplesPerTurn} ticks idle and under ${floodPanes} flooding panes (turn ${turn + 1}/${turns})`);
      }
    }
  });

  const flooded99 = flooded.metric(`while ${floodPanes} flood`, 99);
  return {
    id: 'event-latency',
    title: 'Output → event latency',
    method: `A pane prints "TICK <epoch ms, to the microsecond>" every 150 ms; the subscriber's clock when the host tells it, minus the printed time (herdr: pane.output_matched with a regex on the visible screen; tmux: %output to a control-mode client). Idle, then while ${floodPanes} other panes cat text without end; ${turns * samplesPerTurn} ticks each.`,
    metrics: [idle.metric('idle', 50), idle.metric('idle', 99), flooded.metric(`while ${floodPanes} flood`, 50), flooded99],
    targets: measured([boundTarget(flooded99, 'herdr', 150)]),
  };
}
