/**
 * Scale: memory per idle pane and per pane holding 10 000 rows of
 * 120-column history, `pane.list` latency at 100, 300 and 500 panes, and a
 * burst of 100 pane creations (rate, and our main thread's worst event-loop
 * stall meanwhile). One host at a time, so each owns the machine while its
 * memory settles.
 */
import { sleep } from '../../harness/poll.js';
import { HerdrHost } from '../contenders/herdr.js';
import type { PaneHost } from '../contenders/host.js';
import { HISTORY_ROWS } from '../contenders/tmux.js';
import { MB, median } from '../measure.js';
import { boundTarget, measured, type ScenarioResult } from '../report/results.js';
import { type BenchContext, SampleSet, sampleMs, sized, withHosts } from './context.js';

const BURST = 100;
/** How long memory settles before it is read (quick runs accept a little more noise). */
const SETTLE_MS = 3000;
const QUICK_SETTLE_MS = 1500;
/** Prints HISTORY_ROWS lines of exactly 120 characters; the last one is FILL_LAST. */
const FILL = `seq -f '%0120.0f' 1 ${HISTORY_ROWS}`;
const FILL_LAST = String(HISTORY_ROWS).padStart(120, '0');

async function settledRss(context: BenchContext, host: PaneHost): Promise<number> {
  await sleep(sized(context, { smoke: 300, quick: QUICK_SETTLE_MS, full: SETTLE_MS }));
  return host.rssBytes();
}

export async function scaleScenario(context: BenchContext): Promise<ScenarioResult> {
  const burst = sized(context, { smoke: 4, quick: BURST, full: BURST });
  const listAt = sized(context, { smoke: [4, 8], quick: [100, 300, 500], full: [100, 300, 500] });
  const idleAt = sized(context, { smoke: 8, quick: 300, full: 300 });
  const filled = sized(context, { smoke: 2, quick: 20, full: 50 });
  const listSamples = sized(context, { smoke: 5, quick: 30, full: 100 });
  const idleRss = new SampleSet();
  const fullRss = new SampleSet();
  const creation = new SampleSet();
  const stalls = new SampleSet();
  const lists = new Map<number, SampleSet>(listAt.map((count) => [count, new SampleSet()]));

  for (const name of context.hostNames) {
    await withHosts(
      context,
      async ([host]) => {
        if (!host) return;
        const panes: string[] = [];
        const growTo = async (count: number) => panes.push(...(await host.createPanes(count - panes.length)));
        const listAtSize = async () => {
          const times = await sampleMs(listSamples, 0, async () => void (await host.listPanes()));
          lists.get(panes.length)?.add(host.name, median(times));
        };
        const base = await settledRss(context, host);

        const start = performance.now();
        await growTo(burst);
        const rate = burst / ((performance.now() - start) / 1000);
        const stall = host instanceof HerdrHost ? (await host.stats()).loop_delay_max_ms : undefined;
        context.progress(`scale: ${host.name.padEnd(8)} ${burst} panes created at ${rate.toFixed(0)}/s${stall === undefined ? '' : `, worst main-loop stall ${stall.toFixed(1)} ms`}`);

        for (const count of listAt) {
          if (count === idleAt) {
            await growTo(count);
            const idle = await settledRss(context, host);
            const idlePerPane = (idle - base) / count / MB;
            idleRss.add(host.name, idlePerPane);
            await host.typeLine(panes.slice(0, filled), FILL);
            await host.untilLine(panes.slice(0, filled), FILL_LAST, 600_000);
            const full = await settledRss(context, host);
            const added = (full - idle) / filled / MB;
            fullRss.add(host.name, idlePerPane + added);
            context.progress(`scale: ${host.name.padEnd(8)} RSS ${idlePerPane.toFixed(2)} MB per idle pane, ${(idlePerPane + added).toFixed(2)} MB per pane with ${HISTORY_ROWS} rows`);
          }
          await growTo(count);
          await listAtSize();
        }
        creation.add(host.name, rate);
        if (stall !== undefined) stalls.add(host.name, stall);
      },
      [name],
    );
  }
  const idle = idleRss.metric('RSS per idle pane', 'MB', 'lower');
  const full = fullRss.metric(`RSS per pane with ${HISTORY_ROWS} rows of history`, 'MB', 'lower');
  return {
    id: 'scale',
    title: `Scale: memory at ${idleAt} panes, listing up to ${listAt.at(-1)}, creation bursts`,
    method: `Server RSS (settled ${sized(context, { smoke: 0.3, quick: QUICK_SETTLE_MS / 1000, full: SETTLE_MS / 1000 })} s) with ${idleAt} idle shells, then with ${filled} of them holding ${HISTORY_ROWS} rows of 120 columns (tmux: history-limit ${HISTORY_ROWS}); the full-pane figure is the idle cost plus what the history added. List latency is the median of ${listSamples} (herdr pane.list on one connection; tmux list-panes -a, a client invocation). The burst creates ${burst} panes (herdr: workspace.create, 8 in flight; tmux: new-window, chained 100 to an invocation).`,
    metrics: [
      idle,
      full,
      ...listAt.map((count) => lists.get(count)?.metric(`pane list at ${count} panes`, 'ms', 'lower')).filter((m) => m !== undefined),
      creation.metric(`creation rate, burst of ${burst}`, 'panes/s', 'higher'),
      stalls.metric(`worst main-loop stall during the burst`, 'ms', 'lower'),
    ],
    targets: measured([boundTarget(idle, 'herdr', 0.6), boundTarget(full, 'herdr', 3)]),
  };
}
