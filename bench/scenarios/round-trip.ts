/**
 * Round trip under load: while 50 panes of the host run `yes`, a script
 * types `echo <token>` into one more pane and waits until the line is
 * readable, one sample after another. Each host carries its own load only
 * while it is measured.
 */
import { HerdrHost } from '../contenders/herdr.js';
import type { PaneHost } from '../contenders/host.js';
import { type ScenarioResult, measured, ratioTarget } from '../report/results.js';
import { type BenchContext, LatencySet, rotated, sampleMs, sized, underLoad, withHosts } from './context.js';
import { livenessSamples, livenessTargets, withFloor } from './liveness-floor.js';

const LOAD_PANES = 50;
const TIMEOUT_MS = 30_000;

export async function roundTripScenario(context: BenchContext): Promise<ScenarioResult> {
  const loadPanes = sized(context, { smoke: 2, quick: LOAD_PANES, full: LOAD_PANES });
  const samplesPerTurn = sized(context, { smoke: 5, quick: 25, full: 30 });
  const turns = sized(context, { smoke: 1, quick: 1, full: 3 });
  const cliSamplesPerTurn = sized(context, { smoke: 2, quick: 5, full: 8 });
  const latency = new LatencySet();
  const byCli = new LatencySet();
  const liveness = new LatencySet();
  let token = 0;

  await withHosts(context, async (hosts) => {
    const probes = new Map<PaneHost, string>();
    for (const host of hosts) probes.set(host, (await host.createPanes(1))[0] ?? '');
    for (let turn = 0; turn < turns; turn++) {
      for (const host of rotated(hosts, turn)) {
        const probe = probes.get(host) ?? '';
        const [times, cliTimes, alive] = await underLoad(context, host, loadPanes, 'yes', async () => [
          await sampleMs(samplesPerTurn, 20, () => host.echoRoundTrip(probe, `round-trip-${++token}`, TIMEOUT_MS)),
          host instanceof HerdrHost
            ? await sampleMs(cliSamplesPerTurn, 20, () => host.echoRoundTripByCli(probe, `round-trip-${++token}`, TIMEOUT_MS))
            : [],
          await livenessSamples(context.environment, host, samplesPerTurn, 10, withFloor(context, host)),
        ] as const);
        latency.add(host.name, times);
        liveness.add(host.name, alive.host);
        liveness.add('ceiling', alive.floor);
        if (host instanceof HerdrHost) byCli.add(host.name, cliTimes);
        context.progress(`round trip: ${host.name.padEnd(8)} ${times.length} samples under ${loadPanes} × yes (turn ${turn + 1}/${turns})`);
      }
    }
  });

  const p50 = latency.metric('echo round trip', 50);
  const liveness99 = liveness.metric('liveness', 99);
  return {
    id: 'round-trip',
    title: `Round trip under load (${loadPanes} panes running yes)`,
    method: `Type "echo <token>" into an idle pane and wait until the line is readable (herdr: pane.send_input + pane.wait_for_output on one connection; tmux: send-keys, then capture-pane back to back; herdr also as a shell script does it, \`herdr pane run\` then \`herdr wait output\`, ${turns * cliSamplesPerTurn} samples) while ${loadPanes} other panes run yes; ${turns * samplesPerTurn} samples per host over ${turns} interleaved turns. Liveness as in the responsiveness scenario (herdr ping, tmux display-message -p), ${turns * samplesPerTurn} samples per host; ceiling: a process that answers every request at once, pinged alternately with herdr under herdr's load.`,
    metrics: [
      p50,
      latency.metric('echo round trip', 99),
      byCli.metric('echo round trip via the CLI', 50),
      byCli.metric('echo round trip via the CLI', 99),
      liveness.metric('liveness', 50),
      liveness99,
    ],
    targets: [...measured([ratioTarget(p50, 'herdr', 'tmux', 1.0)]), ...livenessTargets([liveness99])],
  };
}
