/**
 * Hook reports under flood: while 100 panes cat text without end, an agent's
 * hook records its state again and again, each report on a connection of its
 * own as integrations send them (they give the answer 500 ms). herdr answers
 * `pane.report_agent`; tmux's peer is a hook's `set-option -p @agent_state`
 * (a client invocation); the ceiling is the same one-shot request against a
 * process that answers every line at once, under the same flood read by the
 * raw PTY ceiling.
 */
import { withCannedServer } from '../contenders/canned-launcher.js';
import { underCeilingLoad } from '../contenders/ceiling.js';
import { reportAgent } from '../contenders/herdr.js';
import { boundTarget, measured, type Metric, type ScenarioResult } from '../report/results.js';
import { type BenchContext, LatencySet, loadSettleMs, rotated, sampleMs, sized, underLoad, withHosts } from './context.js';

const FLOOD_PANES = 100;
const FLOOD_FILE_BYTES = 256 * 1024;
/** The integrations' budget for an answer. */
export const HOOK_BUDGET_MS = 500;

const stateOf = (index: number) => (index % 2 === 0 ? 'working' : 'idle');

export async function hooksScenario(context: BenchContext): Promise<ScenarioResult> {
  const floodPanes = sized(context, { smoke: 2, quick: FLOOD_PANES, full: FLOOD_PANES });
  const samplesPerTurn = sized(context, { smoke: 5, quick: 60, full: 150 });
  const turns = sized(context, { smoke: 1, quick: 2, full: 3 });
  const reports = new LatencySet();
  const flood = context.environment.endlessFlood(FLOOD_FILE_BYTES);

  await withHosts(context, async (hosts) => {
    for (let turn = 0; turn < turns; turn++) {
      for (const host of rotated(hosts, turn)) {
        await underLoad(context, host, floodPanes, flood, async () => {
          const [agentPane = ''] = await host.createPanes(1);
          reports.add(host.name, await sampleMs(samplesPerTurn, 10, (i) => host.reportAgentState(agentPane, stateOf(i))));
          await host.closePanes([agentPane]);
        });
        context.progress(`hooks: ${host.name.padEnd(8)} ${samplesPerTurn} reports under ${floodPanes} flooding panes (turn ${turn + 1}/${turns})`);
      }
      if (context.ceiling) {
        // The same flood, read by the raw PTY ceiling, so the canned answers share the machine as the hosts' do.
        const times = await underCeilingLoad(context.environment, floodPanes, flood, loadSettleMs(context), () =>
          withCannedServer(context.environment, (socketPath) => sampleMs(samplesPerTurn, 10, (i) => reportAgent(socketPath, '1-1', stateOf(i)))),
        );
        reports.add('ceiling', times);
        context.progress(`hooks: ceiling  ${samplesPerTurn} canned answers (turn ${turn + 1}/${turns})`);
      }
    }
  });

  const metrics: Metric[] = [reports.metric('report', 50), reports.metric('report', 99), reports.metric('report', 100)];
  const p100 = metrics[2];
  return {
    id: 'hooks',
    title: `Hook reports while ${floodPanes} panes flood`,
    method: `An agent's hook reports its state ${turns * samplesPerTurn} times per host, 10 ms apart, each on a connection of its own (connect, one line, the answer), while ${floodPanes} panes cat text without end: herdr pane.report_agent with a nanosecond seq; tmux set-option -p @agent_state (a client invocation, how tmux integrations record state); ceiling: the same one-shot request against a process that answers every line at once, while the raw PTY ceiling reads the same ${floodPanes} floods. p100 is the slowest report; integrations give up at ${HOOK_BUDGET_MS} ms.`,
    metrics,
    targets: measured([p100 && boundTarget(p100, 'herdr', HOOK_BUDGET_MS / 5)]),
  };
}
