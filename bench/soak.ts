/**
 * `npm run soak [-- --minutes 10 --panes 300]`: hours of fleet life pressed
 * into minutes, to find what only time finds (leaks, stalls, races). A third
 * of the panes run a fake claude that works, asks and waits in a loop (and
 * reports over the hook CLI now and then), a sixth flood output without end,
 * the rest are idle shells. Meanwhile clients churn: workspaces created,
 * typed into and closed; subscriptions opened and dropped; waits for output
 * and for agent states; a prober timing requests; a reader of every event.
 *
 * Prints per minute the errors seen, request latency (p50/p99) and the
 * server's RSS; any error is printed and makes the run fail (exit 1).
 * Clean environment as in the bench (an empty HOME, /bin/sh without rc files).
 */
import { join } from 'node:path';
import { Command } from 'commander';
import { HerdrClient, HerdrError } from '../src/client/client.js';
import type { AgentState } from '../src/protocol/objects.js';
import { sleep } from '../harness/poll.js';
import { REPO_ROOT, startServer } from '../harness/server.js';
import { BenchEnvironment } from './environment.js';
import { MB, percentile, rssBytes } from './measure.js';

interface SoakOptions {
  minutes: number;
  panes: number;
  workers?: number;
}

const PANES_PER_WORKSPACE = 5;

class Minute {
  requests = 0;
  latencies: number[] = [];
  errors: string[] = [];
  events = 0;
}

async function soak(options: SoakOptions): Promise<number> {
  const environment = new BenchEnvironment();
  const env = { ...environment.env, PATH: `${join(REPO_ROOT, 'bench', 'fixtures', 'soak')}:${environment.env.PATH}` };
  const server = await startServer({ baseEnv: env, shell: '/bin/sh', ...(options.workers ? { workers: options.workers } : {}) });
  const client = new HerdrClient({ socketPath: server.socketPath });
  let minute = new Minute();
  const error = (what: string, cause: unknown) => minute.errors.push(`${what}: ${cause instanceof Error ? cause.message : String(cause)}`);
  /** Runs one client step; a failure is an error of this minute. */
  const attempt = async (what: string, step: () => Promise<unknown>): Promise<void> => {
    try {
      await step();
    } catch (cause) {
      error(what, cause);
    }
  };
  /** A request answered at once, timed into this minute's latency figures. */
  const timed = async (what: string, request: () => Promise<unknown>): Promise<void> => {
    const started = performance.now();
    await attempt(what, request);
    minute.requests++;
    minute.latencies.push(performance.now() - started);
  };

  // The fleet.
  const flood = environment.floodInput(1 * MB);
  // Mixed in every workspace: of each six panes two agents, one flood, three idle shells.
  const commandOf = (i: number): string[] | undefined =>
    i % 6 < 2 ? ['claude'] : i % 6 === 2 ? ['/bin/sh', '-c', `while :; do cat ${flood}; done`] : undefined;
  const agentPanes: string[] = [];
  const allPanes: string[] = [];
  for (let start = 0; start < options.panes; start += PANES_PER_WORKSPACE) {
    const group = Array.from({ length: Math.min(PANES_PER_WORKSPACE, options.panes - start) }, (_, k) => commandOf(start + k));
    const [first, ...rest] = group;
    const { workspace } = await client.workspace.create({ cwd: environment.dir, ...(first ? { command: first } : {}) });
    const { panes } = await client.pane.list({ workspace_id: workspace.stable_id ?? '' });
    const ids = [panes[0]?.stable_id ?? ''];
    for (const command of rest) {
      const { pane } = await client.pane.split({ target_pane_id: ids[0] ?? '', direction: 'right', ...(command ? { command } : {}) });
      ids.push(pane.stable_id ?? '');
    }
    group.forEach((command, k) => {
      allPanes.push(ids[k] ?? '');
      if (command?.[0] === 'claude') agentPanes.push(ids[k] ?? '');
    });
  }
  const floods = allPanes.length - agentPanes.length - Math.ceil(allPanes.length / 2);
  const pick = (ids: string[]) => ids[Math.floor(Math.random() * ids.length)] ?? '';
  process.stdout.write(`soak: ${allPanes.length} panes (${agentPanes.length} fake agents, about ${Math.max(0, floods)} floods, the rest idle shells), ${options.minutes} min\n`);

  const deadline = Date.now() + options.minutes * 60_000;
  const running = () => Date.now() < deadline;

  const prober = async () => {
    const kinds = [
      () => client.ping(),
      () => client.pane.get({ pane_id: pick(allPanes) }),
      () => client.pane.list({}),
      () => client.pane.read({ pane_id: pick(allPanes), source: 'visible' }),
      () => client.server.stats(),
    ];
    for (let i = 0; running(); i++) {
      await timed('probe', kinds[i % kinds.length] as () => Promise<unknown>);
      await sleep(50);
    }
  };

  const workspaceChurn = async () => {
    for (let i = 0; running(); i++) {
      await attempt('workspace churn', async () => {
        const { workspace } = await client.workspace.create({ cwd: environment.dir, label: `churn ${i}` });
        const { panes } = await client.pane.list({ workspace_id: workspace.stable_id ?? '' });
        const paneId = panes[0]?.stable_id ?? '';
        await client.pane.split({ target_pane_id: paneId, direction: 'down' });
        // Typed before the first prompt, the command's output would share the prompt's line.
        await client.waitForOutput(paneId, '^\\$ ', { regex: true, timeoutMs: 20_000 });
        await client.pane.sendInput({ pane_id: paneId, text: `echo churn-${i}-done` });
        await client.waitForOutput(paneId, `^churn-${i}-done$`, { regex: true, timeoutMs: 20_000 });
        await client.workspace.close({ workspace_id: workspace.stable_id ?? '' });
      });
      await sleep(200);
    }
  };

  const subscriptionChurn = async () => {
    while (running()) {
      await attempt('subscription churn', async () => {
        const subscription = await client.subscribe([
          { type: 'workspace.created' },
          { type: 'pane.closed' },
          { type: 'pane.agent_state_changed', pane_id: pick(agentPanes) },
          { type: 'pane.output_matched', pane_id: pick(agentPanes), source: 'visible', match: { type: 'substring', value: 'Thinking' } },
        ]);
        const closeAt = Date.now() + 2000 + Math.random() * 3000;
        const timer = setTimeout(() => subscription.close(), closeAt - Date.now());
        for await (const line of subscription) if (line.event === 'subscription_overflow') throw new Error('a churned subscription was cut off');
        clearTimeout(timer);
      });
    }
  };

  const waitChurn = async () => {
    const states: AgentState[] = ['working', 'blocked', 'idle'];
    for (let i = 0; running(); i++) {
      const state = states[i % states.length] as AgentState;
      // A fake claude passes through every state within ~8 s: a timeout means detection stopped.
      await attempt(`wait for ${state}`, () => client.waitForAgentState(pick(agentPanes), state, { timeoutMs: 30_000 }));
      await attempt('wait for output', async () => {
        try {
          await client.waitForOutput(pick(agentPanes), 'Thinking', { source: 'visible', timeoutMs: 500 });
        } catch (cause) {
          if (!(cause instanceof HerdrError && cause.code === 'timeout')) throw cause;
        }
      });
    }
  };

  const reader = async () => {
    const subscription = await client.subscribe([
      { type: 'workspace.created' }, { type: 'workspace.closed' }, { type: 'pane.created' }, { type: 'pane.closed' },
      { type: 'pane.exited' }, { type: 'pane.agent_state_changed' }, { type: 'pane.notification' },
    ]);
    const stop = setInterval(() => running() || subscription.close(), 1000);
    for await (const line of subscription) {
      if (line.event === 'subscription_overflow') error('reader', 'the reading subscriber was cut off');
      minute.events++;
    }
    clearInterval(stop);
    if (running()) error('reader', 'the event stream ended early');
  };

  // Per minute: what was seen, then a fresh minute.
  let failed = 0;
  let lastDeaths = 0;
  const report = async (index: number) => {
    const done = minute;
    minute = new Minute();
    const stats = await client.server.stats().catch(() => undefined);
    if (!stats) done.errors.push('server.stats failed: is the server alive?');
    else if (stats.shard_deaths > lastDeaths) done.errors.push(`${stats.shard_deaths - lastDeaths} shard(s) died: ${stats.last_shard_death?.reason ?? ''}`);
    lastDeaths = stats?.shard_deaths ?? lastDeaths;
    if (!server.running) done.errors.push('the server is not running');
    failed += done.errors.length;
    const rss = server.running ? rssBytes(server.pid) / MB : 0;
    const p = (q: number) => percentile(done.latencies, q).toFixed(1);
    process.stdout.write(
      `minute ${String(index).padStart(2)}  errors ${String(done.errors.length).padStart(3)}  probes ${String(done.requests).padStart(6)}  p50 ${p(50).padStart(6)} ms  p99 ${p(99).padStart(7)} ms  ` +
        `events ${String(done.events).padStart(7)}  panes ${stats?.panes ?? '?'}  RSS ${rss.toFixed(0)} MB  main loop max ${stats?.loop_delay_max_ms ?? '?'} ms\n`,
    );
    for (const message of done.errors.slice(0, 10)) process.stdout.write(`  ERROR ${message}\n`);
  };
  const started = Date.now();
  let reported = 0;
  const ticker = setInterval(() => void report(++reported), 60_000);
  try {
    await Promise.all([prober(), prober(), workspaceChurn(), subscriptionChurn(), subscriptionChurn(), waitChurn(), waitChurn(), reader()]);
  } finally {
    clearInterval(ticker);
  }
  // A last part-minute counts when it is long enough to say something.
  if (Date.now() - started > reported * 60_000 + 10_000) await report(++reported);
  else failed += minute.errors.length;
  client.close();
  await server.stop();
  environment.dispose();
  if (failed > 0) process.stdout.write(`SOAK FAILED: ${failed} error(s)\n`);
  else process.stdout.write(`soak passed: ${reported} minute(s), no errors\n`);
  return failed > 0 ? 1 : 0;
}

const program = new Command('soak')
  .description('hours of fleet life in minutes: fake agents, floods and idle shells while clients churn (bench/soak.ts)')
  .option('--minutes <n>', 'how long', Number, 10)
  .option('--panes <n>', 'panes in the fleet', Number, 300)
  .option('--workers <n>', 'server shards (default: one per core)', Number)
  .action(async (options: SoakOptions) => {
    process.exitCode = await soak(options);
  });
await program.parseAsync(process.argv);
