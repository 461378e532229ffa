/**
 * `herdr watch` at fleet size: 500 panes, the live view running in a PTY of
 * the bench's own (its frames parsed by @xterm/headless, as a terminal would),
 * then every pane's state changed at once by hook reports. Measured: how long
 * until the view's title counts every pane in the new state, the CPU the
 * watch process spent on the burst, and `herdr watch --once` from start to
 * exit. No peer has such a view (tmux would need a script polling every
 * pane), so the figures stand against budgets.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as pty from 'node-pty';
import xtermHeadless from '@xterm/headless';
import { eventually } from '../../harness/poll.js';
import { HERDR_BIN } from '../../harness/server.js';
import { HerdrHost } from '../contenders/herdr.js';
import { cpuSeconds, median } from '../measure.js';
import { boundTarget, measured, type ScenarioResult } from '../report/results.js';
import { type BenchContext, SampleSet, sized, withHosts } from './context.js';

const run = promisify(execFile);
const STATES = ['working', 'blocked', 'idle'] as const;

export async function watchScenario(context: BenchContext): Promise<ScenarioResult> {
  const paneCount = sized(context, { smoke: 20, quick: 500, full: 500 });
  const rounds = sized(context, { smoke: 1, quick: 2, full: 3 });
  const shown = new SampleSet();
  const cpu = new SampleSet();
  const once = new SampleSet();
  let seq = 0;

  await withHosts(context, async ([host]) => {
    if (!(host instanceof HerdrHost)) return;
    context.progress(`watch: creating ${paneCount} panes`);
    const panes = await host.createPanes(paneCount, 'sleep 1000000');
    const term = new xtermHeadless.Terminal({ cols: 160, rows: 40, allowProposedApi: true });
    const view = pty.spawn(process.execPath, [HERDR_BIN, 'watch', '--socket', host.socketPath], {
      cols: 160,
      rows: 40,
      cwd: context.environment.dir,
      env: { ...context.environment.env, TERM: 'xterm-256color' },
      name: 'xterm-256color',
    });
    view.onData((data) => term.write(data));
    const title = () => term.buffer.active.getLine(0)?.translateToString(true) ?? '';
    try {
      await eventually(() => title().includes(`${paneCount} panes`), 'the view to show every pane', 60_000);
      for (let round = 0; round < rounds; round++) {
        for (const state of STATES) {
          const cpuBefore = cpuSeconds(view.pid);
          const start = performance.now();
          await Promise.all(panes.map((pane) =>
            host.connection.call('pane.report_agent', { pane_id: pane, source: 'bench:watch', agent: 'benchbot', state, seq: ++seq }),
          ));
          await eventually(() => title().includes(`${paneCount} ${state}`), `the view to count ${paneCount} ${state}`, 60_000, 5);
          const ms = performance.now() - start;
          shown.add('herdr', ms);
          cpu.add('herdr', cpuSeconds(view.pid) - cpuBefore);
          context.progress(`watch: ${paneCount} panes → ${state.padEnd(7)} on screen after ${ms.toFixed(0)} ms, watch CPU ${(cpuSeconds(view.pid) - cpuBefore).toFixed(2)} s`);
        }
      }
      const onceMs: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        await run(process.execPath, [HERDR_BIN, 'watch', '--once', '--socket', host.socketPath], { env: context.environment.env, maxBuffer: 64 * 1024 * 1024 });
        const ms = performance.now() - start;
        onceMs.push(ms);
        once.add('herdr', ms);
      }
      context.progress(`watch: --once with ${paneCount} panes in ${median(onceMs).toFixed(0)} ms`);
    } finally {
      view.kill();
      await host.closePanes(panes);
    }
  }, ['herdr']);

  const shownMetric = shown.metric(`${paneCount} state changes at once, until the view counts them all`, 'ms', 'lower');
  const cpuMetric = cpu.metric('watch process CPU for the burst', 'CPU s', 'lower');
  const onceMetric = once.metric('herdr watch --once, start to exit', 'ms', 'lower');
  return {
    id: 'watch',
    title: `herdr watch with ${paneCount} panes`,
    method: `${paneCount} panes; the live view in a 160×40 PTY parsed by @xterm/headless; every pane's state set at once by pane.report_agent on one kept-alive connection (working, blocked, idle; ${rounds} rounds); timed until the view's title counts all ${paneCount} in the new state. Then \`herdr watch --once\` three times. Medians.`,
    metrics: [shownMetric, cpuMetric, onceMetric],
    targets: measured([boundTarget(shownMetric, 'herdr', 1000), boundTarget(onceMetric, 'herdr', 1000)]),
  };
}
