/**
 * Prompts as turns (issue #26, docs/protocol.md §13.7) under load: 50 fake agents each
 * get 20 prompts from 5 concurrent clients (each agent's prompts in order from one client,
 * the clients' agents interleaved), a third of them sent again with the same client key,
 * some at once from another client, as a client that timed out would. Counted by the fake
 * agents themselves (each numbers what it answered): every prompt answered exactly once, in
 * order; every receipt a turn, every turn a `pane.turn_finished`. And how long after an
 * agent finished (it prints the moment, then reports idle by its status sequence) the
 * event arrives: p50 and p99. No peer has turns; the figures stand against the rule
 * (exactly once, in order) and beside the screen-only path's idle latency (scenario `agents`).
 */
import { HerdrClient } from '../../src/client/client.js';
import { sleep } from '../../harness/poll.js';
import { HerdrHost } from '../contenders/herdr.js';
import { Prng } from '../corpus/prng.js';
import { median, percentile, pool } from '../measure.js';
import { type ScenarioResult, formatFigure, measured } from '../report/results.js';
import { type BenchContext, SampleSet, sized, withHosts } from './context.js';
import { FAKE_AGENT } from './orchestration-fleet.js';

const RETRY_PERCENT = 33;
const CONCURRENT_RETRY_PERCENT = 10;
const WORK_MS = 20;

export async function turnsScenario(context: BenchContext): Promise<ScenarioResult> {
  const agentCount = sized(context, { smoke: 4, quick: 50, full: 50 });
  const prompts = sized(context, { smoke: 3, quick: 20, full: 20 });
  const clientCount = sized(context, { smoke: 2, quick: 5, full: 5 });
  const herdrName = context.hostNames.find((name) => name !== 'tmux') ?? 'herdr';
  const exact = new SampleSet();
  const receipts = new SampleSet();
  const finished = new SampleSet();
  const throughput = new SampleSet();
  const latencies: number[] = [];
  const quiet: number[] = [];
  let retries = 0;

  await withHosts(
    context,
    async ([host]) => {
      if (!(host instanceof HerdrHost)) throw new Error('the turns scenario needs a herdr host');
      context.progress(`turns: starting ${agentCount} fake agents`);
      const names = Array.from({ length: agentCount }, (_, i) => `bench-${i}`);
      await pool(names, 8, async (name) => {
        await host.connection.call('agent.start', {
          command: [FAKE_AGENT],
          cwd: context.environment.dir,
          name,
          env: { FAKE_AGENT_WORK_MS: String(WORK_MS), FAKE_AGENT_STAMP: '1' },
          timeout_ms: 60_000,
        });
      });
      const arrivals = new Map<string, number>();
      const subscription = await host.client.subscribe([{ type: 'pane.turn_finished' }]);
      void (async () => {
        for await (const line of subscription) if (line.event === 'pane.turn_finished') arrivals.set(line.data.turn_id, Date.now());
      })();
      const clients = Array.from({ length: clientCount }, () => new HerdrClient({ socketPath: host.socketPath }));
      const prng = new Prng(0x7e57_0026);
      const turnOf = new Map<string, string>();
      let receiptCount = 0;
      let mismatched = 0;
      const began = performance.now();
      context.progress(`turns: ${agentCount} × ${prompts} prompts from ${clientCount} clients, with retries`);
      await Promise.all(
        clients.map((client, c) =>
          Promise.all(
            names
              .filter((_, i) => i % clientCount === c)
              .map(async (name) => {
                for (let j = 0; j < prompts; j++) {
                  const key = `${name}-${j}`;
                  const text = `work ${WORK_MS} ${key}`;
                  const send = (by: HerdrClient) => by.agent.prompt({ target: name, text, key });
                  // A client that timed out sends it again at once from elsewhere.
                  const twin = prng.chance(CONCURRENT_RETRY_PERCENT) ? send(prng.pick(clients)) : undefined;
                  const answer = await send(client);
                  receiptCount++;
                  turnOf.set(key, answer.turn.turn_id);
                  const again = [twin, prng.chance(RETRY_PERCENT) ? send(client) : undefined].filter((retry) => retry !== undefined);
                  for (const retry of await Promise.all(again)) {
                    retries++;
                    if (retry.turn.turn_id !== answer.turn.turn_id) mismatched++;
                  }
                }
              }),
          ),
        ),
      );
      const turnIds = new Set(turnOf.values());
      const deadline = Date.now() + 120_000;
      while ([...turnIds].some((id) => !arrivals.has(id)) && Date.now() < deadline) await sleep(50);
      const seconds = (performance.now() - began) / 1000;
      for (const client of clients) client.close();
      const missing = [...turnIds].filter((id) => !arrivals.has(id));
      for (const id of missing.slice(0, 5)) {
        const { turn } = await host.connection.call('agent.turn.get', { turn_id: id });
        const { agent } = await host.connection.call('agent.get', { target: turn.agent_instance_id }).catch(() => ({ agent: undefined }));
        context.progress(`turns: no pane.turn_finished for ${id}: ${JSON.stringify(turn)}; its agent ${agent ? `${agent.agent_status} (${agent.agent_source})` : 'gone'}`);
      }

      // The same path on a quiet server: one agent, one prompt at a time.
      const [lone = ''] = names;
      const quietTurns: string[] = [];
      for (let j = 0; j < prompts; j++) {
        const { turn } = await host.connection.call('agent.prompt', { target: lone, text: `work ${WORK_MS} quiet-${j}`, wait: { timeout_ms: 30_000 } });
        quietTurns.push(turn.turn_id);
        await sleep(50);
      }
      subscription.close();

      // What each agent answered, by its own count.
      let inOrder = 0;
      for (const name of names) {
        const { agent } = await host.connection.call('agent.get', { target: name });
        const { read } = await host.connection.call('pane.read', { pane_id: agent.pane_id, source: 'recent', lines: prompts * 8 + 50 });
        const answered = [...read.text.matchAll(/^answer: (\S+) \((\d+)\)$/gm)].map((match) => `${match[1]}#${match[2]}`).filter((answer) => !answer.startsWith('quiet-'));
        const expected = Array.from({ length: prompts }, (_, j) => `${name}-${j}#${j + 1}`);
        if (answered.join(',') === expected.join(',')) inOrder++;
        const stamps = [...read.text.matchAll(/^finished-at: (\d+)$/gm)].map((match) => Number(match[1]));
        stamps.forEach((stamp, j) => {
          const arrived = arrivals.get(turnOf.get(`${name}-${j}`) ?? quietTurns[j - prompts] ?? '');
          if (arrived !== undefined) (j < prompts ? latencies : quiet).push(arrived - stamp);
        });
      }
      exact.add(host.name, mismatched === 0 ? (inOrder / agentCount) * 100 : 0);
      receipts.add(host.name, (receiptCount / (agentCount * prompts)) * 100);
      finished.add(host.name, ([...turnIds].filter((id) => arrivals.has(id)).length / (agentCount * prompts)) * 100);
      throughput.add(host.name, (agentCount * prompts) / seconds);
      context.progress(
        `turns: ${inOrder}/${agentCount} agents answered all ${prompts} in order, once each; ${retries} retries (${mismatched} got another turn); ` +
          `turn end → pane.turn_finished p50 ${median(latencies).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms under load, ` +
          `${median(quiet).toFixed(0)} / ${percentile(quiet, 99).toFixed(0)} ms quiet; ${seconds.toFixed(1)} s`,
      );
    },
    [herdrName],
  );

  const figure = (name: string, value: number) => ({ name, unit: 'ms', better: 'lower' as const, values: { [herdrName]: value } });
  const p50 = figure(`turn end → pane.turn_finished, p50, ${agentCount} agents at work`, median(latencies));
  const p99 = figure(`turn end → pane.turn_finished, p99, ${agentCount} agents at work`, percentile(latencies, 99));
  const quiet50 = figure('turn end → pane.turn_finished, p50, one agent alone', median(quiet));
  const quiet99 = figure('turn end → pane.turn_finished, p99, one agent alone', percentile(quiet, 99));
  const exactMetric = exact.metric('agents that answered every prompt once, in order', '%', 'higher');
  const value = exactMetric.values[herdrName] ?? NaN;
  return {
    id: 'turns',
    title: `Turns: ${agentCount} agents × ${prompts} prompts from ${clientCount} clients, with retries`,
    method:
      `${agentCount} fake agents (bench/fixtures/agents/fake-agent, ${WORK_MS} ms a turn, their state by OSC 7501); each gets ${prompts} prompts with client keys, ` +
      `in order, from one of ${clientCount} clients (kept-alive connections, all at once); ${RETRY_PERCENT}% sent again after the receipt and ${CONCURRENT_RETRY_PERCENT}% ` +
      'at once from another client. Counted from what each agent printed (its own answer count); latency from the moment it printed before reporting idle to the arrival of pane.turn_finished; ' +
      `then ${prompts} prompts to one agent alone, one at a time. The screen-only path (a pi fixture's idle screen to pane.agent_state_changed, scenario agents) measured 2 ms p50, 5 ms p99 on a quiet server (bench/results/2026-12-03.md).`,
    metrics: [
      exactMetric,
      receipts.metric('prompts answered with a receipt', '%', 'higher'),
      finished.metric('turns that sent pane.turn_finished', '%', 'higher'),
      p50,
      p99,
      quiet50,
      quiet99,
      throughput.metric('prompts through the queues', 'turns/s', 'higher'),
    ],
    targets: measured([
      Number.isFinite(value) ? { what: 'every prompt answered exactly once, in order', target: '100 %', measured: formatFigure(value, '%'), met: value === 100 } : undefined,
    ]),
  };
}
