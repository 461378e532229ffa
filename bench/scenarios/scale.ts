/**
 * Scale: a burst of 300 pane creations as a script makes it (rate, and our
 * main thread's worst event-loop stall meanwhile), memory per idle pane right
 * after it and per pane holding 10 000 rows of 120-column history (right
 * after the output, and once settled), `pane.list` latency at 300 and 500
 * panes. One host at a time, so each owns the machine while its memory
 * settles.
 */
import { sleep } from '../../harness/poll.js';
import { HerdrHost } from '../contenders/herdr.js';
import type { PaneHost } from '../contenders/host.js';
import { HISTORY_ROWS } from '../contenders/tmux.js';
import { fit } from '../corpus/cells.js';
import { Prng } from '../corpus/prng.js';
import { words } from '../corpus/vocabulary.js';
import { DEFAULT_RECLAIM_AFTER_MS } from '../../src/protocol/thread.js';
import type { BenchEnvironment } from '../environment.js';
import { MB, median } from '../measure.js';
import { boundTarget, measured, ratioTarget, type ScenarioResult } from '../report/results.js';
import { type BenchContext, SampleSet, sampleMs, sized, withHosts } from './context.js';

const BURST = 300;
/** How long after a burst its idle memory is read, and after the fill its full memory first: right after, as a script would look. */
const AFTER_CREATION_MS = 1500;
/** How long memory settles before it is read (quick runs accept a little more noise). */
const SETTLE_MS = 3000;
const QUICK_SETTLE_MS = 1500;
const FILL_LAST = String(HISTORY_ROWS).padStart(120, '0');
const FILL_SEED = 0x5ca1e;

/**
 * A command printing HISTORY_ROWS lines of 120 columns, the last FILL_LAST:
 * numbered lines of words, which compress about as much as what agents print
 * (an earlier fill of zero-padded numbers compressed ~20×).
 */
function historyFill(environment: BenchEnvironment): string {
  const prng = new Prng(FILL_SEED);
  const lines: string[] = [];
  for (let i = 1; i < HISTORY_ROWS; i++) lines.push(fit(`${String(i).padStart(5, '0')} ${words(prng, 40)}`, 120).trimEnd());
  lines.push(FILL_LAST);
  return `cat ${environment.textFile('history-fill.txt', `${lines.join('\n')}\n`)}`;
}

async function settledRss(context: BenchContext, host: PaneHost, after = 0): Promise<number> {
  await sleep(after + sized(context, { smoke: 300, quick: QUICK_SETTLE_MS, full: SETTLE_MS }));
  return host.rssBytes();
}

export async function scaleScenario(context: BenchContext): Promise<ScenarioResult> {
  const burst = sized(context, { smoke: 6, quick: BURST, full: BURST });
  const listAt = sized(context, { smoke: [6, 8], quick: [300, 500], full: [300, 500] });
  const filled = sized(context, { smoke: 2, quick: 20, full: 50 });
  const listSamples = sized(context, { smoke: 5, quick: 30, full: 100 });
  const afterMs = sized(context, { smoke: 300, quick: AFTER_CREATION_MS, full: AFTER_CREATION_MS });
  const idleRss = new SampleSet();
  const justFilledRss = new SampleSet();
  const fullRss = new SampleSet();
  const creation = new SampleSet();
  const stalls = new SampleSet();
  const lists = new Map<number, SampleSet>(listAt.map((count) => [count, new SampleSet()]));

  for (const name of context.hostNames) {
    await withHosts(
      context,
      async ([host]) => {
        if (!host) return;
        const base = await settledRss(context, host);
        const { panes, seconds } = await host.createBurst(burst);
        const rate = burst / seconds;
        const stall = host instanceof HerdrHost ? (await host.stats()).loop_delay_max_ms : undefined;
        // Right after creation: once every prompt shows, plus the 1.5 s a script would take to look.
        await sleep(afterMs);
        const idle = await host.rssBytes();
        const idlePerPane = (idle - base) / burst / MB;
        context.progress(`scale: ${host.name.padEnd(8)} ${burst} panes created at ${rate.toFixed(0)}/s${stall === undefined ? '' : ` (worst main-loop stall ${stall.toFixed(1)} ms)`}; RSS ${idlePerPane.toFixed(2)} MB per idle pane`);

        await host.typeLine(panes.slice(0, filled), historyFill(context.environment));
        await host.untilLine(panes.slice(0, filled), FILL_LAST, 600_000);
        // Right after the output: once every filled pane shows its last line, plus the same short delay.
        await sleep(afterMs);
        const justFilled = idlePerPane + ((await host.rssBytes()) - idle) / filled / MB;
        // herdr gives a full history's memory back once its shard has been quiet this long.
        const full = await settledRss(context, host, host instanceof HerdrHost && context.mode !== 'smoke' ? DEFAULT_RECLAIM_AFTER_MS : 0);
        const added = (full - idle) / filled / MB;
        context.progress(`scale: ${host.name.padEnd(8)} RSS per pane with ${HISTORY_ROWS} rows ${justFilled.toFixed(2)} MB right after the output, ${(idlePerPane + added).toFixed(2)} MB settled`);

        for (const count of listAt) {
          if (panes.length < count) panes.push(...(await host.createPanes(count - panes.length)));
          const times = await sampleMs(listSamples, 0, async () => void (await host.listPanes()));
          lists.get(count)?.add(host.name, median(times));
        }
        idleRss.add(host.name, idlePerPane);
        justFilledRss.add(host.name, justFilled);
        fullRss.add(host.name, idlePerPane + added);
        creation.add(host.name, rate);
        if (stall !== undefined) stalls.add(host.name, stall);
      },
      [name],
    );
  }
  const idle = idleRss.metric(`RSS per idle pane, ${afterMs / 1000} s after creation`, 'MB', 'lower');
  const justFilled = justFilledRss.metric(`RSS per pane with ${HISTORY_ROWS} rows of history, ${afterMs / 1000} s after the output`, 'MB', 'lower');
  const full = fullRss.metric(`RSS per pane with ${HISTORY_ROWS} rows of history, settled`, 'MB', 'lower');
  const rate = creation.metric(`creation rate, burst of ${burst}`, 'panes/s', 'higher');
  return {
    id: 'scale',
    title: `Scale: creating ${burst} panes, memory, listing up to ${listAt.at(-1)}`,
    method: `A burst of ${burst} panes as a script makes it (herdr: workspace.create, ${burst} requests with 64 in flight on one connection; tmux: new-window, chained in client invocations), timed until every one is answered. Server RSS over the settled empty server ${afterMs / 1000} s after every prompt showed, then with ${filled} of the panes holding ${HISTORY_ROWS} rows of up to 120 columns of numbered words (tmux: history-limit ${HISTORY_ROWS}): ${afterMs / 1000} s after every filled pane showed its last line, and again settled (a further ${sized(context, { smoke: 0.3, quick: QUICK_SETTLE_MS / 1000, full: SETTLE_MS / 1000 })} s${context.mode === 'smoke' ? '' : `, herdr after its ${DEFAULT_RECLAIM_AFTER_MS / 1000} s quiet time first`}); a full-pane figure is the idle cost plus what the history added. List latency is the median of ${listSamples} (herdr pane.list on one connection; tmux list-panes -a, a client invocation).`,
    metrics: [
      idle,
      justFilled,
      full,
      ...listAt.map((count) => lists.get(count)?.metric(`pane list at ${count} panes`, 'ms', 'lower')).filter((m) => m !== undefined),
      rate,
      stalls.metric('worst main-loop stall during the burst', 'ms', 'lower'),
    ],
    targets: measured([boundTarget(idle, 'herdr', 0.4), boundTarget(justFilled, 'herdr', 2.5), ratioTarget(rate, 'herdr', 'tmux', 1)]),
  };
}
