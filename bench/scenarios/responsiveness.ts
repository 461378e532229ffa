/**
 * Responsiveness under flood: while 100 panes cat text without end, a
 * script's requests — liveness, one pane's status, 80 lines of a flooding
 * pane — each timed from request to full answer.
 */
import { type QueryKind, QUERY_KINDS } from '../contenders/host.js';
import type { Metric, ScenarioResult } from '../report/results.js';
import { type BenchContext, LatencySet, rotated, sampleMs, sized, underLoad, withHosts } from './context.js';
import { livenessSamples, livenessTargets, withFloor } from './liveness-floor.js';

const FLOOD_PANES = 100;
const FLOOD_FILE_BYTES = 256 * 1024;

export async function responsivenessScenario(context: BenchContext): Promise<ScenarioResult> {
  const floodPanes = sized(context, { smoke: 2, quick: FLOOD_PANES, full: FLOOD_PANES });
  const samplesPerTurn = sized(context, { smoke: 5, quick: 20, full: 50 });
  // The liveness p99 has a target: with 150 samples it was the second worst and moved 6–14 ms
  // between runs of one build; 600 make it the sixth worst.
  const livenessPerTurn = sized(context, { smoke: 5, quick: 60, full: 200 });
  const turns = sized(context, { smoke: 1, quick: 1, full: 3 });
  const byKind = new Map<QueryKind, LatencySet>(QUERY_KINDS.map((kind) => [kind, new LatencySet()]));
  const flood = context.environment.endlessFlood(FLOOD_FILE_BYTES);

  await withHosts(context, async (hosts) => {
    for (let turn = 0; turn < turns; turn++) {
      for (const host of rotated(hosts, turn)) {
        await underLoad(context, host, floodPanes, flood, async () => {
          const [watched] = await host.createPanes(1, flood);
          const liveness = await livenessSamples(context.environment, host, livenessPerTurn, 10, withFloor(context, host));
          byKind.get('liveness')?.add(host.name, liveness.host);
          byKind.get('liveness')?.add('ceiling', liveness.floor);
          for (const kind of QUERY_KINDS.filter((kind) => kind !== 'liveness')) {
            const times = await sampleMs(samplesPerTurn, 10, () => host.query(kind, watched ?? ''));
            byKind.get(kind)?.add(host.name, times);
          }
          if (watched) await host.closePanes([watched]);
        });
        context.progress(`responsiveness: ${host.name.padEnd(8)} ${livenessPerTurn} liveness and ${samplesPerTurn} of each other request under ${floodPanes} flooding panes (turn ${turn + 1}/${turns})`);
      }
    }
  });

  const metrics: Metric[] = [];
  for (const [kind, set] of byKind) metrics.push(set.metric(kind, 50), set.metric(kind, 99));
  return {
    id: 'responsiveness',
    title: `Responsiveness while ${floodPanes} panes flood`,
    method: `Requests on one connection while ${floodPanes} panes cat text without end: liveness (herdr ping; tmux display-message -p), pane status (pane.get; display-message of the pane's fields), read 80 lines of a flooding pane (pane.read recent 80; capture-pane). Every tmux request is a client invocation, which is how tmux is scripted. ${turns * livenessPerTurn} liveness samples and ${turns * samplesPerTurn} of each other request per host. Ceiling (liveness only): a process that answers every request at once, pinged alternately with herdr under herdr's load.`,
    metrics,
    targets: livenessTargets(metrics),
  };
}
