/**
 * Orchestration (issue #22): a fleet of fake agents, each handed one prompt per round,
 * driven as a script would drive it: herdr's agent API, herdr's pane API composed, and
 * tmux (orchestration-fleet.ts). Per agent, how long after its own work time the driver
 * had the answer in hand; per round, wall time and server CPU. Then `session.snapshot`
 * round trips on a server holding 500 panes.
 */
import { sleep } from '../../harness/poll.js';
import { isErrorResponse } from '../../src/protocol/envelope.js';
import { HerdrHost } from '../contenders/herdr.js';
import type { PaneHost } from '../contenders/host.js';
import { TmuxHost } from '../contenders/tmux.js';
import { type ContenderName, type Metric, type ScenarioResult, type Target, boundTarget, formatFigure, measured, ratioTarget } from '../report/results.js';
import { type BenchContext, LatencySet, SampleSet, rotated, sampleMs, sized, withHosts } from './context.js';
import { median } from '../measure.js';
import { type FleetTask, READ_ROWS, type RoundFigures, balancedTree, drawTasks, herdrAgentApiRound, herdrComposedRound, tmuxRound } from './orchestration-fleet.js';

const SEED = 0x0c4e57;
const ASK_PERCENT = 20;
/** Panes per workspace of the snapshot server (25 × 20 = 500). */
const SNAPSHOT_WORKSPACE_PANES = 20;
const SNAPSHOT_WARMUP = 5;
const SNAPSHOT_TARGET_MS = 10;
/** The agent API's p50 may be this much of the composed one's (the same wait underneath). */
const COMPOSED_SLACK = 1.1;

type Variant = 'agent API' | 'composed' | 'tmux';

/** Each variant's figures: the agent API and tmux share metrics by contender; composed, herdr's too, gets metrics of its own name. */
class Figures {
  readonly latency = new LatencySet();
  readonly composedLatency = new LatencySet();
  readonly wall = new SampleSet();
  readonly composedWall = new SampleSet();
  readonly cpu = new SampleSet();
  readonly composedCpu = new SampleSet();

  add(variant: Variant, contender: ContenderName, round: RoundFigures): void {
    const composed = variant === 'composed';
    (composed ? this.composedLatency : this.latency).add(contender, round.latencies);
    (composed ? this.composedWall : this.wall).add(contender, round.wallMs / 1000);
    (composed ? this.composedCpu : this.cpu).add(contender, round.cpuSeconds);
  }
}

/**
 * `ours` must be at most `slack` × `theirs` (one contender, two metrics). The agent API
 * and the composed calls wait on the same state change, so "no slower" needs room for
 * the agents' own jitter.
 */
function notAboveTarget(ours: Metric, theirs: Metric, contender: ContenderName, slack: number): Target | undefined {
  const a = ours.values[contender];
  const b = theirs.values[contender];
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b)) return undefined;
  return { what: `${ours.name} against ${theirs.name}`, target: `≤ ${slack}× ${formatFigure(b, theirs.unit)}`, measured: formatFigure(a, ours.unit), met: a <= b * slack };
}

/** `session.snapshot` round trips (ms) on one keep-alive connection with `panes` shells up (built with layout.apply, 20 a workspace). */
async function snapshotTimes(context: BenchContext, host: HerdrHost, panes: number, samples: number): Promise<number[]> {
  const workspaces: string[] = [];
  try {
    for (let built = 0; built < panes; built += SNAPSHOT_WORKSPACE_PANES) {
      const leaves = Array.from({ length: Math.min(SNAPSHOT_WORKSPACE_PANES, panes - built) }, () => ({ type: 'pane' as const, cwd: context.environment.dir }));
      const { layout } = await host.connection.call('layout.apply', { root: balancedTree(leaves) });
      workspaces.push(layout.workspace_id);
    }
    // The shells start, then the server is quiet again: a snapshot of a fleet at rest.
    await sleep(sized(context, { smoke: 300, quick: 3000, full: 3000 }));
    const count = (await host.connection.call('pane.list', {})).panes.length;
    if (count < panes) throw new Error(`the snapshot server holds ${count} panes of ${panes}`);
    const { snapshot } = await host.connection.call('session.snapshot', {});
    if (snapshot.panes.length < panes) throw new Error(`session.snapshot listed ${snapshot.panes.length} panes of ${panes}`);
    for (let i = 1; i < SNAPSHOT_WARMUP; i++) await host.connection.call('session.snapshot', {});
    // Timed as any client sees it, the answer parsed; the library's schema check of
    // hundreds of pane objects (1–2 ms at 500) is the client's cost, not the server's.
    return await sampleMs(samples, 10, async () => {
      const answer = await host.connection.request('session.snapshot', {});
      if (isErrorResponse(answer)) throw new Error(`session.snapshot failed: ${answer.error.message}`);
    });
  } finally {
    // Last first: closing one shifts the compact ids of those after it.
    for (const workspace of workspaces.reverse()) await host.connection.call('workspace.close', { workspace_id: workspace }).catch(() => undefined);
  }
}

export async function orchestrationScenario(context: BenchContext): Promise<ScenarioResult> {
  const agents = sized(context, { smoke: 4, quick: 20, full: 50 });
  const workMs = sized(context, { smoke: { low: 100, high: 300 }, quick: { low: 1000, high: 5000 }, full: { low: 1000, high: 5000 } });
  const rounds = sized(context, { smoke: 1, quick: 2, full: 3 });
  const snapshotPanes = sized(context, { smoke: 20, quick: 500, full: 500 });
  const snapshotSamples = sized(context, { smoke: 5, quick: 50, full: 50 });
  const herdrName = context.hostNames.find((name) => name !== 'tmux');
  const names = context.hostNames.filter((name) => name === herdrName || name === 'tmux');
  const figures = new Figures();
  const snapshots = new LatencySet();
  let asked = 0;

  await withHosts(
    context,
    async (hosts) => {
      const herdr = hosts.find((host): host is HerdrHost => host instanceof HerdrHost);
      const tmux = hosts.find((host): host is TmuxHost => host instanceof TmuxHost);
      const variants: Array<{ variant: Variant; host: PaneHost; run(tasks: FleetTask[]): Promise<RoundFigures> }> = [];
      if (herdr) {
        variants.push({ variant: 'agent API', host: herdr, run: (tasks) => herdrAgentApiRound(herdr, tasks, context.environment.dir) });
        variants.push({ variant: 'composed', host: herdr, run: (tasks) => herdrComposedRound(herdr, tasks, context.environment.dir) });
      }
      if (tmux) variants.push({ variant: 'tmux', host: tmux, run: (tasks) => tmuxRound(tmux, tasks) });

      for (let round = 0; round < rounds; round++) {
        const tasks = drawTasks(SEED + round, agents, workMs, ASK_PERCENT);
        asked += tasks.filter((task) => task.asks).length;
        for (const { variant, host, run } of rotated(variants, round)) {
          const result = await run(tasks);
          figures.add(variant, host.name, result);
          context.progress(
            `orchestration: ${variant.padEnd(9)} round ${round + 1}/${rounds}: ${agents} agents, latency p50 ${median(result.latencies).toFixed(0)} ms, wall ${(result.wallMs / 1000).toFixed(2)} s, server CPU ${result.cpuSeconds.toFixed(2)} s`,
          );
        }
      }

      if (herdr) {
        snapshots.add(herdr.name, await snapshotTimes(context, herdr, snapshotPanes, snapshotSamples));
        context.progress(`orchestration: session.snapshot at ${snapshotPanes} panes, ${snapshotSamples} samples`);
      }
    },
    names,
  );

  const p50 = figures.latency.metric('prompt → answer known', 50);
  const p99 = figures.latency.metric('prompt → answer known', 99);
  const composed50 = figures.composedLatency.metric('prompt → answer known, composed', 50);
  const composed99 = figures.composedLatency.metric('prompt → answer known, composed', 99);
  const snapshot50 = snapshots.metric(`session.snapshot at ${snapshotPanes} panes`, 50);
  const snapshot99 = snapshots.metric(`session.snapshot at ${snapshotPanes} panes`, 99);
  const totalAgents = agents * rounds;
  return {
    id: 'orchestration',
    title: `Orchestration: ${agents} agents, one prompt each; session.snapshot at ${snapshotPanes} panes`,
    method:
      `${rounds} round(s); each round every contender, in an order rotated per round, gets a fresh fleet of ${agents} fake agents (bench/fixtures/agents/fake-agent) and hands each one prompt: ` +
      `work ${workMs.low}–${workMs.high} ms drawn per agent with the bench's integer PRNG (seed ${SEED} + round), ${ASK_PERCENT}% of prompts a question the agent blocks on (${asked} of ${totalAgents}), the same draws for every contender. ` +
      `herdr (agent API): one layout.apply of ${agents} leaves running the fake agent, then per agent, all at once on one keep-alive connection, agent.prompt with wait until idle|done|blocked and agent.read of its last ${READ_ROWS} rows. ` +
      `herdr (composed): the same fleet; one fleet-wide pane.agent_state_changed subscription opened before prompting, per agent pane.send_input, the first idle or blocked after a working, then pane.read. ` +
      `tmux: ${agents} windows running the fake agent, every prompt typed by chained send-keys -l + Enter, then every 100 ms one chained capture-pane of the agents still out until each shows its answer line or the question. ` +
      `Latency per agent: answer read − prompt sent − the agent's drawn work time (p50/p99 over ${totalAgents} agents a contender); wall time: prompts sent → last answer read; server CPU over the same stretch (herdr server.stats, tmux /proc of its server). ` +
      `Then a herdr server holding ${snapshotPanes} shells (layout.apply, ${SNAPSHOT_WORKSPACE_PANES} a workspace, settled): ${snapshotSamples} session.snapshot round trips on one keep-alive connection after ${SNAPSHOT_WARMUP} warm-up ones, 10 ms apart, each until its answer is parsed (not checked against the result schema: that is the library's cost).`,
    metrics: [
      p50,
      p99,
      composed50,
      composed99,
      figures.wall.metric('round wall time', 's', 'lower'),
      figures.composedWall.metric('round wall time, composed', 's', 'lower'),
      figures.cpu.metric('server CPU per round', 's', 'lower'),
      figures.composedCpu.metric('server CPU per round, composed', 's', 'lower'),
      snapshot50,
      snapshot99,
    ],
    targets: measured([
      herdrName ? notAboveTarget(p50, composed50, herdrName, COMPOSED_SLACK) : undefined,
      herdrName ? ratioTarget(p50, herdrName, 'tmux', 1) : undefined,
      // The typical answer: its tail is the machine's (ARCHITECTURE.md, "The agent API").
      herdrName ? boundTarget(snapshot50, herdrName, SNAPSHOT_TARGET_MS) : undefined,
    ]),
  };
}
