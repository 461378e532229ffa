/**
 * Event rules (issue #26, docs/protocol.md §13.8) under load: 25 builder agents each get
 * 20 prompts from 5 concurrent clients, and 25 rules queue a review into a reviewer agent
 * each time a builder turns `done`; a schedule rule ticks into a 51st agent every second
 * meanwhile. Counted by the agents themselves: every builder turn sets off exactly one
 * firing and every reviewer answers exactly 20 reviews, in order. How long from the
 * builder's `done` (its status event at the bench's subscription) to the rule's firing
 * (`rule.fired`, after the queued prompt's receipt), against the same orchestration done
 * by a client over the socket (subscribe, then `agent.prompt` on each `done`), interleaved
 * in the same run: the rule's path through the server's own socket, beside a client's.
 */
import { HerdrClient } from '../../src/client/client.js';
import { sleep } from '../../harness/poll.js';
import { HerdrHost } from '../contenders/herdr.js';
import { median, percentile, pool } from '../measure.js';
import { type ScenarioResult, formatFigure, measured } from '../report/results.js';
import { type BenchContext, SampleSet, sized, withHosts } from './context.js';
import { FAKE_AGENT } from './orchestration-fleet.js';

const WORK_MS = 20;
const ROUNDS = 2;

export async function rulesScenario(context: BenchContext): Promise<ScenarioResult> {
  const pairs = sized(context, { smoke: 2, quick: 25, full: 25 });
  const prompts = sized(context, { smoke: 3, quick: 20, full: 20 });
  const clientCount = sized(context, { smoke: 2, quick: 5, full: 5 });
  const herdrName = context.hostNames.find((name) => name !== 'tmux') ?? 'herdr';
  const exact = new SampleSet();
  const ruleLatency: number[] = [];
  const clientLatency: number[] = [];
  const tickLateness: number[] = [];
  let firings = 0;
  let skippedOrFailed = 0;

  await withHosts(
    context,
    async ([host]) => {
      if (!(host instanceof HerdrHost)) throw new Error('the rules scenario needs a herdr host');
      const builders = Array.from({ length: pairs }, (_, i) => `build-${i}`);
      const reviewers = Array.from({ length: pairs }, (_, i) => `review-${i}`);
      context.progress(`rules: starting ${pairs * 2 + 1} fake agents`);
      await pool([...builders, ...reviewers, 'ticker'], 8, async (name) => {
        await host.connection.call('agent.start', {
          command: [FAKE_AGENT],
          cwd: context.environment.dir,
          name,
          env: { FAKE_AGENT_WORK_MS: String(WORK_MS) },
          timeout_ms: 60_000,
        });
      });
      const paneOf = new Map<string, string>();
      for (const name of builders) paneOf.set((await host.connection.call('agent.get', { target: name })).agent.pane_id, name);

      // What the bench sees: each builder's `done` and each firing, on one subscription, one clock.
      const doneAt = new Map<string, number[]>();
      const firedAt = new Map<string, number[]>();
      const subscription = await host.client.subscribe([{ type: 'pane.agent_status_changed', agent_status: 'done' }, { type: 'rule.fired' }]);
      const orchestrator = new HerdrClient({ socketPath: host.socketPath });
      let clientMode = false;
      void (async () => {
        for await (const line of subscription) {
          const now = performance.now();
          if (line.event === 'pane.agent_status_changed') {
            const name = paneOf.get(line.data.pane_id);
            if (name === undefined) continue;
            if (!clientMode) {
              push(doneAt, name, now);
              continue;
            }
            // The same orchestration as a client: on a builder's done, queue the review.
            void orchestrator.agent.prompt({ target: name.replace('build-', 'review-'), text: `work ${WORK_MS} cl-${name}` }).then(() => clientLatency.push(performance.now() - now));
          } else if (line.event === 'rule.fired') {
            if (line.data.cause.type === 'schedule') {
              tickLateness.push(Date.now() % 1000);
              continue;
            }
            firings++;
            if (line.data.outcome !== 'done') skippedOrFailed++;
            push(firedAt, line.data.cause.agent ?? '', now);
          }
        }
      })();

      const clients = Array.from({ length: clientCount }, () => new HerdrClient({ socketPath: host.socketPath }));
      const total = (map: Map<string, number[]>) => [...map.values()].reduce((sum, list) => sum + list.length, 0);
      const drive = async (tag: string, reviewsQueued: () => number) => {
        await Promise.all(
          clients.map((client, c) =>
            Promise.all(
              builders.filter((_, i) => i % clientCount === c).map(async (name) => {
                for (let j = 0; j < prompts; j++) await client.agent.prompt({ target: name, text: `work ${WORK_MS} ${tag}-${j}` });
              }),
            ),
          ),
        );
        // Every builder turn's review queued, then every review answered.
        const deadline = Date.now() + 120_000;
        while (reviewsQueued() < pairs * prompts && Date.now() < deadline) await sleep(50);
        await Promise.all([...builders, ...reviewers].map((name) => waitIdleQueue(host.connection, name)));
      };

      const rules: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        context.progress(`rules: round ${round + 1}: ${pairs} builders × ${prompts} prompts, reviews queued by rules`);
        for (const [i, name] of builders.entries()) {
          const { rule } = await host.connection.call('rules.add', {
            trigger: { type: 'agent_status', status: 'done', agent: name },
            action: { type: 'queue', agent: reviewers[i] ?? '', text: `work ${WORK_MS} rv-{{agent}}` },
            limit: { max: 10_000, per_s: 60 },
          });
          rules.push(rule.rule_id);
        }
        const tick = await host.connection.call('rules.add', { trigger: { type: 'schedule', cron: '* * * * * *' }, action: { type: 'queue', agent: 'ticker', text: `work 5 tick` }, limit: { max: 10_000, per_s: 60 } });
        rules.push(tick.rule.rule_id);
        await drive(`r${round}`, () => total(firedAt));
        for (const id of rules.splice(0)) await host.connection.call('rules.remove', { rule_id: id });
        for (const name of builders) {
          const done = doneAt.get(name) ?? [];
          const fired = firedAt.get(name) ?? [];
          done.forEach((at, j) => {
            const then = fired[j];
            if (then !== undefined) ruleLatency.push(then - at);
          });
          doneAt.set(name, []);
          firedAt.set(name, []);
        }

        context.progress(`rules: round ${round + 1}: the same reviews queued by a client`);
        clientMode = true;
        const before = clientLatency.length;
        await drive(`c${round}`, () => clientLatency.length - before);
        clientMode = false;
      }
      subscription.close();
      orchestrator.close();
      for (const client of clients) client.close();

      // What each reviewer answered, by its own count: every review once, in order.
      let inOrder = 0;
      for (const [i, name] of reviewers.entries()) {
        const { agent } = await host.connection.call('agent.get', { target: name });
        const { read } = await host.connection.call('pane.read', { pane_id: agent.pane_id, source: 'recent', lines: ROUNDS * prompts * 16 + 50 });
        const reviews = [...read.text.matchAll(/^answer: rv-(\S+) \(\d+\)$/gm)].map((match) => match[1]);
        if (reviews.length === ROUNDS * prompts && reviews.every((builder) => builder === builders[i])) inOrder++;
      }
      exact.add(host.name, skippedOrFailed === 0 && firings === ROUNDS * pairs * prompts ? (inOrder / pairs) * 100 : 0);
      context.progress(
        `rules: ${firings} firings (${skippedOrFailed} not done) for ${ROUNDS * pairs * prompts} builder turns; ${inOrder}/${pairs} reviewers answered every review once; ` +
          `done → rule.fired p50 ${median(ruleLatency).toFixed(1)} / p99 ${percentile(ruleLatency, 99).toFixed(1)} ms; the client's p50 ${median(clientLatency).toFixed(1)} / p99 ${percentile(clientLatency, 99).toFixed(1)} ms; ` +
          `ticks ${tickLateness.length}, lateness p50 ${median(tickLateness).toFixed(0)} ms`,
      );
    },
    [herdrName],
  );

  const figure = (name: string, value: number) => ({ name, unit: 'ms', better: 'lower' as const, values: { [herdrName]: value } });
  const exactMetric = exact.metric('builder turns whose review was queued exactly once and answered in order', '%', 'higher');
  const value = exactMetric.values[herdrName] ?? NaN;
  return {
    id: 'rules',
    title: `Event rules: ${pairs} builders × ${prompts} prompts, each done queues a review`,
    method:
      `${pairs * 2 + 1} fake agents (${WORK_MS} ms a turn); ${clientCount} clients send each builder ${prompts} prompts at once (they queue); a rule per builder queues a review ` +
      `into its reviewer on each \`done\`, and a schedule rule ticks into another agent every second. Latency: the builder's pane.agent_status_changed done → rule.fired, ` +
      'both at the bench\'s one subscription. Then, interleaved, the same reviews queued by a client (the same subscription, agent.prompt on each done; latency to its answer). ' +
      `${ROUNDS} rounds of each. Counted from what each reviewer printed.`,
    metrics: [
      exactMetric,
      figure(`done → rule.fired (review queued), p50, ${pairs * 2 + 1} agents at work`, median(ruleLatency)),
      figure(`done → rule.fired, p99`, percentile(ruleLatency, 99)),
      figure('done → a client\'s agent.prompt answered, p50 (the same orchestration from outside)', median(clientLatency)),
      figure('done → a client\'s agent.prompt answered, p99', percentile(clientLatency, 99)),
      figure('schedule: rule.fired after the second\'s beat, p50', median(tickLateness)),
    ],
    targets: measured([
      Number.isFinite(value) ? { what: 'every builder turn queues exactly one review, answered in order', target: '100 %', measured: formatFigure(value, '%'), met: value === 100 } : undefined,
    ]),
  };
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}

/** Until the agent has nothing queued and is not at work. */
async function waitIdleQueue(connection: HerdrHost['connection'], name: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const [{ agent }, { turns }] = await Promise.all([connection.call('agent.get', { target: name }), connection.call('agent.queue.list', { target: name })]);
    if (turns.length === 0 && (agent.agent_status === 'idle' || agent.agent_status === 'done')) return;
    await sleep(100);
  }
  throw new Error(`${name} never settled`);
}
