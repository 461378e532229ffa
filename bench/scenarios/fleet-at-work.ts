/**
 * A fleet at work (issue 39): N panes replay what real agent CLIs print while they work
 * (bench/fixtures/working, recorded from the real CLIs by bench/tools/record-working.ts:
 * spinner and timer redraws, streamed answers, tool output, a permission menu), each at its
 * recorded pace from a start drawn with the bench's PRNG, looping; a fifth of the panes stay
 * idle at their prompt. herdr and tmux get the same replay (bench/working-driver.ts writes
 * every pane's FIFO; the pane runs `cat` under the agent's name, its terminal raw), each on a
 * fresh server, in turn. Per run: the server's CPU (/proc/<pid>/task/<tid>/schedstat, every thread: herdr's
 * main thread and shards, tmux's server; not the panes' processes) over a window while the
 * whole fleet sits idle, then over a window while it works (after a warm-up); for herdr the
 * latency from the write of a chunk that changed the agent's state in the recording to
 * `pane.agent_state_changed` on an `events.subscribe`.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep } from '../../harness/poll.js';
import { HerdrHost } from '../contenders/herdr.js';
import { Prng } from '../corpus/prng.js';
import { CANDIDATE_MS, WORKING_DIR, type WorkingState, loadWorking, workingFiles, workingStats } from '../corpus/working.js';
import { median, percentile } from '../measure.js';
import { type Metric, type ScenarioResult, type Target, boundTarget, formatFigure, measured } from '../report/results.js';
import type { DriverMark, DriverMessage, DriverPane, DriverReply } from '../working-driver.js';
import { type BenchContext, LatencySet, SampleSet, rotated, sized, startHost } from './context.js';

const DRIVER = fileURLToPath(new URL('../working-driver.js', import.meta.url));
/** One pane in IDLE_EVERY stays idle at its prompt while the others work. */
const IDLE_EVERY = 5;
/** A state change's event counts for its mark when it comes within this long. */
const MATCH_WITHIN_MS = 5000;
/** A candidate mark may be written this much later than its recorded distance to the labelled one (timers run late). */
const CANDIDATE_LATE_MS = 20;
/** Events still expected after the window for marks near its end. */
const EVENT_GRACE_MS = 1500;

type FleetHost = 'herdr' | 'tmux';

interface Sizes {
  /** Before the idle window: the panes drawn and detected, the host quiet. */
  idleSettleMs: number;
  idleWindowMs: number;
  /** From the start of work to the window: every pane's catch-up drawn, the host in its stride. */
  warmupMs: number;
  windowMs: number;
}

interface FleetRun {
  host: FleetHost;
  panes: number;
  /** Which repetition of its pane count: herdr's and tmux's runs of one are compared. */
  repetition: number;
  working: number;
  /** Server CPU seconds over the idle window and over the working window. */
  idleCpu: number;
  workCpu: number;
  idleSeconds: number;
  workSeconds: number;
  /** herdr: chunk write → pane.agent_state_changed, ms, by the state it changed to, and by the CLI recorded. */
  latencies: Partial<Record<WorkingState, number[]>>;
  byAgent: Record<string, number[]>;
  marks: number;
  matched: number;
  /** Matched events that came before the labelled chunk was written (their cause a chunk just before it). */
  early: number;
  /** What the replay wrote over the working window, bytes per second, and how late its timers ran (p99, ms). */
  bytesPerSecond: number;
  lateP99: number;
  load: number;
}

/** Panes named by their agent: links to cat called claude, codex, … in `dir`. */
function agentBins(dir: string, agents: readonly string[]): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const cat = realpathSync('/bin/cat');
  for (const agent of agents) {
    try {
      symlinkSync(cat, join(bin, agent));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return bin;
}

/** The fleet's plan, the same for every host: which recording each pane plays, from where, and whether it works. */
function fleetPlan(count: number, durations: readonly number[], fifoDir: string): DriverPane[] {
  const prng = new Prng(0xf1ee_7a7e);
  return Array.from({ length: count }, (_, i) => {
    const recording = i % durations.length;
    return {
      fifo: join(fifoDir, String(i)),
      recording,
      offsetMs: prng.below(Math.max(1, Math.floor(durations[recording] ?? 1))),
      works: i % IDLE_EVERY !== IDLE_EVERY - 1,
    };
  });
}

class Driver {
  private readonly child: ChildProcess;
  private readonly replies: DriverReply[] = [];
  private waiting: (() => void) | undefined;
  /** The replayer is gone and its channel closed: every reply it sent has arrived. */
  private closed = false;

  constructor() {
    this.child = fork(DRIVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (reply: DriverReply) => {
      this.replies.push(reply);
      this.waiting?.();
    });
    // 'close', not 'exit': a large reply (300 panes' marks) may still be on its way when the process exits.
    this.child.on('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  send(message: DriverMessage): void {
    this.child.send(message);
  }

  async reply<T extends DriverReply['type']>(type: T, timeoutMs: number): Promise<Extract<DriverReply, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const error = this.replies.find((reply) => reply.type === 'error');
      if (error?.type === 'error') throw new Error(`the replay: ${error.message}`);
      const found = this.replies.find((reply) => reply.type === type);
      if (found) return found as Extract<DriverReply, { type: T }>;
      if (this.closed || Date.now() > deadline) throw new Error(`the replay did not answer ${type}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 500);
      });
    }
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

const epochNow = () => performance.timeOrigin + performance.now();

/**
 * Each labelled mark's event: the first of the same pane and state after the earliest of the
 * mark and the candidate marks written just before it, and before the pane's next labelled mark
 * of that state. Its cause is the latest of those writes before the event (the labelled chunk
 * unless the state showed, and was evented, already after a chunk before it).
 */
function latenciesOf(marks: readonly DriverMark[], events: ReadonlyArray<{ pane: number; state: WorkingState; at: number }>, from: number, to: number, agentOf: (pane: number) => string) {
  const eventsOf = new Map<number, Array<{ state: WorkingState; at: number }>>();
  for (const event of events) eventsOf.set(event.pane, [...(eventsOf.get(event.pane) ?? []), event]);
  const marksOf = new Map<number, DriverMark[]>();
  for (const mark of marks) marksOf.set(mark[0], [...(marksOf.get(mark[0]) ?? []), mark]);
  const latencies: Partial<Record<WorkingState, number[]>> = {};
  const byAgent: Record<string, number[]> = {};
  let counted = 0;
  let matched = 0;
  let early = 0;
  for (const [pane, list] of marksOf) {
    list.sort((a, b) => a[2] - b[2]);
    list.forEach(([, state, at, labelled], i) => {
      if (labelled !== 1 || at < from || at > to) return;
      counted++;
      const candidates = list.filter((mark) => mark[1] === state && mark[3] === 0 && mark[2] < at && mark[2] >= at - CANDIDATE_MS - CANDIDATE_LATE_MS);
      const earliest = Math.min(at, ...candidates.map((mark) => mark[2]));
      const next = list.slice(i + 1).find((mark) => mark[1] === state && mark[3] === 1)?.[2] ?? Infinity;
      const event = (eventsOf.get(pane) ?? []).find((candidate) => candidate.state === state && candidate.at >= earliest && candidate.at < Math.min(next, at + MATCH_WITHIN_MS));
      if (!event) return;
      matched++;
      const cause = Math.max(...[at, ...candidates.map((mark) => mark[2])].filter((written) => written <= event.at));
      if (cause < at) early++;
      (latencies[state] ??= []).push(event.at - cause);
      (byAgent[agentOf(pane)] ??= []).push(event.at - cause);
    });
  }
  return { latencies, byAgent, marks: counted, matched, early };
}

async function fleetRun(context: BenchContext, name: FleetHost, count: number, repetition: number, sizes: Sizes, recordingPaths: string[], durations: number[], agents: string[], run: number): Promise<FleetRun> {
  const dir = join(context.environment.dir, 'fleet-at-work');
  const bin = agentBins(dir, agents);
  const fifoDir = join(dir, `run-${run}`);
  mkdirSync(fifoDir, { recursive: true });
  const plan = fleetPlan(count, durations, fifoDir);
  execFileSync('mkfifo', plan.map((pane) => pane.fifo));
  const host = await startHost(context, name);
  const driver = new Driver();
  const events: Array<{ pane: number; state: WorkingState; at: number }> = [];
  let subscription: { close(): void } | undefined;
  try {
    driver.send({ type: 'plan', recordings: recordingPaths, panes: plan });
    const created = await host.createPanes(count, (i) => `stty raw -echo; exec ${join(bin, agents[plan[i]?.recording ?? 0] ?? 'claude')} ${plan[i]?.fifo}`);
    await driver.reply('open', 120_000);
    if (host instanceof HerdrHost) {
      // Events name panes by their compact ids; the plan by index.
      const index = new Map(created.map((stable, i) => [stable, i]));
      const { panes } = await host.connection.call('pane.list', {});
      const paneIndex = new Map(panes.map((pane) => [pane.pane_id, index.get(pane.stable_id) ?? -1]));
      const events$ = await host.client.subscribe([{ type: 'pane.agent_state_changed' }]);
      subscription = events$;
      void (async () => {
        for await (const line of events$) {
          if (line.event !== 'pane.agent_state_changed') continue;
          events.push({ pane: paneIndex.get(line.data.pane_id) ?? -1, state: line.data.state, at: epochNow() });
        }
      })();
    }
    // The whole fleet idle at its prompts.
    await sleep(sizes.idleSettleMs);
    const idleStart = performance.now();
    const idleBefore = (await host.cpuSeconds());
    await sleep(sizes.idleWindowMs);
    const idleCpu = (await host.cpuSeconds()) - idleBefore;
    const idleSeconds = (performance.now() - idleStart) / 1000;
    // At work.
    driver.send({ type: 'work' });
    await sleep(sizes.warmupMs);
    const loadBefore = loadavg()[0] ?? NaN;
    const workStart = performance.now();
    const from = epochNow();
    const workBefore = (await host.cpuSeconds());
    await sleep(sizes.windowMs);
    const workCpu = (await host.cpuSeconds()) - workBefore;
    const workSeconds = (performance.now() - workStart) / 1000;
    const to = epochNow();
    const load = ((loadavg()[0] ?? NaN) + loadBefore) / 2;
    if (host instanceof HerdrHost) await sleep(EVENT_GRACE_MS);
    driver.send({ type: 'stop' });
    const done = await driver.reply('done', 30_000);
    const working = plan.filter((pane) => pane.works).length;
    // FAW_DEBUG=dir: each run's plan, marks and events, to study what was not matched.
    if (process.env.FAW_DEBUG) writeFileSync(join(process.env.FAW_DEBUG, `${name}-${count}-${run}.json`), JSON.stringify({ plan, marks: done.marks, events, from, to }));
    const agentOf = (pane: number) => agents[plan[pane]?.recording ?? -1] ?? '?';
    const { latencies, byAgent, marks, matched, early } = host instanceof HerdrHost
      ? latenciesOf(done.marks, events, from, to, agentOf)
      : { latencies: {}, byAgent: {}, marks: 0, matched: 0, early: 0 };
    return {
      host: name,
      panes: count,
      repetition,
      working,
      idleCpu,
      workCpu,
      idleSeconds,
      workSeconds,
      latencies,
      byAgent,
      marks,
      matched,
      early,
      bytesPerSecond: done.bytesPerSecond,
      lateP99: done.lateP99,
      load,
    };
  } finally {
    subscription?.close();
    driver.kill();
    await host.stop().catch(() => undefined);
    rmSync(fifoDir, { recursive: true, force: true });
  }
}

const percentOfCore = (cpu: number, seconds: number) => (cpu / seconds) * 100;
const perAgentPerMinute = (cpu: number, seconds: number, agents: number) => (cpu * 1000) / agents / (seconds / 60);

export async function fleetAtWorkScenario(context: BenchContext): Promise<ScenarioResult> {
  const recordingPaths = workingFiles();
  const recordings = recordingPaths.map((path) => loadWorking(path));
  const title = 'A fleet at work: real agents\' recorded work replayed';
  if (context.socket || recordings.length === 0) {
    const why = context.socket ? 'it starts servers of its own (not with --socket)' : `no recordings in ${WORKING_DIR} (bench/tools/record-working.ts)`;
    context.progress(`fleet-at-work: skipped: ${why}`);
    return { id: 'fleet-at-work', title, method: `Skipped: ${why}.`, metrics: [], targets: [] };
  }
  const paneCounts = sized(context, { smoke: [5], quick: [100], full: [100, 300] });
  const repetitions = sized(context, { smoke: 1, quick: 2, full: 3 });
  const sizes: Sizes = sized(context, {
    smoke: { idleSettleMs: 1000, idleWindowMs: 1000, warmupMs: 1000, windowMs: 2000 },
    quick: { idleSettleMs: 10_000, idleWindowMs: 15_000, warmupMs: 6000, windowMs: 20_000 },
    // Idle past herdr's --reclaim-after (30 s): what an agent idle for long costs, not the quiet time's one-off work.
    full: { idleSettleMs: 35_000, idleWindowMs: 20_000, warmupMs: 10_000, windowMs: 40_000 },
  });
  const hosts = (['herdr', 'tmux'] as const).filter((name) => context.hostNames.includes(name));
  const durations = recordings.map((recording) => recording.header.duration_ms);
  const agents = recordings.map((recording) => recording.header.agent);
  const stats = recordings.map((recording) => ({ name: recording.name, ...workingStats(recording) }));
  const runs: FleetRun[] = [];
  const failed: string[] = [];
  let run = 0;
  for (const count of paneCounts) {
    for (let rep = 0; rep < repetitions; rep++) {
      for (const name of rotated(hosts, rep)) {
        let result: FleetRun;
        try {
          result = await fleetRun(context, name, count, rep, sizes, recordingPaths, durations, agents, run++);
        } catch (error) {
          // One run that fails is said and left out; the others of a 20-minute run still count.
          const why = `${count} panes, ${name}, repetition ${rep + 1}: ${error instanceof Error ? error.message : String(error)}`;
          failed.push(why);
          context.progress(`fleet-at-work: a run failed and is left out: ${why}`);
          continue;
        }
        runs.push(result);
        const all = Object.values(result.latencies).flat();
        context.progress(
          `fleet-at-work ${count}: ${name.padEnd(5)} idle ${percentOfCore(result.idleCpu, result.idleSeconds).toFixed(2)}% of a core, ` +
            `working ${percentOfCore(result.workCpu, result.workSeconds).toFixed(1)}% (${perAgentPerMinute(result.workCpu, result.workSeconds, result.working).toFixed(1)} ms per working agent per minute)` +
            (name === 'herdr'
              ? `, state changes ${result.matched}/${result.marks} seen (${result.early} after a chunk before the labelled one), p50 ${median(all).toFixed(0)} ms, p99 ${percentile(all, 99).toFixed(0)} ms` +
                ` (by CLI p50/p99: ${Object.entries(result.byAgent).map(([agent, list]) => `${agent} ${median(list).toFixed(0)}/${percentile(list, 99).toFixed(0)}`).join(', ')})`
              : '') +
            `; replay ${(result.bytesPerSecond / 1024).toFixed(0)} KB/s, timers late p99 ${result.lateP99.toFixed(1)} ms; load ${result.load.toFixed(1)} (rep ${rep + 1}/${repetitions})`,
        );
      }
    }
  }

  if (runs.length === 0) throw new Error(`fleet-at-work: every run failed: ${failed.join('; ')}`);
  const metrics: Metric[] = [];
  const targets: Array<Target | undefined> = [];
  const summary = [
    '| panes (working) | server CPU, herdr / tmux | herdr ÷ tmux (range) | per working agent, herdr / tmux | working agents per core, herdr / tmux | all idle, herdr / tmux | state change → event, p50 / p99 |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const count of paneCounts) {
    const ofCount = runs.filter((result) => result.panes === count);
    const working = ofCount[0]?.working ?? 0;
    const idle = count - working;
    /** A figure per run; one that cannot be told (a division by a CPU too small to read) is left out. */
    const set = (pick: (result: FleetRun) => number) => {
      const samples = new SampleSet();
      for (const result of ofCount) {
        const value = pick(result);
        if (Number.isFinite(value)) samples.add(result.host, value);
      }
      return samples;
    };
    const cpu = set((r) => percentOfCore(r.workCpu, r.workSeconds)).metric(`${count} panes at work (${working} working, ${idle} idle): server CPU`, '% of a core', 'lower');
    const perAgent = set((r) => perAgentPerMinute(r.workCpu, r.workSeconds, r.working)).metric(`${count} panes at work: server CPU per working agent`, 'ms/min', 'lower');
    const perCore = set((r) => r.working / (r.workCpu / r.workSeconds)).metric(`${count} panes at work: working agents per core of server CPU`, 'agents', 'higher');
    const idleCpu = set((r) => percentOfCore(r.idleCpu, r.idleSeconds)).metric(`${count} panes idle: server CPU`, '% of a core', 'lower');
    const idlePerAgent = set((r) => perAgentPerMinute(r.idleCpu, r.idleSeconds, r.panes)).metric(`${count} panes idle: server CPU per idle agent`, 'ms/min', 'lower');
    // herdr ÷ tmux per repetition (the runs of a repetition are next to each other).
    const ratios: number[] = [];
    const herdrRuns = ofCount.filter((r) => r.host === 'herdr');
    for (const h of herdrRuns) {
      const t = ofCount.find((r) => r.host === 'tmux' && r.repetition === h.repetition);
      if (t && t.workCpu > 0) ratios.push(h.workCpu / h.workSeconds / (t.workCpu / t.workSeconds));
    }
    const range = ratios.length > 0 ? ` (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` : '';
    const ratio: Metric = {
      name: `${count} panes at work: server CPU, herdr ÷ tmux, median of ${ratios.length} repetition${ratios.length === 1 ? '' : 's'}${range}`,
      unit: '×',
      better: 'lower',
      values: ratios.length ? { herdr: median(ratios) } : {},
      samples: { herdr: ratios },
    };
    const latency = new LatencySet();
    const byState = new Map<WorkingState, LatencySet>();
    for (const result of herdrRuns) {
      latency.add('herdr', Object.values(result.latencies).flat());
      for (const [state, list] of Object.entries(result.latencies) as Array<[WorkingState, number[]]>) {
        if (!byState.has(state)) byState.set(state, new LatencySet());
        byState.get(state)?.add('herdr', list);
      }
    }
    const seen = herdrRuns.reduce((sum, r) => sum + r.matched, 0);
    const marked = herdrRuns.reduce((sum, r) => sum + r.marks, 0);
    const p99 = latency.metric(`${count} panes at work: chunk written → pane.agent_state_changed`, 99);
    metrics.push(cpu, perAgent, perCore, ratio, idleCpu, idlePerAgent, latency.metric(`${count} panes at work: chunk written → pane.agent_state_changed`, 50), p99);
    for (const [state, set] of byState) metrics.push(set.metric(`${count} panes at work: → ${state}`, 50), set.metric(`${count} panes at work: → ${state}`, 99));
    if (marked > 0) metrics.push({ name: `${count} panes at work: recorded state changes seen as events`, unit: '%', better: 'higher', values: { herdr: (seen / marked) * 100 } });
    if (ratios.length > 0) {
      const value = median(ratios);
      targets.push({ what: `${count} panes at work: server CPU, herdr ÷ tmux`, target: '≤ 0.5×', measured: `${value.toFixed(2)}×${range}`, met: value <= 0.5 });
    }
    targets.push(boundTarget(p99, 'herdr', 250));
    const both = (metric: Metric, unit: string) => ['herdr', 'tmux'].map((host) => {
      const value = metric.values[host as FleetHost];
      return value === undefined || !Number.isFinite(value) ? '–' : formatFigure(value, unit).trim();
    }).join(' / ');
    const p50 = latency.metric('', 50).values.herdr;
    summary.push(
      `| ${count} (${working}) | ${both(cpu, '%')} of a core | ${ratio.values.herdr === undefined ? '–' : `${ratio.values.herdr.toFixed(2)}×${range}`} | ` +
        `${both(perAgent, 'ms/min')} | ${both(perCore, '')} | ${both(idleCpu, '%')} of a core | ` +
        `${p50 === undefined || !Number.isFinite(p50) ? '–' : `${p50.toFixed(0)} / ${(p99.values.herdr ?? NaN).toFixed(0)} ms`} |`,
    );
    targets.push(boundTarget(idlePerAgent, 'herdr', 1));
  }
  const recorded = stats
    .map((s) => `${s.name} ${s.seconds.toFixed(0)} s, ${(s.bytes / 1024).toFixed(0)} KB, ${s.chunksPerBusySecond.toFixed(1)} chunks/s while busy`)
    .join('; ');
  const fleetRate = runs.map((r) => r.bytesPerSecond / 1024);
  const loads = runs.map((r) => r.load);
  return {
    id: 'fleet-at-work',
    title,
    method:
      `Recordings of real CLIs working three turns each against the scripted model (bench/fixtures/working: ${recorded}), replayed at their recorded pace into ${paneCounts.join(' and ')} panes, ` +
      `pane i playing recording i mod ${recordings.length} from a start drawn with the bench's PRNG (what came before it drawn at once), looping; one pane in ${IDLE_EVERY} idle at its prompt. ` +
      'Each pane runs cat of a FIFO under its agent\'s name, its terminal raw; one process writes every FIFO (bench/working-driver.ts). ' +
      `Per run a fresh server (herdr with its default shards, tmux), runs alternating: the fleet idle (all panes at their prompts, ${sizes.idleSettleMs / 1000} s to settle, then ${sizes.idleWindowMs / 1000} s measured), ` +
      `then at work (${sizes.warmupMs / 1000} s warm-up, ${sizes.windowMs / 1000} s measured); server CPU from /proc/<pid>/task/*/schedstat (every thread, in nanoseconds; not the panes' processes), per working agent with the idle panes' cost in it. ` +
      `${repetitions} repetition${repetitions === 1 ? '' : 's'} per pane count; figures are medians, each run's in the JSON. ` +
      "Latency (herdr): the replay's wall time just before it writes a chunk that changed the agent's state in the recording, to the host's pane.agent_state_changed with that state on an events.subscribe (within 5 s). " +
      `The replay wrote ${Math.min(...fleetRate).toFixed(0)}–${Math.max(...fleetRate).toFixed(0)} KB/s in all; load average during the windows ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}.` +
      (failed.length > 0 ? ` Runs that failed and are left out: ${failed.join('; ')}.` : ''),
    metrics,
    targets: measured(targets),
    summary: [
      ...summary,
      '',
      `${recordings.length} real CLIs' recorded work replayed at its pace (${recordings.map((r) => r.header.agent).join(', ')}), one pane in ${IDLE_EVERY} idle; ` +
        `server CPU over ${sizes.windowMs / 1000} s of work and ${sizes.idleWindowMs / 1000} s of the whole fleet idle, medians of ${repetitions}; state changes: herdr's pane.agent_state_changed after the replay wrote the chunk that changed the state.`,
    ],
  };
}
